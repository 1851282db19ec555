package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// What the signal handler calls on a second signal, when it exits without
// waiting for the app, puts a real terminal back: this test binary, run
// again in a tmux pane, takes the terminal as the app does (raw mode, the
// alternate screen, the cursor hidden, mouse and paste reports), calls the
// restorer it made before, and exits; the pane is then as it was.
func TestTheTerminalRestorerPutsARealTerminalBack(t *testing.T) {
	if os.Getenv("STACKPICK_RESTORE_CHILD") == "1" {
		restore := terminalRestorer(os.Stdin, os.Stderr)
		if _, err := term.MakeRaw(os.Stdin.Fd()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Stderr.WriteString(ansi.SetModeAltScreenSaveCursor + ansi.HideCursor + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr + ansi.SetModeBracketedPaste + "taken\r\n")
		// Wait for the pane to show the alternate screen, then put it back.
		var b [1]byte
		os.Stdin.Read(b[:])
		restore()
		os.Exit(0)
	}
	test, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 80, 24)
	dir := t.TempDir()
	tm.keys(fmt.Sprintf(`STACKPICK_RESTORE_CHILD=1 %[2]s -test.run='^TestTheTerminalRestorerPutsARealTerminalBack$'; echo $? > %[1]s/code.tmp; stty -a > %[1]s/stty; mv %[1]s/code.tmp %[1]s/code`, dir, test), "Enter")
	tm.waitFor("the terminal taken", contains("taken"))
	if got := strings.TrimSpace(tm.run("display-message", "-p", "-t", "e2e", "#{alternate_on} #{cursor_flag}")); got != "1 0" {
		t.Fatalf("while taken: alternate screen and cursor flags %q, want \"1 0\"", got)
	}
	tm.keys("x")
	tm.waitFor("the child to exit", func(string) bool {
		_, err := os.Stat(filepath.Join(dir, "code"))
		return err == nil
	})
	if code, _ := os.ReadFile(filepath.Join(dir, "code")); strings.TrimSpace(string(code)) != "0" {
		t.Fatalf("the child exited %s", code)
	}
	stty, err := os.ReadFile(filepath.Join(dir, "stty"))
	if err != nil {
		t.Fatal(err)
	}
	modes := strings.FieldsFunc(string(stty), func(r rune) bool { return r == ' ' || r == '\n' || r == ';' })
	for _, want := range []string{"icanon", "echo", "isig", "icrnl", "opost"} {
		if !slices.Contains(modes, want) {
			t.Errorf("the terminal was left without %s (raw); stty -a:\n%s", want, stty)
		}
	}
	if got := strings.TrimSpace(tm.run("display-message", "-p", "-t", "e2e", "#{alternate_on} #{cursor_flag} #{mouse_button_flag} #{mouse_sgr_flag}")); got != "0 1 0 0" {
		t.Errorf("alternate screen, cursor and mouse flags %q, want \"0 1 0 0\" (main screen, cursor shown, no mouse reports)", got)
	}
}
