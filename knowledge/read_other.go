//go:build !unix

package knowledge

const openNoBlock = 0
