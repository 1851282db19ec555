package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/tui/screen"
)

// Moving back and forth between pages keeps what was typed.
func TestFormKeepsAnswersAcrossPages(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n", "backspace").typeText("4")
	d.press("pgdown", "pgdown", "pgup", "pgup")
	if got := d.m.c.session.answers.Get("nodes").Int; got != 4 {
		t.Fatalf("nodes = %d after paging away and back, want 4", got)
	}
	if !strings.Contains(d.view(), "> 4") {
		t.Errorf("the form does not show the kept answer:\n%s", d.view())
	}
	// shift+tab on a page's first question goes to the previous page's last.
	d.press("pgdown", "shift+tab")
	if !strings.Contains(d.screen().Title(), "Fleet") {
		t.Errorf("shift+tab on the first question should go back a page, got %q", d.screen().Title())
	}
}

// Leaving the form keeps the answers: Resume on the home screen brings
// back the decision, and the header says they are not saved.
func TestLeavingTheFormKeepsAnswers(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n", "backspace").typeText("3").press("esc")
	if _, ok := d.screen().(*homeScreen); !ok {
		t.Fatalf("esc from the form should go home, got %q", d.screen().Title())
	}
	v := d.view()
	if !strings.Contains(v, "Resume") || !strings.Contains(v, "unsaved") {
		t.Errorf("home should offer Resume and flag unsaved answers:\n%s", v)
	}
	d.press("enter")
	if _, ok := d.screen().(*formScreen); !ok {
		t.Fatalf("Resume should open the form, where the user left, got %q", d.screen().Title())
	}
	if got := d.m.c.session.answers.Get("nodes").Int; got != 3 {
		t.Errorf("nodes = %d after resuming, want 3", got)
	}
}

// Quitting or starting over with unsaved answers asks first; no keeps them.
func TestUnsavedAnswersAreNotDroppedSilently(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n", "backspace").typeText("3").press("esc", "q")
	if _, ok := d.screen().(*confirmScreen); !ok {
		t.Fatalf("q with unsaved answers should ask, got %q", d.screen().Title())
	}
	d.press("n")
	if d.Quit || d.m.c.Quit {
		t.Fatal("answering no still quit")
	}
	d.press("down", "enter") // New decision
	if _, ok := d.screen().(*confirmScreen); !ok {
		t.Fatalf("a new decision over unsaved answers should ask, got %q", d.screen().Title())
	}
	d.press("esc")
	if got := d.m.c.session.answers.Get("nodes").Int; got != 3 {
		t.Errorf("declining lost the answers: nodes = %d", got)
	}
	d.press("q", "y")
	if !d.Quit {
		t.Error("yes did not quit")
	}
}

// A scenario pre-fills the form; its answers are on the pages.
func TestScenarioPrefillsTheForm(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "enter")
	v := d.view()
	if !strings.Contains(v, "> 4") || !strings.Contains(v, "> h200") {
		t.Errorf("the exit test's Fleet page should show 4 nodes and h200:\n%s", v)
	}
	if strings.Contains(v, "unsaved") {
		t.Error("a freshly loaded preset is not unsaved work")
	}
}

// Editing one answer from the result updates the result at once and says
// what moved.
func TestEditOneAnswerUpdatesTheResult(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "e", "home", "enter", "backspace").typeText("1").press("enter")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("after editing, expected the result, got %q:\n%s", d.screen().Title(), d.view())
	}
	v := d.view()
	if !strings.Contains(v, "nodes: 4 → 1") {
		t.Errorf("the status should say what changed:\n%s", v)
	}
	if stack := strings.Split(v, "\n")[1]; !strings.Contains(stack, "no orchestrator") {
		t.Errorf("one node should drop the orchestrator; the stack line reads %q", stack)
	}
	// esc in the editor puts the old answer back.
	d.press("e", "home", "enter", "backspace").typeText("7").press("esc")
	if got := d.m.c.session.answers.Get("nodes").Int; got != 1 {
		t.Errorf("esc should put back nodes = 1, got %d", got)
	}
}

// The knowledge filter narrows the products as each letter is typed.
func TestBrowserFilterNarrowsAsYouType(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("b", "/")
	counts := []int{}
	for _, r := range "sglang" {
		d.typeText(string(r))
		counts = append(counts, len(d.screen().(*browserScreen).order()))
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] > counts[i-1] {
			t.Errorf("typing more widened the list: %v", counts)
		}
	}
	if counts[0] == counts[len(counts)-1] {
		t.Errorf("typing did not narrow the list: %v", counts)
	}
	d.press("enter", "esc")
	if n := len(d.screen().(*browserScreen).order()); n != 10 {
		t.Errorf("esc should clear the filter, %d products shown", n)
	}
}

// ctrl+c quits from any screen, even while typing.
func TestCtrlCQuitsFromAnywhere(t *testing.T) {
	for _, j := range journeys {
		d := newDriver(t, 80, 24)
		j.keys(d)
		d.press("ctrl+c")
		if !d.Quit || !d.m.Interrupted() {
			t.Errorf("%s: ctrl+c did not quit", j.name)
		}
	}
}

// ? shows the keys on every screen, and closes again.
func TestHelpOnEveryScreen(t *testing.T) {
	for _, j := range journeys {
		d := newDriver(t, 80, 24)
		j.keys(d)
		if d.m.frame.HelpOpen() {
			continue
		}
		before := d.view()
		help := "?"
		if screen.TakesQuestionMark(d.screen()) {
			help = "f1" // a free-text field takes "?" as text
		}
		d.press(help)
		if v := d.view(); !strings.Contains(v, "Keys:") || !strings.Contains(v, "ctrl+c") {
			t.Errorf("%s: %s shows no help:\n%s", j.name, help, v)
		}
		d.press(help)
		if d.view() != before {
			t.Errorf("%s: closing help did not restore the screen", j.name)
		}
	}
}

// "Edit one answer" says an answer would move a pick only under an answer
// that has a flip (marked ⇄ in the list), and says which; it said so under
// every question.
func TestEditAnswerFlipNoteOnlyForMovers(t *testing.T) {
	for _, sz := range goldenSizes {
		d := newDriver(t, sz.w, sz.h)
		d.press("l", "r", "e", "home")
		s := d.screen().(*answersScreen)
		movers := s.movers()
		for i, q := range s.qs {
			if i > 0 {
				d.press("down")
			}
			v := d.view()
			has := strings.Contains(v, "would move a pick")
			if has && !movers[q.Key] {
				t.Errorf("%dx%d: %s has no flip, yet:\n%s", sz.w, sz.h, q.Key, v)
			}
			if !has && movers[q.Key] && sz.h >= 24 {
				t.Errorf("%dx%d: %s has a flip the detail does not mention:\n%s", sz.w, sz.h, q.Key, v)
			}
		}
		for _, k := range []string{"nodes", "base_models", "prefix_reuse", "context_tokens"} {
			want := map[string]bool{"nodes": true, "base_models": true}[k] // base_models: one replica per model at 4 or more
			if movers[k] != want {
				t.Errorf("exit test: %s mover = %v, want %v (the knowledge changed; pick other examples)", k, movers[k], want)
			}
		}
	}
	d := newDriver(t, 80, 24)
	d.press("l", "r", "e", "home")
	if v := d.view(); !strings.Contains(v, "would move a pick: 1 → Orchestrator: no orchestrator") {
		t.Errorf("the note under nodes should say what 1 node would move:\n%s", v)
	}
}

// A line cut short for room ends in one "…": the knowledge browser and the
// scenario list, on every product and preset, at every size (at 80x24 the
// browser read "(se……"). checkFits fails on "……".
func TestCutLinesEndInOneEllipsis(t *testing.T) {
	for _, sz := range append(goldenSizes, struct{ w, h int }{30, 8}, struct{ w, h int }{100, 20}) {
		d := newDriver(t, sz.w, sz.h)
		d.press("b")
		for range len(d.m.c.KB.Products) + 2 {
			checkFits(t, d.view(), sz.w, sz.h)
			d.press("right")
		}
		d = newDriver(t, sz.w, sz.h)
		d.press("l")
		for range len(d.m.c.Scenarios) + 1 {
			checkFits(t, d.view(), sz.w, sz.h)
			d.press("down")
		}
	}
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"matters (se", 12, "matters (se…"},
		{"matters (see it)", 12, "matters (se…"},
		{"a b   ", 6, "a b…"},
	} {
		if got := cutMore(tc.in, tc.w); got != tc.want {
			t.Errorf("cutMore(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

// The drills are on the home screen, under d; q from an untouched drill
// and q again from the menu come back home.
func TestHomeOpensDrills(t *testing.T) {
	kb, list := loadKB(t)
	d := drive(t, New(kb, list, Options{Now: testNow, HistoryPath: filepath.Join(t.TempDir(), "history.json")}))
	d.resize(80, 24)
	d.press("d")
	if got := d.screen().Title(); got != "Drills" {
		t.Fatalf("d on the home screen opened %q", got)
	}
	d.press("t")
	if got := d.screen().Title(); !strings.HasPrefix(got, "Taxonomy · ") {
		t.Fatalf("t on the drills menu opened %q", got)
	}
	d.press("q", "q")
	if _, ok := d.screen().(*homeScreen); !ok {
		t.Errorf("q twice from an untouched drill should be home, got %q", d.screen().Title())
	}
}
