package tui

import (
	"strings"
	"testing"
)

// The browser compares two or three products: c marks, enter (or c on a
// marked one) opens two, c on a third opens three, and the grid shows the
// three side by side where the width allows.
func TestBrowserComparesTwoOrThreeProducts(t *testing.T) {
	names := func(s *compareScreen) []string {
		var out []string
		for _, p := range s.ps {
			out = append(out, p.ID)
		}
		return out
	}
	d := newDriver(t, 120, 40)
	d.press("b", "c", "right", "c")
	if _, ok := d.screen().(*browserScreen); !ok {
		t.Fatalf("the second c should mark, not open the grid yet: %q", d.screen().Title())
	}
	if v := d.view(); !strings.Contains(v, "enter compares the two, c on a third compares three") {
		t.Errorf("the browser does not say how to compare three:\n%s", v)
	}
	d.press("enter")
	two, ok := d.screen().(*compareScreen)
	if !ok || len(two.ps) != 2 {
		t.Fatalf("enter with two marked should compare them: %q", d.screen().Title())
	}
	if got := names(two); got[0] != "dynamo" || got[1] != "llm-d" {
		t.Errorf("compared %v, want dynamo and llm-d", got)
	}
	d.press("esc", "c", "right", "c", "right", "c")
	three, ok := d.screen().(*compareScreen)
	if !ok || len(three.ps) != 3 {
		t.Fatalf("a third c should compare three: %q", d.screen().Title())
	}
	t.Logf("three: %v", names(three))
	v := d.view()
	head := strings.Split(v, "\n")
	found := false
	for _, l := range head {
		if strings.Contains(l, three.ps[0].Name) && strings.Contains(l, three.ps[1].Name) && strings.Contains(l, three.ps[2].Name) {
			found = true
		}
	}
	if !found {
		t.Errorf("at 120 columns the three products should head three columns:\n%s", v)
	}
	if !strings.Contains(v, "x rotate the columns") {
		t.Errorf("the footer should say x rotates three columns:\n%s", v)
	}
}
