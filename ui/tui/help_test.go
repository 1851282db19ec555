package tui

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// On every screen, at every size, the whole help can be read: it scrolls
// when it is longer than the screen (at 40x12 the result's was cut off
// after "e edit answer").
func TestHelpIsCompleteAtEverySize(t *testing.T) {
	for _, j := range journeys {
		for _, sz := range append(goldenSizes, struct{ w, h int }{30, 8}) {
			d := newDriver(t, sz.w, sz.h)
			j.keys(d)
			if d.m.frame.HelpOpen() {
				d.press("?")
			}
			screentest.CheckHelpComplete(t, d.Driver, j.name, sz.w, sz.h)
		}
	}
}

// The scrolled help says where it is and how to see more, and pgdn, end
// and home move through it.
func TestHelpScrolls(t *testing.T) {
	d := newDriver(t, 40, 12)
	d.press("l", "r", "?")
	v := d.view()
	if !strings.Contains(v, "of 23") || !strings.Contains(v, "↑/↓: more") {
		t.Errorf("a help longer than the screen should say so:\n%s", v)
	}
	d.press("end")
	if v := screentest.NoSpace(d.view()); !strings.Contains(v, "ctrl+cquit") || !strings.Contains(v, "q/escback") {
		t.Errorf("end should show the last keys:\n%s", v)
	}
	d.press("home")
	if v := d.view(); !strings.Contains(v, "1–") {
		t.Errorf("home should go back to the first keys:\n%s", v)
	}
}
