package tui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

// lockedBuffer is a program's output, read while the program writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// osc52 is the clipboard sequence a terminal receives: OSC 52, the system
// clipboard, the base64 of the text, BEL.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}

// c on the result writes OSC 52 with exactly the launch command, the one
// the decision carries (the text decide writes, no borders, no comments,
// one flag to a line) to the terminal, and says so on the status line.
func TestCopyEmitsOSC52WithTheExactCommand(t *testing.T) {
	kb, list := loadKB(t)
	m := New(kb, list, Options{Now: testNow})
	d := drive(t, m)
	d.resize(80, 24).press("l", "r") // the exit test, at its result
	ec := m.c.session.decision.EngineConfig
	if ec == nil || ec.CommandText == "" || len(ec.Roles) > 0 {
		t.Fatalf("the exit test should have one launch command: %+v", ec)
	}
	want := ec.CommandText
	if !strings.HasPrefix(want, "vllm serve ") || strings.Contains(want, "#") || strings.Contains(want, "│") {
		t.Fatalf("the decision's command is not a bare command:\n%s", want)
	}

	var out lockedBuffer
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(80, 24),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	p.Send(keyMsg("c"))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "\x1b]52;") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p.Quit()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, osc52(want)) {
		i := strings.Index(got, "\x1b]52;")
		if i < 0 {
			t.Fatalf("no OSC 52 in the program's output")
		}
		end := strings.IndexByte(got[i:], '\a')
		t.Fatalf("OSC 52 carries something else:\n got %q\nwant %q", got[i:i+max(end, 0)+1], osc52(want))
	}
	if n := strings.Count(got, "\x1b]52;"); n != 1 {
		t.Errorf("one key press should copy once, got %d OSC 52 sequences", n)
	}
	lines := strings.Count(want, "\n") + 1
	if status := m.c.Status; status != fmt.Sprintf("Copied the launch command (%d lines)", lines) {
		t.Errorf("status line: %q", status)
	}
}

// A decision whose engine stackpick writes no command for (TensorRT-LLM)
// has c and l say so, and nothing reaches the clipboard.
func TestNoLaunchCommandSaysSo(t *testing.T) {
	// Every engine a preset picks has a launch command, so the case is a
	// fleet the model does not fit: one L4 for a 70B model.
	kb, _ := loadKB(t)
	a := kb.Defaults()
	for k, v := range map[string]any{"nodes": int64(1), "gpus_per_node": int64(1), "gpu": "l4"} {
		if err := a.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	sc := scenarios.Scenario{Name: "too-big", Order: 1, Title: "A 70B model on one L4", Answers: a}
	d := drive(t, New(kb, []scenarios.Scenario{sc}, Options{Now: testNow}))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.press("l", "up", "r")
	before := d.screen()
	for _, k := range []string{"c", "l"} {
		cmd := d.m.frame.Update(keyMsg(k))
		if cmd != nil {
			t.Errorf("%s: no command should run without a launch command", k)
		}
		if v := d.view(); !strings.Contains(v, "No launch command: --model: llama-3.3-70b does not fit") {
			t.Errorf("%s: the status line should say why there is none:\n%s", k, v)
		}
		if d.screen() != before {
			t.Errorf("%s: the result should stay on screen", k)
		}
	}
}

// shellWords runs text in bash with the engines' commands replaced by a
// function that prints each argument on a line of its own: what the shell
// hands the engine when text is pasted.
func shellWords(t *testing.T, text string) string {
	t.Helper()
	prelude := "vllm() { printf '<%s>\\n' \"$@\"; }\npython() { printf '<%s>\\n' \"$@\"; }\nsglang() { printf '<%s>\\n' \"$@\"; }\ntrtllm-serve() { printf '<%s>\\n' \"$@\"; }\nllama-server() { printf '<%s>\\n' \"$@\"; }\n"
	out, err := exec.Command("bash", "-c", prelude+text).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s\nthe text:\n%s", err, out, text)
	}
	return string(out)
}

// The plain view of every preset's launch command, at 40, 80 and 120
// columns: no box edge, no comment after a continuation, the command part
// parses in bash -n, and pasted it hands the engine the very words the
// clipboard's copy does; the why of each flag follows after a blank line.
func TestPlainLaunchViewPastesIntoAShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	kb, list := loadKB(t)
	dec := decide.Compile(kb)
	seen := 0
	for i, sc := range list {
		ec := dec.Decide(sc.Answers).EngineConfig
		copied := report.LaunchCommand(ec, 0)
		if copied == "" {
			continue
		}
		seen++
		copyWords := shellWords(t, copied)
		for _, w := range []int{40, 80, 120} {
			d := newDriver(t, w, 60)
			d.press("l")
			for range i {
				d.press("down")
			}
			d.press("r", "l")
			ls, ok := d.screen().(*launchScreen)
			if !ok {
				t.Fatalf("%s %d: l did not open the plain view: %T", sc.Name, w, d.screen())
			}
			view := d.view()
			if strings.Contains(view, "│") {
				t.Errorf("%s %d: the plain view has a box edge:\n%s", sc.Name, w, view)
			}
			text := strings.Join(ls.lines, "\n")
			cmdPart, why, found := strings.Cut(text, "\n\nWhy each flag:\n")
			if !found || !strings.Contains(why, ec.Command[len(ec.Command)-1].Flag+": ") {
				t.Errorf("%s %d: the why of each flag should follow the command after a blank line:\n%s", sc.Name, w, text)
			}
			lines := strings.Split(cmdPart, "\n")
			for j, l := range lines {
				if lw := len([]rune(l)); lw > w {
					t.Errorf("%s %d: line %d is %d wide: %q", sc.Name, w, j, lw, l)
				}
				if j > 0 && strings.HasSuffix(lines[j-1], "\\") && strings.HasPrefix(strings.TrimSpace(l), "#") {
					t.Errorf("%s %d: a comment after a continuation ends the pasted command: %q", sc.Name, w, l)
				}
				if strings.HasSuffix(l, " ") {
					t.Errorf("%s %d: trailing space on line %d would break a continuation: %q", sc.Name, w, j, l)
				}
			}
			if out, err := exec.Command("bash", "-n", "-c", cmdPart).CombinedOutput(); err != nil {
				t.Errorf("%s %d: bash -n: %v\n%s\n%s", sc.Name, w, err, out, cmdPart)
			}
			if got := shellWords(t, cmdPart); got != copyWords {
				t.Errorf("%s %d: pasted, the view hands the engine other words than the copy:\n%s\nwant\n%s", sc.Name, w, got, copyWords)
			}
		}
	}
	if seen < 3 {
		t.Fatalf("only %d presets have a launch command", seen)
	}
}

// c on the result at 120x40: the launch command laid out plain and handed
// to the clipboard command, plus the redraw with the status line.
func BenchmarkCopyLaunch(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	keyBench(b, d, "c")
}

// l then q on the result at 120x40: the plain view opened (laid out for
// the width) and closed, each with its redraw.
func BenchmarkLaunchViewOpenClose(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	keyBench(b, d, "l", "q")
}

// Home, then Resume at 120x40: back to the result as it was left.
func BenchmarkResume(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	keyBench(b, d, "esc", "r")
}
