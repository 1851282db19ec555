//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// lockFile polls tryLock until it gets the lock or wait passes.
func lockFile(name string, wait time.Duration) (unlock func(), timedOut bool, err error) {
	deadline := time.Now().Add(wait)
	pause := time.Millisecond
	for {
		unlock, held, err := tryLock(name)
		if err != nil || !held {
			return unlock, false, err
		}
		if time.Now().After(deadline) {
			return nil, true, nil
		}
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
}

// tryLock creates the lock file exclusively: the portable fallback where
// flock(2) is not in the standard library (Windows, Solaris, ...), instead
// of a dependency for LockFileEx. Unlocking removes it. A stackpick killed
// while it holds the lock (a few milliseconds) leaves it behind: the
// timeout's message says to remove it.
func tryLock(name string) (unlock func(), held bool, err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, true, nil
	}
	if _, serr := os.Lstat(name); errors.Is(err, fs.ErrPermission) && serr == nil {
		return nil, true, nil // Windows: its holder is deleting it
	}
	if err != nil {
		return nil, false, err
	}
	f.Close()
	return func() { os.Remove(name) }, false, nil
}

func staleHint(name string) string {
	return ", or remove " + name + " if no stackpick is running"
}
