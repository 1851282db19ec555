package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// tmuxTerm is a private tmux server (its own socket, no user config) with
// one window running a shell.
type tmuxTerm struct {
	t    *testing.T
	bin  string
	sock string
}

func newTmux(t *testing.T, w, h int, env ...string) *tmuxTerm {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required for the terminal test in CI (.ci/run installs it)")
		}
		t.Skip("tmux is not installed; skipping the terminal test")
	}
	// A socket of its own: never the user's tmux, and nothing left behind.
	tm := &tmuxTerm{t: t, bin: bin, sock: tmuxSocket(t)}
	args := []string{"new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-s", "e2e"}
	for _, e := range append([]string{"TERM=xterm-256color", "PS1=$ "}, env...) {
		args = append(args, "-e", e)
	}
	tm.run(append(args, "sh")...)
	t.Cleanup(func() { exec.Command(tm.bin, "-S", tm.sock, "kill-server").Run() })
	return tm
}

// tmuxSocket is a path for the test's own tmux socket that fits a Unix
// socket's address (104 bytes on macOS, 108 on Linux): in the test's temp
// dir when that is short enough, else (a long TMPDIR, a long subtest name)
// in a folder of its own under /tmp, removed when the test ends.
func tmuxSocket(t *testing.T) string {
	t.Helper()
	if p := filepath.Join(t.TempDir(), "tmux.sock"); len(p) < 100 {
		return p
	}
	dir, err := os.MkdirTemp("/tmp", "stackpick-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "tmux.sock")
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command(tm.bin, append([]string{"-S", tm.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (tm *tmuxTerm) keys(keys ...string) {
	tm.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

func (tm *tmuxTerm) capture() string { return tm.run("capture-pane", "-p", "-t", "e2e") }

// waitFor polls the screen until ok says yes, or fails after a while.
func (tm *tmuxTerm) waitFor(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := tm.capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

// The real binary in a real terminal: start at 80x24, walk the
// questionnaire with the defaults, reach the result, see a product in the
// engine card, shrink to 40x12, quit, and find the shell as it was.
func TestTerminalEndToEnd(t *testing.T) {
	tm := newTmux(t, 80, 24)
	bin := stackpickBinary(t)
	kb, _ := loadKB(t)
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	tm.keys(fmt.Sprintf(`stty -g > %[1]s/before; %[2]s; echo "exit=$?" > %[1]s/status.tmp; stty -g > %[1]s/after; mv %[1]s/status.tmp %[1]s/status; printf 'back-in-%%s\n' shell`, dir, bin), "Enter")

	tm.waitFor("the home screen", contains("New decision"))
	tm.keys("Enter")
	tm.waitFor("the questionnaire", contains("Fleet (1/5)"))
	// Enter through every question with its default until the result.
	var screen string
	for i := 0; ; i++ {
		screen = tm.capture()
		if strings.Contains(screen, "Decision ·") {
			break
		}
		if i > 40 {
			t.Fatalf("40 enters did not reach the result; the screen:\n%s", screen)
		}
		tm.keys("Enter")
		time.Sleep(60 * time.Millisecond)
	}
	// The first screen of the result is the summary: it names every
	// layer's pick (or its state) beside the layer, without scrolling.
	d := decide.Decide(kb, kb.Defaults())
	screen = tm.waitFor("the summary", contains("Orchestrator"))
	for _, lp := range d.Layers {
		name, pick := kb.Layer(lp.Layer).Name, report.SummaryPick(kb, lp)
		found := false
		for _, l := range strings.Split(screen, "\n") {
			found = found || strings.HasPrefix(strings.TrimSpace(l), name) && strings.Contains(l, pick)
		}
		if !found {
			t.Errorf("the first screen of the result does not name the %s's pick %q beside it:\n%s", name, pick, screen)
		}
	}

	tm.run("resize-window", "-t", "e2e", "-x", "40", "-y", "12")
	screen = tm.waitFor("the 40x12 redraw", func(s string) bool {
		ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return len(ls) <= 12 && strings.Contains(s, "Engine:") && strings.Contains(s, "help")
	})
	for _, lp := range d.Layers {
		if pick := report.SummaryPick(kb, lp); !strings.Contains(screen, kb.Layer(lp.Layer).Name+": "+pick) {
			t.Errorf("at 40x12 the summary does not name the %s's pick %q:\n%s", lp.Layer, pick, screen)
		}
	}
	for i, l := range strings.Split(strings.TrimRight(screen, "\n"), "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide at 40x12: %q", i, w, l)
		}
	}

	tm.keys("q") // result → questionnaire
	tm.waitFor("the questionnaire", contains("Team"))
	tm.keys("q") // questionnaire → home
	tm.waitFor("the home screen", contains("Browse knowledge"))
	tm.keys("q") // quit: nothing unsaved, so no question
	// The typed command line holds "back-in-%s"; only the shell's output
	// after the app has exited reads "back-in-shell".
	tm.waitFor("the shell", contains("back-in-shell"))

	got, err := os.ReadFile(status)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(got)) != "exit=0" {
		t.Errorf("stackpick exited with %s, want exit=0", got)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "before"))
	after, _ := os.ReadFile(filepath.Join(dir, "after"))
	if string(before) != string(after) || len(before) == 0 {
		t.Errorf("terminal settings not restored:\nbefore %s\nafter  %s", before, after)
	}
	if alt := strings.TrimSpace(tm.run("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "0" {
		t.Errorf("still in the alternate screen after quitting (alternate_on=%s)", alt)
	}
	if s := tm.capture(); strings.Contains(s, "Stack:") {
		t.Errorf("the app's screen is left on the terminal:\n%s", s)
	}
}

// With NO_COLOR the app draws no colour at all (bold and reverse video
// still mark the selection), and ctrl+c quits from a screen deep in the
// app with status 130 and the terminal restored.
func TestTerminalNoColorAndCtrlC(t *testing.T) {
	// The control: the same screen in the same terminal has colour.
	{
		tm := newTmux(t, 40, 12)
		bin := stackpickBinary(t)
		tm.keys(bin, "Enter")
		tm.waitFor("the home screen", contains("Browse knowledge"))
		tm.keys("b")
		tm.waitFor("the knowledge browser", contains("ENGINE"))
		if colourSGR(tm.run("capture-pane", "-p", "-e", "-t", "e2e")) == "" {
			t.Fatal("control failed: without NO_COLOR the browser shows no colour, so this test cannot see colour")
		}
	}
	bin := stackpickBinary(t)
	tm := newTmux(t, 40, 12, "NO_COLOR=1")
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	tm.keys(fmt.Sprintf(`stty -g > %[1]s/before; %[2]s; echo "exit=$?" > %[1]s/status.tmp; stty -g > %[1]s/after; mv %[1]s/status.tmp %[1]s/status; printf 'back-in-%%s\n' shell`, dir, bin), "Enter")
	tm.waitFor("the home screen", contains("Browse knowledge"))
	tm.keys("b")
	tm.waitFor("the knowledge browser", contains("ENGINE"))
	styled := tm.run("capture-pane", "-p", "-e", "-t", "e2e")
	if c := colourSGR(styled); c != "" {
		t.Errorf("NO_COLOR=1 but the screen has colour (%q):\n%q", c, styled)
	}
	if !strings.Contains(styled, "\x1b[7m") && !strings.Contains(styled, ";7m") {
		t.Errorf("without colour the selection must still show (reverse video):\n%q", styled)
	}
	tm.keys("C-c")
	tm.waitFor("the shell", contains("back-in-shell"))
	got, _ := os.ReadFile(status)
	if strings.TrimSpace(string(got)) != "exit=130" {
		t.Errorf("ctrl+c: stackpick exited with %q, want exit=130", got)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "before"))
	after, _ := os.ReadFile(filepath.Join(dir, "after"))
	if string(before) != string(after) || len(before) == 0 {
		t.Errorf("terminal settings not restored after ctrl+c:\nbefore %s\nafter  %s", before, after)
	}
}

// colourSGR returns the first SGR sequence in s that sets a colour.
func colourSGR(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return ""
		}
		s = s[i+2:]
		j := strings.IndexByte(s, 'm')
		if j < 0 {
			return ""
		}
		params := s[:j]
		if strings.IndexFunc(params, func(r rune) bool { return (r < '0' || r > '9') && r != ';' && r != ':' }) >= 0 {
			continue // not an SGR
		}
		for _, p := range strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' }) {
			var n int
			fmt.Sscan(p, &n)
			if (n >= 30 && n <= 49 && n != 39 && n != 49) || (n >= 90 && n <= 107) {
				return "\x1b[" + params + "m"
			}
		}
	}
}
