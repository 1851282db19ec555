package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// WriteSet writes files under dir, each atomically (WriteFile), creating
// the folders they need. Every target is checked before the first is
// written: without overwrite, a set whose files exist is refused whole
// (an *ExistsError naming each); a folder, a pipe or a device where a file
// goes is refused even with overwrite. A write that fails part way removes
// the files and folders this call created, so no half set is left (a file
// replaced with overwrite stays replaced: its old content is gone). It
// returns the paths written, in order.
func WriteSet(dir string, files []SetFile, overwrite bool) ([]string, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotFolder)
	}
	paths := make([]string, len(files))
	existed := make([]bool, len(files))
	var exist []string
	for i, f := range files {
		rel := filepath.FromSlash(f.Path)
		if f.Path == "" || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%q is not a path inside %s", f.Path, dir)
		}
		paths[i] = filepath.Join(dir, rel)
		_, _, err := checkTarget(paths[i], true)
		if err != nil {
			return nil, err
		}
		if _, err := os.Lstat(paths[i]); err == nil {
			existed[i] = true
			exist = append(exist, paths[i])
		}
	}
	if len(exist) > 0 && !overwrite {
		return nil, &ExistsError{Paths: exist}
	}
	var undos []func()
	var written []string
	fail := func(err error) ([]string, error) {
		for i := len(written) - 1; i >= 0; i-- {
			if j := slices.Index(paths, written[i]); j >= 0 && !existed[j] {
				os.Remove(written[i])
			}
		}
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
		return nil, err
	}
	for i, f := range files {
		undo, err := MakeParents(paths[i])
		if err != nil {
			return fail(err)
		}
		undos = append(undos, undo)
		if err := WriteFile(paths[i], f.Data, overwrite); err != nil {
			if !strings.Contains(err.Error(), filepath.Dir(paths[i])) {
				err = fmt.Errorf("%s: %w", paths[i], err)
			}
			return fail(err)
		}
		written = append(written, paths[i])
	}
	return written, nil
}
