package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/cli"
)

// An empty --out (a script's unset "$OUTFILE") is an error for every
// command with --out: it wrote to stdout and exited 0, so the script
// believed it wrote a file.
func TestAnEmptyOutIsAnError(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.toml")
	write(t, a, "")
	for _, args := range [][]string{
		{"decide", "--scenario", "exit-test", "--out", ""},
		{"decide", "--scenario", "exit-test", "--out="},
		{"decide", "--scenario", "exit-test", "-o", ""},
		{"diff", a, a, "--out", ""},
	} {
		code, stdout, stderr := run(t, nil, args...)
		if want := "stackpick: --out needs a name (a file, or manifest's folder); use --out - for stdout\n"; code != cli.ExitBadInput || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant   %q", args, code, stdout, stderr, want)
		}
	}
}

// An --out no one would mean (spaces only, a line break, a name that
// starts with '-') is refused before anything is made, for a file as for
// manifest's folder.
func TestAnOutNoOneWouldTypeIsAnError(t *testing.T) {
	for _, out := range []string{" ", "--", "-x", "a\nb", "\t"} {
		for _, args := range [][]string{
			{"decide", "--scenario", "exit-test", "--out", out},
			{"manifest", "--scenario", "cpu-box", "--out", out},
		} {
			code, stdout, stderr := run(t, nil, args...)
			if code != cli.ExitBadInput || stdout != "" || !strings.Contains(stderr, "write ./-name") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
			}
			if _, err := os.Lstat(out); err == nil {
				t.Errorf("%q: a refused --out was made", args)
			}
		}
	}
}
