//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// nested is an answers file of n inline tables, one inside the next.
func nested(n int) string {
	return "nodes = " + strings.Repeat("{ a = ", n) + "1" + strings.Repeat(" }", n) + "\n"
}

// Answers files are read only when they are regular files within the
// size limit: a device, a named pipe, a folder, a symlink loop or an
// oversized file is refused at once, with exit code 2 and a message that
// names the path, instead of running out of memory or hanging.
func TestAnswersFileMustBeARegularFileWithinTheLimit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := syscall.Mkfifo("pipe.toml", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("folder.toml", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-b.toml", "loop-a.toml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-a.toml", "loop-b.toml"); err != nil {
		t.Fatal(err)
	}
	write(t, "big.toml", "# "+strings.Repeat("x", knowledge.MaxInputBytes)+"\nnodes = 2\n")
	write(t, "deep.toml", nested(10000))
	cases := []struct {
		name, file string
		want       string
	}{
		{"device", "/dev/zero", "stackpick: /dev/zero: is a device, not an answers file"},
		{"named pipe with no writer", "pipe.toml", "stackpick: pipe.toml: is a named pipe (FIFO), not an answers file"},
		{"folder", "folder.toml", "stackpick: folder.toml: is a folder, not an answers file"},
		{"symlink loop", "loop-a.toml", "stackpick: loop-a.toml: cannot read the answers file: too many levels of symbolic links"},
		{"over the limit", "big.toml", "stackpick: big.toml: the answers file is 1,048,589 bytes, over the 1 MiB (1,048,576-byte) limit"},
		{"10,000 nested tables", "deep.toml", "stackpick: deep.toml:1: tables and lists are nested more than 16 deep"},
	}
	for _, tc := range cases {
		for _, args := range [][]string{{"decide", "--answers", tc.file}, {"open", tc.file}} {
			t.Run(tc.name+"/"+args[0], func(t *testing.T) {
				code, stdout, stderr := runBounded(t, strings.NewReader(""), nil, args...)
				if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tc.want) {
					t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and stderr starting %q", code, stdout, stderr, tc.want)
				}
				if strings.Count(stderr, "\n") > 2 {
					t.Errorf("a one-line problem takes %d lines:\n%s", strings.Count(stderr, "\n"), stderr)
				}
			})
		}
	}
}

// --answers - reads stdin no further than the limit: /dev/zero on stdin is
// refused, not read until memory runs out.
func TestAnswersFromStdinAreBounded(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	code, stdout, stderr := runBounded(t, zero, nil, "decide", "--answers", "-")
	want := "stackpick: -: the answers file is over the 1 MiB (1,048,576-byte) limit"
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, stdout, stderr, want)
	}
	// Just under the limit is read as ever.
	code, _, stderr = runBounded(t, strings.NewReader("nodes = 2\n# "+strings.Repeat("x", knowledge.MaxInputBytes-20)+"\n"), nil, "decide", "--answers", "-")
	if code != 0 {
		t.Fatalf("an answers file under the limit: exit %d\n%s", code, stderr)
	}
}

// Overlay files get the same checks: one linked to /dev/zero, a named
// pipe, an oversized file or one nested 10,000 deep stops the load with
// exit 2 and its path.
func TestOverlayFilesMustBeRegularFilesWithinTheLimit(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, kb string)
		want  string
	}{
		{"linked to /dev/zero", func(t *testing.T, kb string) {
			if err := os.Symlink("/dev/zero", filepath.Join(kb, "zero.toml")); err != nil {
				t.Fatal(err)
			}
		}, "zero.toml: is a device, not a knowledge file"},
		{"named pipe", func(t *testing.T, kb string) {
			if err := syscall.Mkfifo(filepath.Join(kb, "pipe.toml"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "pipe.toml: is a named pipe (FIFO), not a knowledge file"},
		{"over the limit", func(t *testing.T, kb string) {
			write(t, filepath.Join(kb, "big.toml"), strings.Repeat("# padding\n", knowledge.MaxInputBytes/10+1))
		}, "big.toml: the knowledge file is 1,048,580 bytes, over the 1 MiB (1,048,576-byte) limit"},
		{"10,000 nested tables", func(t *testing.T, kb string) {
			write(t, filepath.Join(kb, "deep.toml"), "[[rule]]\nid = \"deep\"\nwhen = "+strings.Repeat("{ a = ", 10000)+"1"+strings.Repeat(" }", 10000)+"\n")
		}, "deep.toml:3: tables and lists are nested more than 16 deep"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kb := t.TempDir()
			tc.setup(t, kb)
			for _, env := range [][]string{nil, {knowledge.EnvKB + "=" + kb}} {
				args := []string{"decide", "--scenario", "exit-test"}
				if env == nil {
					args = append(args, "--kb", kb)
				}
				code, stdout, stderr := runBounded(t, strings.NewReader(""), env, args...)
				if code != 2 || stdout != "" || !strings.Contains(stderr, filepath.Join(kb, tc.want)) {
					t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, stdout, stderr, filepath.Join(kb, tc.want))
				}
			}
		})
	}
}
