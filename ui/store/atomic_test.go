package store_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stackpick/stackpick/ui/store"
)

func TestWriteCreatesAndRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := store.WriteFile(p, []byte("one"), false); err != nil {
		t.Fatal(err)
	}
	if err := store.WriteFile(p, []byte("two"), false); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second write without overwrite: %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("file changed to %q", b)
	}
	if err := store.WriteFile(p, []byte("two"), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Fatalf("overwrite gave %q", b)
	}
	assertOnly(t, dir, "a.txt")
}

func TestAFailedWriteLeavesNothingBehind(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "memo.md")
	boom := errors.New("disk on fire")
	err := store.WriteFrom(p, func(w io.Writer) error {
		io.WriteString(w, "half a memo")
		return boom
	}, false)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	assertOnly(t, dir)
}

func TestAFailedOverwriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "memo.md")
	os.WriteFile(p, []byte("old"), 0o644)
	_ = store.WriteFrom(p, func(w io.Writer) error { return errors.New("fail") }, true)
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("old file changed to %q", b)
	}
	assertOnly(t, dir, "memo.md")
}

func TestWriteIntoAMissingFolderFails(t *testing.T) {
	if err := store.WriteFile(filepath.Join(t.TempDir(), "no", "x"), nil, false); err == nil {
		t.Fatal("expected an error")
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("folder holds %v, want %v", got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("folder holds %v, want %v", got, names)
		}
	}
}

// A symbolic link to a regular file is followed, as editors do: the file
// it names gets the new content and the link stays a link. Without
// overwrite it exists like any file.
func TestALinkToARegularFileIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "adr", "0007.md")
	os.Mkdir(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "latest.md")
	if err := os.Symlink(filepath.Join("adr", "0007.md"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := store.WriteFile(link, []byte("new"), false); !errors.Is(err, store.ErrExists) {
		t.Fatalf("without overwrite: %v, want ErrExists", err)
	}
	if err := store.WriteFile(link, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("the linked file holds %q", b)
	}
	assertOnly(t, filepath.Dir(real), "0007.md")
}

// Replacing a file keeps its permissions: a private memo stays private.
func TestReplacingAFileKeepsItsPermissions(t *testing.T) {
	p := filepath.Join(t.TempDir(), "private.md")
	os.WriteFile(p, []byte("old"), 0o600)
	os.Chmod(p, 0o600)
	if err := store.WriteFile(p, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	n := filepath.Join(filepath.Dir(p), "new.md")
	store.WriteFile(n, []byte("x"), false)
	if fi, _ := os.Stat(n); fi.Mode().Perm() != 0o644 {
		t.Fatalf("a new file has mode %v, want 0644", fi.Mode().Perm())
	}
}

// MakeParents creates the folders an ADR path needs; undo removes only
// those it created, and only while they are empty.
func TestMakeParentsCreatesTheFoldersAndUndoesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "docs"), 0o755)
	p := filepath.Join(dir, "docs", "adr", "2026", "0007.md")
	undo, err := store.MakeParents(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		t.Fatalf("folder not created: %v", err)
	}
	undo()
	assertOnly(t, dir, "docs")
	assertOnly(t, filepath.Join(dir, "docs"))

	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	if _, err := store.MakeParents(filepath.Join(dir, "notes.txt", "sub", "x.md")); err == nil {
		// Lstat of a path under a file is ENOTDIR: nothing to create; the
		// write then says it cannot write there.
		if err := store.WriteFile(filepath.Join(dir, "notes.txt", "sub", "x.md"), nil, false); err == nil {
			t.Fatal("wrote under a file")
		}
	}
	undo, err = store.MakeParents(filepath.Join(dir, "docs", "x.md"))
	if err != nil {
		t.Fatal(err)
	}
	undo() // nothing created, nothing removed
	assertOnly(t, dir, "docs", "notes.txt")
}

// RemovePending, called while a write is in progress (as the signal
// handler does), removes its temporary file; the write then fails and the
// old file is kept whole; every write after it fails with ErrStopping and
// creates nothing.
func TestRemovePendingRemovesAWriteInProgress(t *testing.T) {
	defer store.ResetPending()
	dir := t.TempDir()
	p := filepath.Join(dir, "memo.md")
	os.WriteFile(p, []byte("old"), 0o644)
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- store.WriteFrom(p, func(w io.Writer) error {
			io.WriteString(w, "half a ")
			close(started)
			<-release
			_, err := io.WriteString(w, "memo")
			return err
		}, true)
	}()
	<-started
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("no temporary file while writing: %v", entries)
	}
	store.RemovePending()
	assertOnly(t, dir, "memo.md")
	close(release)
	if err := <-done; err == nil {
		t.Error("the interrupted write reports success")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("the old file holds %q", b)
	}
	if err := store.WriteFile(filepath.Join(dir, "later.md"), []byte("x"), false); !errors.Is(err, store.ErrStopping) {
		t.Errorf("a write after RemovePending: %v, want ErrStopping", err)
	}
	assertOnly(t, dir, "memo.md")
	if n := store.PendingCount(); n != 0 {
		t.Errorf("%d temporary files still registered", n)
	}
}

// Writes racing RemovePending (run with -race): whatever the order, no
// temporary file is left, and each target is either absent or whole.
func TestWritesRacingRemovePendingLeaveNoTemporaryFile(t *testing.T) {
	for round := range 20 {
		func() {
			defer store.ResetPending()
			dir := t.TempDir()
			var wg sync.WaitGroup
			for i := range 16 {
				wg.Go(func() {
					store.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", i)), []byte("whole"), i%2 == 0)
				})
				if i == round%16 {
					wg.Go(store.RemovePending)
				}
			}
			wg.Wait()
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") {
					t.Fatalf("round %d: temporary file left: %s", round, e.Name())
				}
				if b, _ := os.ReadFile(filepath.Join(dir, e.Name())); string(b) != "whole" {
					t.Fatalf("round %d: %s holds %q", round, e.Name(), b)
				}
			}
		}()
	}
}
