package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// clipboard is tmux's newest paste buffer, which OSC 52 from the app
// fills when set-clipboard is on; "" while there is none.
func (tm *tmuxTerm) clipboard() string {
	out, err := exec.Command(tm.bin, "-S", tm.sock, "show-buffer").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// The real binary in tmux: `stackpick open FILE` opens on the file's
// result, whose first screen names the three picks; c puts exactly the
// launch command on the clipboard through tmux (OSC 52); l shows it
// without borders; and the app quits cleanly.
func TestTerminalOpenFileAndCopy(t *testing.T) {
	kb, list := loadKB(t)
	bin := stackpickBinary(t)
	tm := newTmux(t, 80, 24)
	tm.run("set-option", "-s", "set-clipboard", "on")
	dir := t.TempDir()
	file := filepath.Join(dir, "exit-test.toml")
	if err := os.WriteFile(file, list[0].Answers.TOML("the exit test"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := decide.Decide(kb, list[0].Answers)
	want := d.EngineConfig.CommandText
	status := filepath.Join(dir, "status")
	tm.keys(fmt.Sprintf(`%s open %s; echo "exit=$?" > %s`, bin, file, status), "Enter")

	screen := tm.waitFor("the result", contains("Decision · exit-test.toml"))
	if stack := report.StackLine(kb, d); !strings.Contains(screen, stack) {
		t.Errorf("the first screen should name the three picks (%s):\n%s", stack, screen)
	}

	tm.keys("c")
	tm.waitFor("the status line", contains("Copied the launch command ("))
	deadline := time.Now().Add(10 * time.Second)
	got := tm.clipboard()
	for got != want && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		got = tm.clipboard()
	}
	if got != want {
		t.Errorf("the clipboard holds:\n%q\nwant the launch command:\n%q", got, want)
	}

	tm.keys("l")
	screen = tm.waitFor("the plain launch command", contains("Launch command 1–"))
	if strings.Contains(screen, "│") || !strings.Contains(screen, "vllm serve "+d.EngineConfig.HFID+" \\") {
		t.Errorf("the plain view should show the bare command:\n%s", screen)
	}
	tm.keys("q")
	tm.waitFor("the result again", contains("Decision · exit-test.toml"))
	tm.keys("q")
	tm.waitFor("the home screen", contains("Resume"))
	tm.keys("q")
	tm.waitFor("the exit status", func(string) bool { _, err := os.Stat(status); return err == nil })
	if got, _ := os.ReadFile(status); strings.TrimSpace(string(got)) != "exit=0" {
		t.Errorf("stackpick exited with %q, want exit=0", got)
	}
}

// In a terminal, `stackpick open` on a broken file prints the problem
// with file:line and exits 2 before any full-screen app starts.
func TestTerminalOpenBadFileExits2(t *testing.T) {
	bin := stackpickBinary(t)
	tm := newTmux(t, 80, 24)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("nodes = 4\ngpu = \"h10\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys(fmt.Sprintf(`cd %s && %s open bad.toml; echo "exit=$?"`, dir, bin), "Enter")
	screen := tm.waitFor("the exit status", contains("exit=2"))
	if !strings.Contains(screen, `stackpick: bad.toml:2: gpu: "h10" is not an allowed value`) {
		t.Errorf("the error should name file:line:\n%s", screen)
	}
	if strings.Contains(screen, "Decision") || strings.Contains(screen, "New decision") {
		t.Errorf("no app should have started:\n%s", screen)
	}
}

// In a terminal, Home's "Open answers file…": a bad path shows the problem
// with file:line and keeps what was typed; the good one opens its result.
func TestTerminalHomeOpenBadThenGood(t *testing.T) {
	bin := stackpickBinary(t)
	tm := newTmux(t, 80, 24)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	good := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(bad, []byte("# fleet\nnodez = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte("nodes = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys("cd "+dir+" && "+bin, "Enter")
	tm.waitFor("the home screen", contains("Open answers file…"))
	tm.keys("o")
	tm.waitFor("the open screen", contains("Open an answers file"))
	tm.keys("bad.toml", "Enter")
	screen := tm.waitFor("the problem", contains("bad.toml:2: nodez: unknown answer key"))
	if !strings.Contains(screen, "> bad.toml") || !strings.Contains(screen, `did you mean "nodes"?`) {
		t.Errorf("the typed path should stay, under it what to type instead:\n%s", screen)
	}
	tm.keys("C-u", "go", "Tab", "Enter") // tab completes good.toml
	tm.waitFor("the result", contains("Decision · good.toml"))
	tm.keys("C-c")
}
