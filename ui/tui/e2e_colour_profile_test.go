package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Inside tmux, detecting the colour profile runs `tmux info`. The app
// detects it once per run, ctrl+c included (it used to run three: lipgloss
// at load, bubbletea at start, fang on the interrupted exit). A stand-in
// tmux first on the app's PATH counts the calls and hands them on.
func TestTheAppAsksTmuxForColoursOnce(t *testing.T) {
	real, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required for the terminal test in CI (.ci/run installs it)")
		}
		t.Skip("tmux is not installed; skipping the terminal test")
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	wrapper := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %s\nexec %s \"$@\"\n", calls, real)
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := stackpickBinary(t)
	// COLORTERM=truecolor would settle the profile without asking tmux.
	tm := newTmux(t, 80, 24, "COLORTERM=")
	tm.keys(fmt.Sprintf(`PATH=%s:$PATH %s; printf 'back-in-%%s\n' shell`, dir, bin), "Enter")
	tm.waitFor("the home screen", contains("New decision"))
	tm.keys("C-c")
	tm.waitFor("the shell", contains("back-in-shell"))
	got, _ := os.ReadFile(calls)
	if n := strings.Count(string(got), "info"); n > 1 {
		t.Errorf("the app ran `tmux info` %d times, want at most once:\n%s", n, got)
	}
}
