package store

import (
	"errors"
	"fmt"
	"time"
)

// ErrLocked is matched (errors.Is) when the history's lock could not be had
// in time: another stackpick holds it.
var ErrLocked = errors.New("the drill history is locked")

// lockWait bounds how long a drill waits for another one's append (which
// holds the lock for milliseconds): never forever.
var lockWait = 10 * time.Second

// lockHistory takes the advisory lock beside the history at path (path +
// ".lock") for one read-modify-write, waiting at most lockWait, and
// returns what releases it.
func lockHistory(path string) (unlock func(), err error) {
	name := path + ".lock"
	deadline := time.Now().Add(lockWait)
	pause := time.Millisecond
	for {
		unlock, held, err := tryLock(name)
		if err != nil {
			return nil, fmt.Errorf("cannot lock the drill history (%s): %w", name, unwrapPath(err))
		}
		if !held {
			return unlock, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: another stackpick has held %s for over %v; try again when it is done%s", ErrLocked, name, lockWait, staleHint(name))
		}
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
}
