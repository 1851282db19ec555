package tui

import (
	"strings"
	"testing"
)

// Tab on a page's last question goes on to the next page, as enter does
// and as the footer says; the next arrow key then moves on the new page
// and never changes the answer left behind.
func TestTabOnLastQuestionGoesToNextPage(t *testing.T) {
	for _, sz := range goldenSizes {
		d := newDriver(t, sz.w, sz.h)
		d.press("n")
		fleet := questionPages(d.m.c.KB)[0].questions
		last := fleet[len(fleet)-1].Key
		d.focusField(last)
		if help := d.view(); !strings.Contains(help, "next page") {
			t.Errorf("%dx%d: on the page's last question the footer should say enter/tab goes to the next page:\n%s", sz.w, sz.h, help)
		}
		before := d.m.c.session.answers.Get(last)
		d.press("tab")
		s := d.screen().(*formScreen)
		if s.page != 1 {
			t.Fatalf("%dx%d: tab on %s stayed on page %d (%s)", sz.w, sz.h, last, s.page+1, s.Title())
		}
		d.press("down")
		if got := d.m.c.session.answers.Get(last); !got.Equal(before, fleet[len(fleet)-1].Type) {
			t.Errorf("%dx%d: the arrow key after tab changed %s from %v to %v", sz.w, sz.h, last, before, got)
		}
	}
	// On the last page, tab on the last question shows the result.
	d := newDriver(t, 80, 24)
	d.press("n", "pgdown", "pgdown", "pgdown", "pgdown")
	pages := questionPages(d.m.c.KB)
	team := pages[len(pages)-1].questions
	d.focusField(team[len(team)-1].Key).press("tab")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Errorf("tab on the last question of the last page should show the result, got %q", d.screen().Title())
	}
}

// A list question's footer says that space ticks.
func TestMultiSelectSaysSpaceTicks(t *testing.T) {
	for _, sz := range goldenSizes {
		d := newDriver(t, sz.w, sz.h)
		d.press("n", "pgdown").focusField("other_model_types")
		lines := strings.Split(d.view(), "\n")
		if foot := lines[len(lines)-1]; !strings.Contains(foot, "space") || !strings.Contains(foot, "tick") {
			t.Errorf("%dx%d: the footer on a list question does not say space ticks: %q", sz.w, sz.h, foot)
		}
	}
}

// "» moved" marks what the last answer moved, and goes once an answer
// moves nothing.
func TestMovedMarkGoesWhenNothingMoved(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {130, 40}} {
		d := newDriver(t, sz.w, sz.h)
		d.press("n").retype("4") // nodes 1 → 4 brings an orchestrator
		if !strings.Contains(d.view(), "» ") {
			t.Fatalf("%dx%d: four nodes moved the orchestrator but nothing is marked:\n%s", sz.w, sz.h, d.view())
		}
		d.press("enter") // on to gpus_per_node: the mark says what nodes moved
		if !strings.Contains(d.view(), "» ") {
			t.Errorf("%dx%d: the mark went as soon as focus left the answer that moved:\n%s", sz.w, sz.h, d.view())
		}
		d.press("enter") // gpus_per_node left as it was: it moved nothing
		if v := d.view(); strings.Contains(v, "» ") {
			t.Errorf("%dx%d: after an answer that moved nothing the mark stays:\n%s", sz.w, sz.h, v)
		}
	}
}

// Tab in the one-answer editor keeps the answer, as enter does.
func TestTabKeepsAnEditedAnswer(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r").editAnswer("fine_tune_method").press("down", "tab")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("tab in the editor should keep the answer and show the result, got %q", d.screen().Title())
	}
	if got := d.m.c.session.answers.Get("fine_tune_method").Str; got != "full" {
		t.Errorf("fine_tune_method = %q after down, tab; want full", got)
	}
}

// Back from a preset's result comes to the preset list, on that preset.
func TestBackFromPresetResultGoesToTheList(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "down", "down", "r")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("r on a preset should show its result, got %q", d.screen().Title())
	}
	d.press("esc")
	s, ok := d.screen().(*scenarioScreen)
	if !ok {
		t.Fatalf("back from a preset's result should go to the preset list, got %q", d.screen().Title())
	}
	if s.cursor != 2 {
		t.Errorf("the list's cursor is on preset %d, want 2 (the one just shown)", s.cursor)
	}
	d.press("esc")
	if _, ok := d.screen().(*homeScreen); !ok {
		t.Errorf("back from the list should go home, got %q", d.screen().Title())
	}
}

// A preset opened on its questions (enter, then yes) has the list under
// it: back from its result, nothing changed, comes to the list; after an
// edit it comes to the questions. The confirm names the preset by its
// title, not its file name.
func TestBackFromALoadedPresetsResultGoesToTheList(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n").focusField("nodes").retype("3") // answers typed: loading asks first
	d.press("esc", "l", "down", "enter")
	title := d.m.c.Scenarios[1].Title
	if v := d.view(); !strings.Contains(v, "Load “"+title+"”?") || strings.Contains(v, "Load "+d.m.c.Scenarios[1].Name+"?") {
		t.Errorf("the confirm should name the preset %q:\n%s", title, v)
	}
	d.press("y")
	if _, ok := d.screen().(*formScreen); !ok {
		t.Fatalf("loading a preset should open its questions, got %q", d.screen().Title())
	}
	d.press("ctrl+r")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("ctrl+r should show the result, got %q", d.screen().Title())
	}
	d.press("esc")
	if s, ok := d.screen().(*scenarioScreen); !ok || s.cursor != 1 {
		t.Fatalf("back from an unchanged preset's result should go to the preset list on it, got %q", d.screen().Title())
	}
	// Changed on the way: the result is over the questions.
	d.press("enter")
	if _, ok := d.screen().(*formScreen); !ok {
		t.Fatalf("enter on the list should open the questions, got %q", d.screen().Title())
	}
	d.focusField("nodes").retype("3").press("ctrl+r", "esc")
	if _, ok := d.screen().(*formScreen); !ok {
		t.Errorf("back from an edited preset's result should go to its questions, got %q", d.screen().Title())
	}
	d.press("esc")
	if _, ok := d.screen().(*scenarioScreen); !ok {
		t.Errorf("back from a preset's questions should go to the list, got %q", d.screen().Title())
	}
}

// On a short terminal a list question's items stay in sight: the why
// gives way first, and the item under the cursor is always on screen, so
// nobody ticks what they cannot see. No item is cut mid-word.
func TestListItemsStayInSight(t *testing.T) {
	for _, sz := range goldenSizes {
		d := newDriver(t, sz.w, sz.h)
		d.press("n", "pgdown").focusField("other_model_types")
		q := d.m.c.KB.Question("other_model_types")
		for i := range q.Values {
			v := d.view()
			if !strings.Contains(v, "> [") {
				t.Errorf("%dx%d: item %d under the cursor is not on screen:\n%s", sz.w, sz.h, i+1, v)
			}
			d.press("down")
		}
		for _, l := range strings.Split(d.view(), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "engi") {
				t.Errorf("%dx%d: an item is cut mid-word: %q", sz.w, sz.h, l)
			}
		}
	}
}
