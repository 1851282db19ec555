//go:build race

package decide_test

// raceDetector says the tests run under -race, where every decision costs
// several times more: the exhaustive sweeps sample instead (the run
// without -race covers the whole space).
const raceDetector = true
