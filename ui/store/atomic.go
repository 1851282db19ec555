package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// pending holds the temporary files being written now, so a signal
// handler can remove them before the process exits (RemovePending). A name
// is registered before its file exists and under the same lock that
// RemovePending takes, so no temporary file escapes it; once stopped, no
// new one is created.
var pending struct {
	sync.Mutex
	names   map[string]struct{}
	sets    map[*setWrite]struct{} // set writes in progress, rolled back on a signal
	stopped bool
}

// ErrStopping is returned by a write that begins after RemovePending: the
// process is exiting on a signal and writes nothing more.
var ErrStopping = errors.New("stackpick is stopping on a signal; nothing written")

// createTemp creates a new, empty temporary file in dir, named after base
// and registered as pending.
func createTemp(dir, base string) (*os.File, error) {
	pending.Lock()
	defer pending.Unlock()
	if pending.stopped {
		return nil, ErrStopping
	}
	if pending.names == nil {
		pending.names = map[string]struct{}{}
	}
	for range 10000 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		pending.names[name] = struct{}{}
		return f, nil
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, "."+base+".tmp-*"), Err: fs.ErrExist}
}

func untrack(name string) {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.names, name)
}

// RemovePending removes every temporary file a write in progress has
// created. A signal handler calls it before the process exits: an
// interrupted write leaves nothing behind. Safe from any goroutine. Every
// write after it fails with ErrStopping, so none can leave a temporary file
// between it and the exit. A write it interrupts fails (its temporary file
// is gone before the rename) and leaves the target as it was; a write that
// renamed first is complete. A set write in progress (WriteSet) is rolled
// back first: the files it had replaced are put back.
func RemovePending() {
	pending.Lock()
	pending.stopped = true
	pending.Unlock()
	abortSets()
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

// ErrNotRegular is matched (errors.Is) by a *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is a target that exists and is neither a regular file
// nor a symbolic link to one: a named pipe, a device, a socket, a link to
// one of them, a dangling link or a link loop. It is never replaced, even
// with overwrite: replacing /dev/null or a FIFO someone reads from
// destroys what is not stackpick's.
type NotRegularError struct {
	Path string
	Kind string // "a named pipe (FIFO)", "a character device", ...
}

func (e *NotRegularError) Error() string {
	return e.Path + ": " + e.Problem()
}

// Problem is the error without the path, for messages that name it apart.
func (e *NotRegularError) Problem() string {
	return "is " + e.Kind + ", not a regular file; stackpick only replaces regular files"
}

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Write writes data to path atomically.
func WriteFile(path string, data []byte, overwrite bool) error {
	return WriteFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, overwrite)
}

// WriteFrom streams fill's output to path atomically. If fill fails, nothing
// is left on disk. Only a regular file is replaced, and only with
// overwrite; a symbolic link to a regular file is followed, as editors do:
// the file it names gets the new content and the link stays. A replaced
// file keeps its permissions; a new one gets 0o644.
func WriteFrom(path string, fill func(io.Writer) error, overwrite bool) (err error) {
	target, perm, err := checkTarget(path, overwrite)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	tmp, err := createTemp(dir, filepath.Base(target))
	if err != nil {
		if errors.Is(err, ErrStopping) {
			return err
		}
		return fmt.Errorf("cannot write in %s: %w", dir, unwrapPath(err))
	}
	defer untrack(tmp.Name())
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			// The temporary file's name is noise to whoever reads the
			// error: "no space left on device" is the news.
			if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == tmp.Name() {
				err = pe.Err
			}
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
	if err = os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	if !overwrite {
		// Link fails if the target appeared meanwhile: no silent overwrite.
		if err = os.Link(tmp.Name(), target); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			// No hard links here (some filesystems): check, then rename.
			if _, statErr := os.Lstat(target); statErr == nil {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			err = os.Rename(tmp.Name(), target)
			return err
		}
		return os.Remove(tmp.Name())
	}
	// Look again: the target may have become a pipe or a device while the
	// content was written.
	if _, _, err = checkTarget(target, true); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// checkTarget says which file a write to path replaces (path itself, or
// the regular file a symbolic link names) and with which permissions, or
// why it must not.
func checkTarget(path string, overwrite bool) (target string, perm fs.FileMode, err error) {
	info, err := os.Lstat(path)
	if err != nil {
		// Missing (or unreachable: creating the temporary file says why).
		return path, 0o644, nil
	}
	target = path
	if info.Mode()&fs.ModeSymlink != 0 {
		linked, serr := os.Stat(path)
		switch {
		case errors.Is(serr, fs.ErrNotExist):
			return "", 0, &NotRegularError{Path: path, Kind: "a symbolic link to nothing (what it names does not exist)"}
		case errors.Is(serr, syscall.ELOOP):
			return "", 0, &NotRegularError{Path: path, Kind: "a symbolic link loop"}
		case serr != nil:
			return "", 0, serr
		case linked.IsDir():
			return "", 0, fmt.Errorf("%s: %w", path, ErrIsDir)
		case !linked.Mode().IsRegular():
			resolved, _ := filepath.EvalSymlinks(path)
			return "", 0, &NotRegularError{Path: path, Kind: "a symbolic link to " + kindOf(linked.Mode()) + " (" + resolved + ")"}
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", 0, err
		}
		info = linked
	}
	switch {
	case info.IsDir():
		return "", 0, fmt.Errorf("%s: %w", path, ErrIsDir)
	case !info.Mode().IsRegular():
		return "", 0, &NotRegularError{Path: path, Kind: kindOf(info.Mode())}
	case !overwrite:
		return "", 0, fmt.Errorf("%s: %w", path, ErrExists)
	}
	return target, info.Mode().Perm(), nil
}

// kindOf names a file type that is not a regular file or a folder.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "a special file"
	}
}

// MakeParents creates the missing folders above path (0o755), as ADR tools
// do for a record's folder. undo removes the folders it created, for a
// write that then fails: a failed write leaves nothing behind.
func MakeParents(path string) (undo func(), err error) {
	dir := filepath.Dir(path)
	var created []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		created = append(created, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	undo = func() {
		for _, d := range created { // deepest first; only empty ones go
			os.Remove(d)
		}
	}
	if len(created) == 0 {
		return undo, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		undo()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return func() {}, fmt.Errorf("cannot create the folder %s: %w", pe.Path, pe.Err)
		}
		return func() {}, fmt.Errorf("cannot create the folder %s: %w", dir, err)
	}
	return undo, nil
}

// unwrapPath is err without the path it names (a temporary file's, which
// is noise to whoever reads it): a *PathError's or a rename's *LinkError's
// cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
