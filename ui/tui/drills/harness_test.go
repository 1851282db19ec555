package drills

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/screen"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// The drills run here as in the app, in a screen.Frame on a
// screen.Context, without the rest of the app: the home screen and the
// yes/no question (ui/tui's) are stand-ins, so the drills' goldens are the
// app's frames byte for byte.

var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}, {40, 12}}

// loadKB loads the built-in knowledge base once for all tests.
func loadKB(t testing.TB) (*knowledge.KB, []scenarios.Scenario) { return screentest.LoadKB(t) }

// openApp builds what the app builds for the drills: a context with dark
// styles, the drills' state, and a frame; on drill name over the drills
// menu as `stackpick drill NAME` starts, or ("") on a stand-in home screen
// whose d opens the menu.
func openApp(kb *knowledge.KB, list []scenarios.Scenario, st *State, name string) (*screen.Frame, *shared) {
	c := &screen.Context{KB: kb, Decider: decide.Compile(kb), Scenarios: list, Keys: screen.DefaultKeyMap(), Styles: screen.NewStyles(true)}
	c.NewConfirm = func(question, _ string, decided func(bool) tea.Cmd) screen.Screen {
		return &askScreen{c: c, question: question, decided: decided}
	}
	f := screen.NewFrame(c)
	if name == "" {
		c.Push(&homeStandIn{c: c, st: st})
	} else {
		Open(c, st, name)
	}
	return f, &shared{Context: c, drills: st}
}

// homeStandIn stands in for the app's home screen: d opens the drills
// menu, q quits.
type homeStandIn struct {
	c  *screen.Context
	st *State
}

func (s *homeStandIn) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "d":
			s.c.Push(Menu(s.c, s.st))
		case key.Matches(k, s.c.Keys.Back):
			s.c.Pop()
		}
	}
	return nil
}
func (s *homeStandIn) View() string         { return "home" }
func (s *homeStandIn) SetSize(int, int)     {}
func (s *homeStandIn) Help() screen.KeyHelp { return screen.KeyHelp{} }
func (s *homeStandIn) Title() string        { return "Home" }

// askScreen stands in for the app's yes/no question: y is yes; n, q and
// esc are no.
type askScreen struct {
	c        *screen.Context
	question string
	decided  func(yes bool) tea.Cmd
}

func (s *askScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "y":
			return s.decided(true)
		case k.String() == "n", key.Matches(k, s.c.Keys.Back):
			return s.decided(false)
		}
	}
	return nil
}
func (s *askScreen) View() string         { return s.question }
func (s *askScreen) SetSize(int, int)     {}
func (s *askScreen) Help() screen.KeyHelp { return screen.KeyHelp{} }
func (s *askScreen) Title() string        { return "Confirm" }

// driver runs the frame without a terminal (screentest's driver), with
// the drills' context and state at hand for tests that look inside.
type driver struct {
	*screentest.Driver
	t testing.TB
	f *screen.Frame
	c *shared
}

// drive runs f, whose context and drills' state c is, in a test.
func drive(t testing.TB, f *screen.Frame, c *shared) *driver {
	return &driver{Driver: &screentest.Driver{T: t, Frame: f, C: c.Context}, t: t, f: f, c: c}
}

// send delivers one message and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	d.Send(msg)
}

func (d *driver) run(cmd tea.Cmd) { d.Run(cmd) }

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

var (
	keyMsg    = screentest.KeyMsg
	checkFits = screentest.CheckFits
)
