package cli_test

import (
	"os"
	"strings"
	"testing"
)

// The README's own example writes into a folder that does not exist yet,
// as ADR tools do.
func TestOutCreatesTheMissingFoldersOfTheREADMEsExample(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := run(t, nil, "decide", "--scenario", "exit-test", "--format", "markdown", "--out", "adr/0007-serving-stack.md")
	if code != 0 || stdout != "" || stderr != "wrote adr/0007-serving-stack.md\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b, err := os.ReadFile("adr/0007-serving-stack.md"); err != nil || !strings.HasPrefix(string(b), "# ") {
		t.Fatalf("the memo: %v %.40q", err, b)
	}
	if fi, _ := os.Stat("adr"); fi.Mode().Perm() != 0o755 {
		t.Errorf("adr/ has mode %v, want 0755", fi.Mode().Perm())
	}
}
