package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stackpick/stackpick/ui/store"
)

func setOf(paths ...string) []store.SetFile {
	var out []store.SetFile
	for _, p := range paths {
		out = append(out, store.SetFile{Path: p, Data: []byte(p + "\n")})
	}
	return out
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// A set is written whole, folders made, in order.
func TestWriteSetWritesEveryFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "deploy")
	got, err := store.WriteSet(dir, setOf("a.yaml", "model/config.pbtxt"), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "model", "config.pbtxt")}; !slices.Equal(got, want) {
		t.Errorf("written %q, want %q", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "model", "config.pbtxt")); string(data) != "model/config.pbtxt\n" {
		t.Errorf("content %q", data)
	}
}

// Files in the way are all named and nothing is written; overwrite
// replaces them.
func TestWriteSetRefusesWholeWhenFilesExist(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("mine"), 0o644)
	_, err := store.WriteSet(dir, setOf("a.yaml", "b.yaml", "c.yaml"), false)
	var ee *store.ExistsError
	if !errors.As(err, &ee) || !errors.Is(err, store.ErrExists) || len(ee.Paths) != 2 {
		t.Fatalf("err %v", err)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"a.yaml", "c.yaml"}) {
		t.Errorf("a refused set wrote something: %q", got)
	}
	if _, err := store.WriteSet(dir, setOf("a.yaml", "b.yaml", "c.yaml"), true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.yaml")); string(data) != "a.yaml\n" {
		t.Errorf("overwrite kept %q", data)
	}
}

// A folder where a file goes is refused even with overwrite; a path that
// leaves the folder, or a folder that is a file, is refused.
func TestWriteSetRefusesWhatItMustNotReplace(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "b.yaml"), 0o755)
	if _, err := store.WriteSet(dir, setOf("a.yaml", "b.yaml"), true); !errors.Is(err, store.ErrIsDir) {
		t.Errorf("a folder in the way: %v", err)
	}
	for _, p := range []string{"../x", "/etc/x", ""} {
		if _, err := store.WriteSet(dir, setOf(p), true); err == nil {
			t.Errorf("path %q was accepted", p)
		}
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := store.WriteSet(file, setOf("a.yaml"), false); !errors.Is(err, store.ErrNotFolder) {
		t.Errorf("a file as the folder: %v", err)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"b.yaml", "file"}) {
		t.Errorf("refusals wrote something: %q", got)
	}
}

// A write that fails part way removes the files and folders it created.
func TestWriteSetLeavesNoHalfSet(t *testing.T) {
	dir := t.TempDir()
	// "x" is a file, so the folder x/ for the third file cannot be made.
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	_, err := store.WriteSet(dir, setOf("a.yaml", "new/b.yaml", "x/c.yaml"), false)
	if err == nil {
		t.Fatal("the set was written through a file")
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"x"}) {
		t.Errorf("a failed set left %q", got)
	}
}

// A replacement that fails part way puts back every file it had replaced
// and removes what it created: the folder holds the old set, byte for
// byte, and no temporary or kept-aside file.
func TestWriteSetReplacingPutsTheOldSetBackOnFailure(t *testing.T) {
	for _, failAt := range []int{1, 2, 3} {
		dir := t.TempDir()
		old := setOf("a.yaml", "b/b.yaml", "c.yaml")
		if _, err := store.WriteSet(dir, old, false); err != nil {
			t.Fatal(err)
		}
		before := entries(t, dir)
		next := []store.SetFile{{Path: "a.yaml", Data: []byte("new a\n")}, {Path: "new/d.yaml", Data: []byte("d\n")}, {Path: "b/b.yaml", Data: []byte("new b\n")}, {Path: "c.yaml", Data: []byte("new c\n")}}
		restore := store.FailReplace(failAt)
		_, err := store.WriteSet(dir, next, true)
		restore()
		if err == nil {
			t.Fatalf("replacement %d was made to fail, and the set reports no error", failAt)
		}
		for _, f := range old {
			if got, _ := os.ReadFile(filepath.Join(dir, f.Path)); string(got) != string(f.Data) {
				t.Errorf("failing at replacement %d: %s holds %q, want the old %q", failAt, f.Path, got, f.Data)
			}
		}
		if got := entries(t, dir); !slices.Equal(got, before) {
			t.Errorf("failing at replacement %d: the folder holds %q, want %q", failAt, got, before)
		}
		if n := store.PendingCount(); n != 0 {
			t.Errorf("failing at replacement %d: %d temporary files still registered", failAt, n)
		}
	}
}

// A file of the set that is a link to a file outside the folder is not
// written through.
func TestWriteSetRefusesALinkOutOfTheFolder(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "target.txt")
	os.WriteFile(outside, []byte("keep\n"), 0o644)
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "a.yaml")); err != nil {
		t.Skip(err)
	}
	_, err := store.WriteSet(dir, setOf("a.yaml"), true)
	if err == nil {
		t.Fatal("the set was written through a link out of its folder")
	}
	if got, _ := os.ReadFile(outside); string(got) != "keep\n" {
		t.Errorf("the file outside holds %q", got)
	}
}

// A signal while a replace is under way (RemovePending on the handler's
// goroutine) rolls it back: the folder holds the old set, not half of the
// new one, and no kept-aside copy is deleted before its file is back.
func TestWriteSetInterruptedBySignalLeavesTheOldSet(t *testing.T) {
	defer store.ResetPending()
	dir := t.TempDir()
	old := setOf("a.yaml", "b.yaml", "c.yaml")
	if _, err := store.WriteSet(dir, old, false); err != nil {
		t.Fatal(err)
	}
	next := []store.SetFile{{Path: "a.yaml", Data: []byte("new a\n")}, {Path: "b.yaml", Data: []byte("new b\n")}, {Path: "c.yaml", Data: []byte("new c\n")}}
	done, restore := store.StopDuringReplace(2)
	_, err := store.WriteSet(dir, next, true)
	restore()
	<-done
	if err == nil {
		t.Fatal("a set interrupted by a signal reports no error")
	}
	for _, f := range old {
		if got, _ := os.ReadFile(filepath.Join(dir, f.Path)); string(got) != string(f.Data) {
			t.Errorf("%s holds %q after the interrupted replace, want the old %q", f.Path, got, f.Data)
		}
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"a.yaml", "b.yaml", "c.yaml"}) {
		t.Errorf("the folder holds %q", got)
	}
}

// A folder of the set that is a link out of the folder is not written
// through either.
func TestWriteSetRefusesAFolderLinkOutOfTheFolder(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "llm-d")); err != nil {
		t.Skip(err)
	}
	if _, err := store.WriteSet(dir, setOf("a.yaml", "llm-d/b.yaml"), true); err == nil {
		t.Fatal("the set was written through a folder link out of its folder")
	}
	if got := entries(t, outside); len(got) != 0 {
		t.Errorf("the folder outside holds %q", got)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"llm-d"}) {
		t.Errorf("the set's folder holds %q", got)
	}
}

// Leftovers names the listed files the new set does not replace that are
// still regular files in the folder, once each, in the listed order, and
// nothing outside the folder, gone, or not a regular file.
func TestLeftoversAreTheOldFilesStillThere(t *testing.T) {
	dir := t.TempDir()
	if _, err := store.WriteSet(dir, setOf("a.yaml", "sub/b.yaml", "c.yaml", "MANIFESTS.md"), false); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	os.Symlink("a.yaml", filepath.Join(dir, "link.yaml"))
	outside := filepath.Join(t.TempDir(), "x.yaml")
	os.WriteFile(outside, []byte("x"), 0o644)
	listed := []string{"a.yaml", "sub/b.yaml", "sub/../sub/b.yaml", "gone.yaml", "folder", "link.yaml", "../" + filepath.Base(outside), "c.yaml", "MANIFESTS.md"}
	got := store.Leftovers(dir, listed, setOf("c.yaml", "MANIFESTS.md", "d.yaml"))
	if want := []string{"a.yaml", "sub/b.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Leftovers = %q, want %q", got, want)
	}
	if got := store.Leftovers(dir, nil, setOf("c.yaml")); got != nil {
		t.Errorf("no earlier index: Leftovers = %q, want none", got)
	}
	if got := entries(t, dir); !slices.Contains(got, "a.yaml") {
		t.Errorf("Leftovers removed a file: %q", got)
	}
}

// A listed file reached through a link to a folder is not named: outside
// dir, removing it would remove what is not the set's; inside, it is a
// file named under another path already.
func TestLeftoversDoNotFollowALinkOutOfTheFolder(t *testing.T) {
	dir, shared := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(shared, "repo", "m"), 0o755)
	os.WriteFile(filepath.Join(shared, "repo", "m", "config.pbtxt"), []byte("x"), 0o644)
	if err := os.Symlink(filepath.Join(shared, "repo"), filepath.Join(dir, "repo")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	os.WriteFile(filepath.Join(dir, "in", "a.yaml"), []byte("x"), 0o644)
	os.Symlink("in", filepath.Join(dir, "inlink"))
	got := store.Leftovers(dir, []string{"repo/m/config.pbtxt", "./in/a.yaml", "inlink/a.yaml"}, nil)
	if want := []string{"in/a.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Leftovers = %q, want %q ", got, want)
	}
}
