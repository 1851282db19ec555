package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// pending holds the temporary files being written now, so a signal
// handler can remove them before the process exits (RemovePending).
var pending struct {
	sync.Mutex
	names map[string]struct{}
}

func track(name string) {
	pending.Lock()
	defer pending.Unlock()
	if pending.names == nil {
		pending.names = map[string]struct{}{}
	}
	pending.names[name] = struct{}{}
}

func untrack(name string) {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.names, name)
}

// RemovePending removes every temporary file a write in progress has
// created. A signal handler calls it before the process exits: an
// interrupted write leaves nothing behind. Safe from any goroutine.
func RemovePending() {
	pending.Lock()
	defer pending.Unlock()
	for name := range pending.names {
		os.Remove(name)
		delete(pending.names, name)
	}
}

// ErrExists is returned when the target exists and overwrite is false.
var ErrExists = errors.New("file exists")

// ErrIsDir is returned when the target is a folder: it is never replaced.
var ErrIsDir = errors.New("is a folder, not a file")

// Write writes data to path atomically.
func WriteFile(path string, data []byte, overwrite bool) error {
	return WriteFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, overwrite)
}

// WriteFrom streams fill's output to path atomically. If fill fails, nothing
// is left on disk.
func WriteFrom(path string, fill func(io.Writer) error, overwrite bool) (err error) {
	if info, statErr := os.Stat(path); statErr == nil && info.IsDir() {
		return fmt.Errorf("%s: %w", path, ErrIsDir)
	}
	if !overwrite {
		if _, statErr := os.Lstat(path); statErr == nil {
			return fmt.Errorf("%s: %w", path, ErrExists)
		}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, unwrapPath(err))
	}
	track(tmp.Name())
	defer untrack(tmp.Name())
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if !overwrite {
		// Link fails if the target appeared meanwhile: no silent overwrite.
		if err = os.Link(tmp.Name(), path); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			// No hard links here (some filesystems): check, then rename.
			if _, statErr := os.Lstat(path); statErr == nil {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			err = os.Rename(tmp.Name(), path)
			return err
		}
		return os.Remove(tmp.Name())
	}
	return os.Rename(tmp.Name(), path)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
