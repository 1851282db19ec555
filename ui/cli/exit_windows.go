package cli

import "syscall"

// Windows says a disk is full or write-protected in its own numbers:
// syscall's ENOSPC and EROFS there are Go's inventions, never returned.
func init() {
	environmentErrors = append(environmentErrors,
		syscall.Errno(112),  // ERROR_DISK_FULL
		syscall.Errno(39),   // ERROR_HANDLE_DISK_FULL
		syscall.Errno(19),   // ERROR_WRITE_PROTECT
		syscall.Errno(1117), // ERROR_IO_DEVICE
	)
}
