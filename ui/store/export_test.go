package store

import (
	"os"
	"syscall"
	"time"
)

// ResetPending undoes RemovePending's stop, for tests that call it.
func ResetPending() {
	pending.Lock()
	defer pending.Unlock()
	pending.stopped = false
}

// PendingCount is how many temporary files are registered now.
func PendingCount() int {
	pending.Lock()
	defer pending.Unlock()
	return len(pending.names)
}

// SetLockWait changes how long AppendHistory waits for the lock, until the
// returned func restores it.
func SetLockWait(d time.Duration) (restore func()) {
	old := lockWait
	lockWait = d
	return func() { lockWait = old }
}

// SetRollBytes changes the history's size bound, until the returned func
// restores it.
func SetRollBytes(n int64) (restore func()) {
	old := RollBytes
	RollBytes = n
	return func() { RollBytes = old }
}

// FailReplace makes the nth replacement of a file in a set fail (1 is the
// first), until the returned func restores it.
func FailReplace(n int) (restore func()) {
	old := replaceFile
	count := 0
	replaceFile = func(from, to string) error {
		count++
		if count == n {
			return &os.PathError{Op: "rename", Path: from, Err: syscall.EPERM}
		}
		return old(from, to)
	}
	return func() { replaceFile = old }
}

// StopDuringReplace runs RemovePending, as a signal handler does on its own
// goroutine, when the nth replacement of a set begins, and waits until it
// has marked the process as stopping; done is closed once it returns.
func StopDuringReplace(n int) (done <-chan struct{}, restore func()) {
	old := replaceFile
	count := 0
	ch := make(chan struct{})
	replaceFile = func(from, to string) error {
		count++
		if count == n {
			go func() { RemovePending(); close(ch) }()
			for !stopping() {
				time.Sleep(time.Millisecond)
			}
		}
		return old(from, to)
	}
	return ch, func() { replaceFile = old }
}
