//go:build unix

package cli_test

import (
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// --out FILE --force replaces only a regular file: a FIFO, or a link to
// /dev/null, is refused with exit 2 and left as it was.
func TestOutWithForceNeverReplacesAFIFOOrADevice(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := syscall.Mkfifo("pipe", 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink(os.DevNull, "null-link")
	for _, c := range []struct{ out, want string }{
		{"pipe", "stackpick: pipe: is a named pipe (FIFO), not a regular file; stackpick only replaces regular files; give --out the name of a regular file, or leave --out out to write to standard output\n"},
		{"null-link", "stackpick: null-link: is a symbolic link to a character device (" + os.DevNull + "), not a regular file; stackpick only replaces regular files; give --out the name of a regular file, or leave --out out to write to standard output\n"},
	} {
		for _, force := range []bool{true, false} {
			args := []string{"decide", "-s", "exit-test", "--out", c.out}
			if force {
				args = append(args, "--force")
			}
			code, stdout, stderr := run(t, nil, args...)
			if code != 2 || stdout != "" || stderr != c.want {
				t.Errorf("%v: exit %d, stdout %q\nstderr %q\nwant   %q", args, code, stdout, stderr, c.want)
			}
		}
	}
	if fi, err := os.Lstat("pipe"); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
	if fi, err := os.Lstat("null-link"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link is now %v (%v)", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %v", entries)
	}
}
