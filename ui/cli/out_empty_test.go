package cli_test

import (
	"path/filepath"
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
		if want := "stackpick: --out needs a file name; use --out - for stdout\n"; code != cli.ExitBadInput || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q\nstderr %q\nwant   %q", args, code, stdout, stderr, want)
		}
	}
}
