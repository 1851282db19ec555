package tui

import (
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/screen"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// loadKB loads the built-in knowledge base once for all tests.
func loadKB(t testing.TB) (*knowledge.KB, []scenarios.Scenario) { return screentest.LoadKB(t) }

// driver runs the app without a terminal (screentest's driver, on the
// root model's frame), with the model at hand for tests that look inside.
type driver struct {
	*screentest.Driver
	t testing.TB
	m *Model
}

// drive runs m in a test.
func drive(t testing.TB, m *Model) *driver {
	return &driver{Driver: &screentest.Driver{T: t, Frame: m.frame, C: m.c.Context}, t: t, m: m}
}

// testNow is the pinned clock of every driver: memos and their file names
// are dated 2026-11-30, as the golden memos are.
func testNow() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }

// newDriver starts the app at w×h with dark styles and colour on: the
// fixed profile of every golden file (colour is stripped before comparing,
// so what the goldens pin is layout and text).
func newDriver(t testing.TB, w, h int) *driver {
	t.Helper()
	kb, list := loadKB(t)
	d := drive(t, New(kb, list, Options{Now: testNow}))
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// send delivers one message and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	d.Send(msg)
}

// press sends key presses, by name ("enter", "shift+tab", "q").
func (d *driver) press(keys ...string) *driver {
	d.t.Helper()
	d.Press(keys...)
	return d
}

// typeText types s one character at a time.
func (d *driver) typeText(s string) *driver {
	d.Type(s)
	return d
}

// resize changes the terminal size.
func (d *driver) resize(w, h int) *driver {
	d.Send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// view is the screen as plain text.
func (d *driver) view() string { return d.View() }

// screen is the current top screen.
func (d *driver) screen() screen.Screen { return d.Top() }

// golden compares the view with testdata/name.golden.
func (d *driver) golden(name string) {
	d.t.Helper()
	screentest.Golden(d.t, filepath.Join("testdata", name+".golden"), d.view())
}

var (
	keyMsg    = screentest.KeyMsg
	checkFits = screentest.CheckFits
)
