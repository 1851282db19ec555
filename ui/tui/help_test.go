package tui

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// helpText opens the help and scrolls it to the end one line at a time,
// as a user would, and returns every line it showed, in order, with all
// spacing taken out so a wrapped action (or a word broken at the edge)
// reads as one.
func (d *driver) helpText() string {
	d.t.Helper()
	d.press("?")
	body := func() []string {
		ls := strings.Split(d.view(), "\n")
		return ls[2 : len(ls)-1] // header, help title; footer
	}
	seen := body()
	for range 200 {
		before := d.view()
		d.press("down")
		if d.view() == before {
			break
		}
		b := body()
		seen = append(seen, b[len(b)-1])
	}
	return noSpace(strings.Join(seen, " "))
}

func noSpace(s string) string {
	return regexp.MustCompile(`\s+`).ReplaceAllString(s, "")
}

// checkHelpComplete fails unless every key of the screen's help, and ? and
// ctrl+c, can be read in the help at this size.
func checkHelpComplete(t *testing.T, d *driver, name string, w, h int) {
	t.Helper()
	top := d.screen()
	text := d.helpText()
	var want []key.Binding
	for _, col := range top.Help().Full {
		want = append(want, col...)
	}
	want = append(want, d.m.c.Keys.Help, d.m.c.Keys.Quit)
	for _, k := range want {
		if !k.Enabled() {
			continue
		}
		kh := k.Help()
		if !strings.Contains(text, noSpace(kh.Key+kh.Desc)) {
			t.Errorf("%s %dx%d: help never shows %q %q:\n%s", name, w, h, kh.Key, kh.Desc, text)
		}
	}
	checkFits(t, d.view(), w, h)
	d.press("esc")
	if d.m.frame.HelpOpen() {
		t.Errorf("%s %dx%d: esc did not close the scrolled help", name, w, h)
	}
}

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
			checkHelpComplete(t, d, j.name, sz.w, sz.h)
		}
	}
}

// The scrolled help says where it is and how to see more, and pgdn, end
// and home move through it.
func TestHelpScrolls(t *testing.T) {
	d := newDriver(t, 40, 12)
	d.press("l", "r", "?")
	v := d.view()
	if !strings.Contains(v, "of 15") || !strings.Contains(v, "↑/↓: more") {
		t.Errorf("a help longer than the screen should say so:\n%s", v)
	}
	d.press("end")
	if v := noSpace(d.view()); !strings.Contains(v, "ctrl+cquit") || !strings.Contains(v, "q/escback") {
		t.Errorf("end should show the last keys:\n%s", v)
	}
	d.press("home")
	if v := d.view(); !strings.Contains(v, "1–") {
		t.Errorf("home should go back to the first keys:\n%s", v)
	}
}
