package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The result opens on the summary with every section closed; tab focuses
// a section, enter opens and closes it, o opens them all, n opens what
// changed since the course notes for the stack's products (KServe, a
// complement, among them), and t switches to the trace view, the only view
// with rule ids and scores.
func TestResultSectionsOpenAndClose(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("l", "r")
	s := d.screen().(*resultScreen)
	v := ansi.Strip(d.view())
	for _, want := range []string{"Orchestrator  llm-d + KServe", "clients ─▶ llm-d + KServe ─▶ vLLM", "▸ Engine · why vLLM"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the result does not open on the summary (%q missing):\n%s", want, v)
		}
	}
	if strings.Contains(v, "▾") {
		t.Errorf("a section is open on arrival:\n%s", v)
	}
	reason := "vLLM is the default engine"
	d.press("enter")
	if strings.Contains(ansi.Strip(s.vp.GetContent()), "▾") {
		t.Error("enter opened a section though none was focused")
	}
	d.press("tab", "enter")
	content := ansi.Strip(s.vp.GetContent())
	if !strings.Contains(content, "▾ Engine · why vLLM") || !strings.Contains(content, "+ "+reason) {
		t.Errorf("enter did not open the focused section:\n%s", content)
	}
	d.press("enter")
	if content := ansi.Strip(s.vp.GetContent()); strings.Contains(content, "+ "+reason) {
		t.Error("a second enter did not close it")
	}
	d.press("o")
	content = ansi.Strip(s.vp.GetContent())
	for _, want := range []string{"Launch command (vLLM", "The arithmetic behind it", "✗ SGLang"} {
		if !strings.Contains(content, want) {
			t.Errorf("o did not open every section: %q missing", want)
		}
	}
	if strings.Contains(content, "Course-notes flags gone") || strings.Contains(content, "Flags not emitted") {
		t.Error("the result's body still lists the course-notes flags gone")
	}
	if strings.Contains(content, "engine-default-vllm") || strings.Contains(content, "(+2)") {
		t.Error("the plain view shows a rule id or a score")
	}
	d.press("t")
	content = ansi.Strip(s.vp.GetContent())
	if !strings.Contains(content, "engine-default-vllm (+2)") || !strings.Contains(content, "Trace: stacks scored and rules") {
		t.Errorf("the trace view shows no rule ids or scores:\n%s", content[:min(len(content), 2000)])
	}
	d.press("o", "o", "t") // all closed, back to the plain view
	d.press("n")
	cs, ok := d.screen().(*changesScreen)
	if !ok {
		t.Fatalf("n does not open the course-notes page: %T\n%s", d.screen(), ansi.Strip(d.view()))
	}
	page := ansi.Strip(cs.vp.GetContent())
	for _, want := range []string{"The stack's products: vLLM, llm-d, KServe", "--swap-space", "KServe · "} {
		if !strings.Contains(page, want) {
			t.Errorf("the stack's course-notes page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "SGLang ·") {
		t.Errorf("the stack's page lists a product the stack does not place:\n%s", page)
	}
}

// When everything is on screen the header says no position: no "1/3 ·
// 100%"; at 40x12 it still names all three picks.
func TestResultHeaderSaysNoPositionWhenAllFits(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("l", "down", "r") // single-node: a short result
	header := strings.Split(ansi.Strip(d.view()), "\n")[1]
	s := d.screen().(*resultScreen)
	if s.vp.TotalLineCount() > s.vp.Height() {
		t.Fatalf("the single-node result no longer fits 120x40 (%d lines); pick a shorter one", s.vp.TotalLineCount())
	}
	if strings.Contains(header, "%") || strings.Contains(header, "/") {
		t.Errorf("everything fits, yet the header shows a position: %q", header)
	}
	d = newDriver(t, 40, 12)
	d.press("l", "r")
	header = strings.Split(ansi.Strip(d.view()), "\n")[1]
	for _, pick := range []string{"vLLM", "no model server", "llm-d"} {
		if !strings.Contains(header, pick) {
			t.Errorf("the 40x12 header %q drops %q", header, pick)
		}
	}
}

// The line under the summary names copy (c) and the plain launch view (l)
// at every width, and in the trace view says how to leave it (t again).
func TestResultHintNamesCopyPlainAndTheWayOutOfTheTrace(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 12}} {
		d := newDriver(t, sz.w, sz.h)
		d.press("l", "r")
		s := d.screen().(*resultScreen)
		hint := ""
		for _, l := range strings.Split(ansi.Strip(s.vp.GetContent()), "\n") {
			if strings.Contains(l, "tab") && strings.Contains(l, "enter") {
				hint = l
				break
			}
		}
		if !strings.Contains(hint, "c copy") || !strings.Contains(hint, "l plain") || strings.Contains(hint, "…") {
			t.Errorf("at %dx%d the hint does not name c copy and l plain whole: %q", sz.w, sz.h, hint)
		}
		d.press("t")
		hint = ""
		for _, l := range strings.Split(ansi.Strip(s.vp.GetContent()), "\n") {
			if strings.Contains(l, "tab") && strings.Contains(l, "enter") {
				hint = l
				break
			}
		}
		if !strings.Contains(hint, "t leaves") && !strings.Contains(hint, "t again leaves") {
			t.Errorf("at %dx%d the trace view's hint does not say how to leave it: %q", sz.w, sz.h, hint)
		}
	}
}
