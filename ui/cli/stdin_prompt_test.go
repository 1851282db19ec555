package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --answers - on a terminal says, on stderr, that it reads answers and how
// to end them (it waited in silence); from a pipe it says nothing.
func TestAnswersFromATerminalSayHowToEnd(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) is not installed")
	}
	dir := t.TempDir()
	bin := stackpickBinary(t)
	errFile, outFile := filepath.Join(dir, "err.txt"), filepath.Join(dir, "out.txt")
	cmd := exec.Command(script, "-qec", bin+" decide --answers - --format json 2>"+errFile+" >"+outFile, filepath.Join(dir, "transcript"))
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "HOME="+dir)
	cmd.Stdin = strings.NewReader("nodes = 2\n\x04")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	stderr, _ := os.ReadFile(errFile)
	stdout, _ := os.ReadFile(outFile)
	if want := "stackpick: reading answers (TOML) from standard input; end with Ctrl-D on a line of its own\n"; string(stderr) != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if !strings.Contains(string(stdout), `"nodes": {`) {
		t.Errorf("the answers typed were not decided:\n%s", stdout)
	}
	code, _, piped := runWithInput(t, nil, "nodes = 2\n", "decide", "--answers", "-")
	if code != 0 || piped != "" {
		t.Errorf("from a pipe: exit %d, stderr %q; want nothing said", code, piped)
	}
}
