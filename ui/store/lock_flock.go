//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"time"
)

// lockFile takes flock(2) on the lock file, blocking, for at most wait.
// The kernel wakes a waiter the moment the lock is free, so waiters take
// turns instead of polling (polling starved some waiters of 200 until
// they timed out). The kernel drops the lock when its holder exits,
// however it exits, so a lock is never stale. The file stays: removing it
// would let a second process lock a new file while a first still holds
// the old one.
//
// The blocking call runs in a goroutine; if wait passes first, that
// goroutine releases the lock as soon as it gets it, so no one is kept
// waiting by a drill that gave up.
func lockFile(name string, wait time.Duration) (unlock func(), timedOut bool, err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	release := func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	var mu sync.Mutex
	abandoned := false
	got := make(chan error, 1)
	go func() {
		var err error
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
			if !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			if err == nil {
				release()
			} else {
				f.Close()
			}
			return
		}
		got <- err
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err = <-got:
	case <-timer.C:
		mu.Lock()
		select {
		case err = <-got: // it came as the time ran out: take it
		default:
			abandoned = true
			mu.Unlock()
			return nil, true, nil
		}
		mu.Unlock()
	}
	if err != nil {
		f.Close()
		return nil, false, &os.PathError{Op: "flock", Path: name, Err: err}
	}
	return release, false, nil
}

func staleHint(string) string { return "" }
