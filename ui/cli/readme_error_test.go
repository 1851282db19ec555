package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's sample bad-input message is the one stackpick prints for
// the fleet.toml it describes (a line 2 of gpu = "h10"): it listed 11 GPUs
// when the knowledge base had 17.
func TestREADMESampleErrorIsTheRealOne(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start = `stackpick: fleet.toml:2: gpu: "h10"`
	i := strings.Index(string(readme), start)
	if i < 0 {
		t.Fatal("the README has no sample error for gpu = \"h10\"")
	}
	want, _, _ := strings.Cut(string(readme[i:]), "\n")

	t.Chdir(t.TempDir())
	write(t, filepath.Join(".", "fleet.toml"), "nodes = 4\ngpu = \"h10\"\n")
	code, _, stderr := run(t, nil, "decide", "--answers", "fleet.toml")
	if code != 2 || stderr != want+"\n" {
		t.Errorf("exit %d, stackpick says\n%s\nthe README says\n%s", code, stderr, want)
	}
}
