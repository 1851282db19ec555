package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The real binary in a real terminal exports the memo: x, enter for the
// preview, enter to write. With SOURCE_DATE_EPOCH set, the file is named
// and dated by it and holds the same bytes as `decide --format markdown`;
// a second export to the same name asks, and no keeps the file.
func TestTerminalExportMemo(t *testing.T) {
	tm := newTmux(t, 80, 24, "SOURCE_DATE_EPOCH=1800000000") // 2027-01-15
	bin := stackpickBinary(t)
	dir := t.TempDir()
	tm.keys("cd "+dir+" && "+bin, "Enter")
	tm.waitFor("the home screen", contains("Load scenario"))
	tm.keys("l")
	tm.waitFor("the scenarios", contains("The exit test"))
	tm.keys("r")
	tm.waitFor("the result", contains("Decision ·"))
	tm.keys("x")
	tm.waitFor("the About step", contains("About this decision"))
	tm.keys("C-s")
	tm.waitFor("the path prompt", contains("> exit-test-2027-01-15.md"))
	tm.keys("Enter")
	tm.waitFor("the preview", contains("Memo preview"))
	tm.keys("Enter")
	tm.waitFor("the status line", contains("Exported exit-test-2027-01-15.md"))

	path := filepath.Join(dir, "exit-test-2027-01-15.md")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(bin, "decide", "--scenario", "exit-test", "--format", "markdown", "--date", "2027-01-15").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("the exported memo differs from decide --format markdown for the same date")
	}

	tm.keys("x")
	tm.waitFor("the About step", contains("About this decision"))
	tm.keys("C-s")
	tm.waitFor("the path prompt", contains("> exit-test-2027-01-15.md"))
	tm.keys("Enter")
	tm.waitFor("the preview", contains("Memo preview"))
	tm.keys("Enter")
	tm.waitFor("the overwrite question", contains("Replace exit-test-2027-01-15.md?"))
	tm.keys("n")
	tm.waitFor("the path prompt again", contains("Export the decision memo to"))
	if again, _ := os.ReadFile(path); string(again) != string(got) {
		t.Error("answering no changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want only the memo", len(entries))
	}
	tm.keys("C-c")
}
