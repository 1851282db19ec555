//go:build !race

package decide_test

const raceDetector = false
