package store

import (
	"errors"
	"fmt"
	"time"
)

// ErrLocked is matched (errors.Is) when the history's lock could not be had
// in time: other stackpick processes held it all along.
var ErrLocked = errors.New("the drill history is locked")

// lockWait bounds how long a drill waits for the lock. Each append holds
// it for milliseconds; hundreds of drills finishing at once queue behind
// each other for seconds. The bound is there so a drill never waits for
// ever, not to be reached.
var lockWait = 60 * time.Second

// lockHistory takes the advisory lock beside the history at path (path +
// ".lock") for one read-modify-write, waiting at most lockWait, and
// returns what releases it.
func lockHistory(path string) (unlock func(), err error) {
	name := path + ".lock"
	unlock, timedOut, err := lockFile(name, lockWait)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the drill history (%s): %w", name, unwrapPath(err))
	}
	if timedOut {
		return nil, fmt.Errorf("%w: waited %v for %s while other stackpick processes wrote the history; try again when they are done%s", ErrLocked, lockWait, name, staleHint(name))
	}
	return unlock, nil
}
