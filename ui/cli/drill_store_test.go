package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stackpick/stackpick/ui/cli"
)

// fullWriter is a stdout that cannot be written, as /dev/full.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// A scripted drill whose stdout cannot be written exits 74 with the write
// error (it exited 0 in silence: the transcript and result were lost
// without a word). The record, which the user earned, is still kept.
func TestADrillWhoseStdoutCannotBeWrittenExits74(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.json")
	var errb bytes.Buffer
	code := cli.Run(context.Background(), []string{"drill", "taxonomy", "--seed", "3"}, cli.IO{Stdin: strings.NewReader(strings.Repeat("e\n", 9)), Stdout: fullWriter{}, Stderr: &errb, Env: []string{"STACKPICK_HISTORY=" + hist}})
	want := "stackpick: the drill's result was added to " + hist + ", but it could not be shown\nstackpick: cannot write to standard output: no space left on device\n"
	if code != cli.ExitEnvironment || errb.String() != want {
		t.Fatalf("exit %d, stderr %q\nwant 74 and %q", code, errb.String(), want)
	}
	var f struct{ Records []json.RawMessage }
	raw, _ := os.ReadFile(hist)
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Records) != 1 {
		t.Fatalf("the history holds %d records (%v), want the drill's one", len(f.Records), err)
	}
}

// When the record cannot be added, the message names the history file and
// gives the record whole, so the result the user earned is not lost.
func TestADrillThatCannotRecordNamesTheHistoryAndGivesTheRecord(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.json")
	os.Mkdir(hist+".lock", 0o755) // the lock cannot be taken
	code, out, stderr := runWithInput(t, []string{"STACKPICK_HISTORY=" + hist}, strings.Repeat("e\n", 9), "drill", "taxonomy", "--seed", "3")
	if code != cli.ExitBadInput || !strings.Contains(out, "Result: ") {
		t.Fatalf("exit %d, want 2 after the result is shown:\n%s\n%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "could not be added to the drill history "+hist+": ") || !strings.Contains(stderr, `{"drill":"taxonomy"`) {
		t.Errorf("stderr %q: want the history's path and the record", stderr)
	}
}

// drill stats says when older records are archived beside the history.
func TestDrillStatsNamesTheArchives(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.json")
	env := []string{"STACKPICK_HISTORY=" + hist}
	runWithInput(t, env, strings.Repeat("e\n", 9), "drill", "taxonomy", "--seed", "3")
	if _, out, _ := run(t, env, "drill", "stats"); strings.Contains(out, "archived") {
		t.Fatalf("no archive yet, but:\n%s", out)
	}
	write(t, hist+".1", `{"schema":"stackpick.history/v1","records":[]}`)
	if code, out, _ := run(t, env, "drill", "stats"); code != 0 || !strings.Contains(out, "Older records are archived in "+hist+".1 (not counted above).") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
