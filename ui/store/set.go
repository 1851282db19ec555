package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// SetFile is one file of a set written together into a folder.
type SetFile struct {
	// Path is slash-separated, relative to the folder, and stays inside
	// it (no "..", not absolute).
	Path string
	Data []byte
}

// ExistsError is a set write refused because files of it exist already:
// all of them are named, so one answer settles them. It matches ErrExists.
type ExistsError struct{ Paths []string }

func (e *ExistsError) Error() string {
	if len(e.Paths) == 1 {
		return e.Paths[0] + ": " + ErrExists.Error()
	}
	return fmt.Sprintf("%d files exist: %s", len(e.Paths), strings.Join(e.Paths, ", "))
}

func (e *ExistsError) Is(target error) bool { return target == ErrExists }

// ErrNotFolder is a set's folder that exists and is not a folder.
var ErrNotFolder = errors.New("is not a folder")

// WriteSet writes files under dir, creating the folders they need, all
// or nothing. Every target is checked before anything is written: without
// overwrite, a set whose files exist is refused whole (an *ExistsError
// naming each); a folder, a pipe or a device where a file goes is refused
// even with overwrite, and so is a symbolic link to a file outside dir.
// Then every file's new content is written beside its target first, and
// only once all are on disk are they renamed into place, each replaced
// file kept (hard-linked aside) until the last rename: a write that fails
// at any step puts back the files it replaced, removes the ones it
// created and the folders it made, and leaves the set as it was. It
// returns the paths written, in order.
func WriteSet(dir string, files []SetFile, overwrite bool) ([]string, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotFolder)
	}
	paths := make([]string, len(files))
	var exist []string
	for i, f := range files {
		rel := filepath.FromSlash(f.Path)
		if f.Path == "" || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%q is not a path inside %s", f.Path, dir)
		}
		paths[i] = filepath.Join(dir, rel)
		if out := linkedOut(dir, paths[i]); out != "" {
			return nil, &NotRegularError{Path: out, Kind: "a symbolic link to a folder outside the folder the set is written in"}
		}
		target, _, err := checkTarget(paths[i], true)
		if err != nil {
			return nil, err
		}
		if _, err := os.Lstat(paths[i]); err == nil {
			exist = append(exist, paths[i])
			if target != paths[i] && !inside(dir, target) {
				return nil, &NotRegularError{Path: paths[i], Kind: "a symbolic link to a file outside the folder (" + target + ")"}
			}
		}
	}
	if len(exist) > 0 && !overwrite {
		return nil, &ExistsError{Paths: exist}
	}
	w := &setWrite{}
	if !register(w) {
		return nil, ErrStopping
	}
	defer unregister(w)
	for i, f := range files {
		if err := w.stage(paths[i], f.Data); err != nil {
			return nil, w.rollback(err)
		}
	}
	for _, st := range w.staged {
		if err := w.commit(st); err != nil {
			return nil, w.rollback(err)
		}
	}
	w.finish()
	return paths, nil
}

// RestoreError is a set write that failed and then could not put back
// every file it had replaced: each such file's old content is kept, under
// the name Kept gives, beside it.
type RestoreError struct {
	Err  error
	Kept map[string]string // the file → where its old content is
}

func (e *RestoreError) Error() string {
	var parts []string
	for p, k := range e.Kept {
		parts = append(parts, p+" (its old content is "+k+")")
	}
	slices.Sort(parts)
	return e.Err.Error() + "; and these could not be put back: " + strings.Join(parts, ", ")
}

func (e *RestoreError) Unwrap() error { return e.Err }

// register enters a set write for RemovePending to roll back; false when
// the process is already stopping.
func register(w *setWrite) bool {
	pending.Lock()
	defer pending.Unlock()
	if pending.stopped {
		return false
	}
	if pending.sets == nil {
		pending.sets = map[*setWrite]struct{}{}
	}
	pending.sets[w] = struct{}{}
	return true
}

func unregister(w *setWrite) {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.sets, w)
}

func stopping() bool {
	pending.Lock()
	defer pending.Unlock()
	return pending.stopped
}

// replaceFile renames a staged file onto the one it replaces; a test
// makes it fail part way through a set.
var replaceFile = os.Rename

// linkedOut is the folder between dir and path that is a symbolic link
// leading out of dir, or "": a set is written inside its folder only.
func linkedOut(dir, path string) string {
	rel, err := filepath.Rel(dir, filepath.Dir(path))
	if err != nil || rel == "." {
		return ""
	}
	at := dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		info, err := os.Lstat(at)
		if err != nil {
			return "" // missing from here down: made by the write, inside dir
		}
		if info.Mode()&os.ModeSymlink != 0 {
			if to, err := filepath.EvalSymlinks(at); err != nil || !inside(dir, to) {
				return at
			}
		}
	}
	return ""
}

// inside reports whether path is in dir or below it, links resolved.
func inside(dir, path string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		d = dir
	}
	d, _ = filepath.Abs(d)
	p, _ := filepath.Abs(path)
	rel, err := filepath.Rel(d, p)
	return err == nil && filepath.IsLocal(rel)
}

// setWrite is a set being written: its files' new contents beside their
// targets, then renamed in; what it undoes if a step fails.
type setWrite struct {
	// mu orders the write's steps against a signal's rollback
	// (RemovePending): after it, no step runs.
	mu     sync.Mutex
	over   bool     // rolled back or finished
	undos  []func() // the folders made
	staged []*stagedFile
}

type stagedFile struct {
	path, target, tmp string
	backup            string // the replaced file, hard-linked aside ("" when none)
	old               []byte // its content, when no hard link could be made
	oldPerm           os.FileMode
	existed, done     bool
}

// stage writes a file's content to a temporary file beside its target.
func (w *setWrite) stage(path string, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return ErrStopping
	}
	undo, err := MakeParents(path)
	if err != nil {
		return err
	}
	w.undos = append(w.undos, undo)
	target, perm, err := checkTarget(path, true)
	if err != nil {
		return err
	}
	st := &stagedFile{path: path, target: target}
	if _, err := os.Lstat(path); err == nil {
		st.existed = true
	}
	tmp, err := createTemp(filepath.Dir(target), filepath.Base(target))
	if err != nil {
		if errors.Is(err, ErrStopping) {
			return err
		}
		return fmt.Errorf("cannot write in %s: %w", filepath.Dir(target), unwrapPath(err))
	}
	st.tmp = tmp.Name()
	w.staged = append(w.staged, st)
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(st.tmp, perm)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

// commit puts a staged file in place, keeping the file it replaces aside.
func (w *setWrite) commit(st *stagedFile) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over || stopping() {
		return ErrStopping
	}
	if st.existed {
		if info, err := os.Stat(st.target); err == nil {
			st.oldPerm = info.Mode().Perm()
		}
		if b, err := createTemp(filepath.Dir(st.target), filepath.Base(st.target)+".old"); err == nil {
			name := b.Name()
			b.Close()
			os.Remove(name)
			if os.Link(st.target, name) == nil {
				st.backup = name
			} else {
				untrack(name)
			}
		}
		if st.backup == "" {
			old, err := os.ReadFile(st.target)
			if err != nil {
				return fmt.Errorf("%s: %w", st.path, unwrapPath(err))
			}
			st.old = old
		}
		// Look again: the target may have become a pipe or a device.
		if _, _, err := checkTarget(st.target, true); err != nil {
			return err
		}
		if err := replaceFile(st.tmp, st.target); err != nil {
			return fmt.Errorf("cannot replace %s: %w", st.path, unwrapPath(err))
		}
	} else {
		// Link fails if the file appeared meanwhile: no silent overwrite.
		if err := os.Link(st.tmp, st.target); err != nil {
			if _, statErr := os.Lstat(st.target); statErr == nil {
				return fmt.Errorf("%s: %w", st.path, ErrExists)
			}
			if err := os.Rename(st.tmp, st.target); err != nil {
				return fmt.Errorf("cannot write %s: %w", st.path, unwrapPath(err))
			}
		} else {
			os.Remove(st.tmp)
		}
	}
	untrack(st.tmp)
	st.done = true
	return nil
}

// rollback puts back every file replaced, removes every file created and
// every temporary file, then the folders made, and returns err, or a
// *RestoreError naming what could not be put back (its old content kept
// aside, never deleted). After it no step of the write runs.
func (w *setWrite) rollback(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return err
	}
	w.over = true
	kept := map[string]string{}
	for i := len(w.staged) - 1; i >= 0; i-- {
		st := w.staged[i]
		switch {
		case !st.done:
			os.Remove(st.tmp)
			untrack(st.tmp)
		case !st.existed:
			os.Remove(st.target)
		case st.backup != "":
			if rerr := os.Rename(st.backup, st.target); rerr != nil {
				kept[st.path] = st.backup
				untrack(st.backup) // it stays: a signal's cleanup must not remove it
				continue
			}
		case st.old != nil:
			// Written in place: a signal may have stopped atomic writes.
			if werr := os.WriteFile(st.target, st.old, st.oldPerm); werr != nil {
				kept[st.path] = "lost: " + werr.Error()
			}
		}
		if st.backup != "" {
			os.Remove(st.backup)
			untrack(st.backup)
		}
	}
	for i := len(w.undos) - 1; i >= 0; i-- {
		w.undos[i]()
	}
	if len(kept) > 0 {
		return &RestoreError{Err: err, Kept: kept}
	}
	return err
}

// finish drops the replaced files kept aside.
func (w *setWrite) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.over {
		return
	}
	w.over = true
	for _, st := range w.staged {
		if st.backup != "" {
			os.Remove(st.backup)
			untrack(st.backup)
		}
	}
}

// abortSets rolls back every set write in progress: a signal's cleanup
// (RemovePending) calls it before it removes the temporary files, so an
// interrupted replace leaves the old set, not half of the new one.
func abortSets() {
	pending.Lock()
	sets := make([]*setWrite, 0, len(pending.sets))
	for w := range pending.sets {
		sets = append(sets, w)
	}
	pending.Unlock()
	for _, w := range sets {
		w.rollback(ErrStopping) //nolint:errcheck // the process is exiting; what could not be put back stays beside it
	}
}

// Leftovers are the files of a set written in dir before that a new set
// of files does not replace: listed names the old set's files (read from
// the folder's index, which the caller knows how to read; nil when there
// is none), and only those that are still regular files in dir count, not
// one reached through a link to a folder (it may lead out of dir, or name
// a file twice). Paths come back cleaned, slash-separated.
// Nothing is removed: they may hold a user's edits, and the caller says
// they are there.
func Leftovers(dir string, listed []string, files []SetFile) []string {
	keep := make(map[string]bool, len(files))
	for _, f := range files {
		keep[filepath.Clean(filepath.FromSlash(f.Path))] = true
	}
	var left []string
	for _, p := range listed {
		rel := filepath.Clean(filepath.FromSlash(p))
		if keep[rel] || !filepath.IsLocal(rel) {
			continue
		}
		path := filepath.Join(dir, rel)
		if throughLink(dir, rel) {
			continue // through a link to a folder: maybe outside dir, maybe named twice
		}
		if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() {
			left = append(left, filepath.ToSlash(rel))
			keep[rel] = true
		}
	}
	return left
}

// throughLink reports whether a folder on the way from dir to rel is a
// symbolic link.
func throughLink(dir, rel string) bool {
	at := dir
	parts := strings.Split(rel, string(filepath.Separator))
	for _, part := range parts[:len(parts)-1] {
		at = filepath.Join(at, part)
		if info, err := os.Lstat(at); err != nil || info.Mode()&os.ModeSymlink != 0 {
			return err == nil
		}
	}
	return false
}
