package store_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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
