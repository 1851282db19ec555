//go:build unix

package knowledge

import "syscall"

// openNoBlock keeps an open of a named pipe from waiting for a writer.
const openNoBlock = syscall.O_NONBLOCK
