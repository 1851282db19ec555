//go:build unix

package store_test

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stackpick/stackpick/ui/store"
)

// A write, even with overwrite (--force), never replaces what is not a
// regular file: a FIFO, a device, a socket, a link to one of them, a
// dangling link or a link loop. It says what the node is and leaves it.
func TestOverwriteNeverReplacesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	nodes := map[string]string{} // name -> what the error calls it
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	nodes["fifo"] = "is a named pipe (FIFO), not a regular file; stackpick only replaces regular files"
	if l, err := net.Listen("unix", filepath.Join(dir, "sock")); err == nil {
		defer l.Close()
		nodes["sock"] = "is a socket, not a regular file"
	}
	if os.Geteuid() == 0 { // a device node of our own: the real one is never put at risk
		if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
			nodes["null"] = "is a character device, not a regular file"
		}
	}
	os.Symlink(os.DevNull, filepath.Join(dir, "to-dev-null"))
	nodes["to-dev-null"] = "is a symbolic link to a character device (" + os.DevNull + "), not a regular file"
	os.Symlink("fifo", filepath.Join(dir, "to-fifo"))
	nodes["to-fifo"] = "is a symbolic link to a named pipe (FIFO)"
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	nodes["dangling"] = "is a symbolic link to nothing"
	os.Symlink("loop-b", filepath.Join(dir, "loop-a"))
	os.Symlink("loop-a", filepath.Join(dir, "loop-b"))
	nodes["loop-a"] = "is a symbolic link loop, not a regular file"

	before := modes(t, dir)
	for name, want := range nodes {
		for _, overwrite := range []bool{true, false} {
			path := filepath.Join(dir, name)
			err := store.WriteFile(path, []byte("memo"), overwrite)
			var nr *store.NotRegularError
			if !errors.Is(err, store.ErrNotRegular) || !errors.As(err, &nr) || nr.Path != path {
				t.Errorf("%s (overwrite %v): err = %v, want a NotRegularError naming the path", name, overwrite, err)
				continue
			}
			if !strings.HasPrefix(err.Error(), path+": "+want) {
				t.Errorf("%s: message %q, want it to start %q", name, err, path+": "+want)
			}
		}
	}
	if after := modes(t, dir); !equalModes(before, after) {
		t.Errorf("the folder changed:\nbefore %v\nafter  %v", before, after)
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v %v", os.DevNull, fi.Mode(), err)
	}
}

func modes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]fs.FileMode{}
	for _, e := range entries {
		fi, _ := e.Info()
		m[e.Name()] = fi.Mode()
	}
	return m
}

func equalModes(a, b map[string]fs.FileMode) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A history that is a FIFO is an error at once, not a read that waits for
// a writer for ever; nothing is set aside or written.
func TestAHistoryThatIsAFIFOIsAnErrorNotAHang(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		_, _, err := store.LoadHistory(path, "x")
		done <- err
		_, err = store.AppendHistory(path, store.Record{Drill: "flags"}, "x")
		done <- err
	}()
	for range 2 {
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path+" is a named pipe (FIFO), not a regular file") {
				t.Errorf("err = %v", err)
			}
		case <-time.After(10 * time.Second): // a generous bound: the answer is immediate
			t.Fatal("reading a FIFO history still waits after 10 s")
		}
	}
	if fi, _ := os.Lstat(path); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", fi.Mode())
	}
}
