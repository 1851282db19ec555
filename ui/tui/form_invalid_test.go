package tui

import (
	"strings"
	"testing"
)

// focusField moves the questionnaire to the question key, paging forward
// and pressing enter through valid fields as a user would.
func (d *driver) focusField(key string) *driver {
	d.t.Helper()
	for range 60 {
		s, ok := d.screen().(*formScreen)
		if !ok {
			d.t.Fatalf("looking for %s: not on the questionnaire but %q", key, d.screen().Title())
		}
		if s.form.focusedKey() == key {
			return d
		}
		d.press("enter")
	}
	d.t.Fatalf("never reached the question %s:\n%s", key, d.view())
	return d
}

// retype clears the focused number field and types text.
func (d *driver) retype(text string) *driver {
	d.t.Helper()
	d.press("ctrl+u").typeText(text)
	return d
}

// A number that is not valid is never shortened to the part of it that
// was: every way off the field refuses, keeps the typed text and says why.
func TestInvalidNumberIsNeverShortened(t *testing.T) {
	cases := []struct {
		name  string
		field string
		typed string
		keys  []string
	}{
		{"ctrl+r", "context_tokens", "32k", []string{"ctrl+r"}},
		{"pgdown", "context_tokens", "128k", []string{"pgdown"}},
		{"pgup", "context_tokens", "128k", []string{"pgup"}},
		{"shift+tab", "context_tokens", "32k", []string{"shift+tab"}},
		{"pgdown out of range", "gpus_per_node", "999", []string{"pgdown"}},
		{"shift+tab on the page's first field", "nodes", "-3", []string{"shift+tab"}},
		{"q while typing", "context_tokens", "32k", []string{"q"}},
		{"tab", "context_tokens", "32k", []string{"tab"}},
		{"enter", "context_tokens", "32k", []string{"enter"}},
	}
	for _, tc := range cases {
		for _, sz := range goldenSizes {
			t.Run(tc.name, func(t *testing.T) {
				d := newDriver(t, sz.w, sz.h)
				d.press("n")
				before := d.m.c.session.answers.Get(tc.field).Int
				d.focusField(tc.field)
				page := d.screen().Title()
				d.retype(tc.typed).press(tc.keys...)
				s, ok := d.screen().(*formScreen)
				if !ok {
					t.Fatalf("%dx%d: %s left the questionnaire with %s = %q:\n%s", sz.w, sz.h, tc.name, tc.field, tc.typed, d.view())
				}
				if s.Title() != page || s.form.focusedKey() != tc.field {
					t.Errorf("%dx%d: %s moved off %s (now %s on %q)", sz.w, sz.h, tc.name, tc.field, s.form.focusedKey(), s.Title())
				}
				if got := d.m.c.session.answers.Get(tc.field).Int; got != before {
					t.Errorf("%dx%d: %s stored %s = %d from %q (want the answer left at %d)", sz.w, sz.h, tc.name, tc.field, got, tc.typed, before)
				}
				v := d.view()
				if !strings.Contains(v, tc.typed) {
					t.Errorf("%dx%d: the typed %q is gone:\n%s", sz.w, sz.h, tc.typed, v)
				}
				if !strings.Contains(v, "enter a whole number from") {
					t.Errorf("%dx%d: no error shown for %q:\n%s", sz.w, sz.h, tc.typed, v)
				}
			})
		}
	}
}

// Fixing the number lets the same key through, with the fixed value.
func TestFixedNumberMovesOn(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n").focusField("context_tokens").retype("32k").press("ctrl+r")
	d.press("backspace").typeText("768").press("ctrl+r")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("ctrl+r after fixing the number should show the result, got %q", d.screen().Title())
	}
	if got := d.m.c.session.answers.Get("context_tokens").Int; got != 32768 {
		t.Errorf("context_tokens = %d, want 32768", got)
	}
}

// esc on an invalid number leaves at once with the answer the field had
// before it was changed, never the typed number cut short, and says so.
func TestEscPutsBackTheAnswer(t *testing.T) {
	for _, typed := range []string{"999", "32k", ""} {
		d := newDriver(t, 80, 24)
		d.press("n").focusField("gpus_per_node").retype(typed).press("esc")
		if _, ok := d.screen().(*homeScreen); !ok {
			t.Fatalf("esc on %q should go home, got %q", typed, d.screen().Title())
		}
		if got := d.m.c.session.answers.Get("gpus_per_node").Int; got != 8 {
			t.Errorf("gpus_per_node = %d after esc on %q, want the default 8 back", got, typed)
		}
		if !strings.Contains(d.view(), "gpus_per_node put back to 8") {
			t.Errorf("esc on %q does not say what it put back:\n%s", typed, d.view())
		}
		// Resume shows the old value, not the refused text or its error.
		d.press("enter")
		fs, ok := d.screen().(*formScreen)
		if !ok {
			t.Fatalf("Resume after esc on %q opened %q", typed, d.screen().Title())
		}
		if v := d.view(); fs.form.focusedKey() != "gpus_per_node" || !strings.Contains(v, "> 8") || (typed != "" && strings.Contains(v, "> "+typed)) || strings.Contains(v, "enter a whole number") {
			t.Errorf("Resume after esc on %q should show gpus_per_node = 8 again:\n%s", typed, v)
		}
	}
	// A valid number is kept: esc means "back, answers kept".
	d := newDriver(t, 80, 24)
	d.press("n").focusField("gpus_per_node").retype("4").press("esc")
	if got := d.m.c.session.answers.Get("gpus_per_node").Int; got != 4 {
		t.Errorf("gpus_per_node = %d after esc on a valid 4, want 4 kept", got)
	}
}

// Resizing the terminal while a number is being typed keeps the text.
func TestResizeKeepsTypedNumber(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n").focusField("context_tokens").retype("32k").resize(100, 30)
	s := d.screen().(*formScreen)
	if s.form.focusedKey() != "context_tokens" || !strings.Contains(d.view(), "32k") {
		t.Errorf("a resize lost the typed text or the focus (%s):\n%s", s.form.focusedKey(), d.view())
	}
	d.resize(130, 40)
	if !strings.Contains(d.view(), "32k") {
		t.Errorf("a resize to the side-pane layout lost the typed text:\n%s", d.view())
	}
}
