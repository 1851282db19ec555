package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// In a real terminal at 40x12, saving to a new file with a long path
// writes it once (the cursor's blinks after it is written do not write it
// again and ask to replace it) and shows the replay command whole; enter
// goes back to the decision.
func TestTerminalSaveShowsTheReplayCommand(t *testing.T) {
	tm := newTmux(t, 40, 12)
	bin := stackpickBinary(t)
	// Run in a temp dir with a path relative to it, longer than a 40-column
	// line: the screen is the same whatever the temp dir's length.
	dir := t.TempDir()
	path := filepath.Join("decisions-of-the-platform-team", "exit-test-four-nodes.toml")
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(path)), 0o755); err != nil {
		t.Fatal(err)
	}
	tm.keys(fmt.Sprintf(`cd %s && %s; printf 'back-in-%%s\n' shell`, dir, bin), "Enter")
	tm.waitFor("the home screen", contains("New decision"))
	tm.keys("l")
	tm.waitFor("the scenarios", contains("exit test"))
	tm.keys("r")
	tm.waitFor("the result", contains("Decision ·"))
	tm.keys("s")
	tm.waitFor("the save prompt", contains("Save the answers to"))
	tm.keys("C-u")
	tm.keys("-l", path)
	tm.keys("Enter")
	screen := tm.waitFor("the saved screen", func(s string) bool {
		return strings.Contains(s, "Replay this decision with") || strings.Contains(s, "The file exists")
	})
	if strings.Contains(screen, "The file exists") {
		t.Fatalf("one enter wrote the file twice (the second asks to replace it):\n%s", screen)
	}
	// The cursor blinks about twice a second: after a few blinks the screen
	// is still the saved one.
	time.Sleep(2 * time.Second)
	if screen = tm.capture(); strings.Contains(screen, "The file exists") {
		t.Fatalf("one enter wrote the file twice (the second asks to replace it):\n%s", screen)
	}
	want := "stackpick decide --answers " + path
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	body := strings.Join(rows[1:len(rows)-1], "\n") // header, footer
	if got := rejoin(block(body, "Replay this decision with"), want); got != want {
		t.Errorf("the replay command is not whole:\n got %q\nwant %q\n%s", got, want, screen)
	}
	tm.keys("Enter")
	tm.waitFor("the decision", contains("Saved exit-test-four-nodes.toml"))
	tm.keys("C-c")
	tm.waitFor("the shell", contains("back-in-shell"))
}
