// Package screen is the contract between the app's root model and its
// screens: the Screen interface, the Context every screen is given (the
// knowledge, the size, the keys, the styles and the stack of screens), the
// Frame that draws the top screen between a header and a footer and routes
// messages to it, and the pieces every screen lays itself out with (keys
// and their help, boxes, windows). It knows no particular screen: it must
// not import ui/tui, ui/tui/drills or ui/cli, and it uses no huh (the
// forms, the yes/no question included, are ui/tui's).
package screen

import tea "charm.land/bubbletea/v2"

// Screen is one page of the app. Screens are small: they handle the keys
// they own, draw exactly the size they were given, and name their keys for
// the help. Navigation goes through the Context's stack.
type Screen interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	Help() KeyHelp
	Title() string
}

// Addressed is a message for one screen (a countdown's tick) rather than
// for whichever screen is on top.
type Addressed interface{ Recipient() Screen }

// Settling is a message whose news outlives the screen it is for: the
// frame calls Settle before routing it, whatever is on the stack, and
// routes what Settle returns. A drill's record is taken into the history
// even when the screen that finished the drill has gone.
type Settling interface{ Settle() tea.Msg }

// TakesQuestionMark reports whether s is in the middle of free text where
// "?" is part of the answer.
func TakesQuestionMark(s Screen) bool {
	t, ok := s.(interface{ TakesQuestionMark() bool })
	return ok && t.TakesQuestionMark()
}

// Begin starts what a screen starts when it is shown (a countdown).
func Begin(s Screen) tea.Cmd {
	if b, ok := s.(interface{ Begin() tea.Cmd }); ok {
		return b.Begin()
	}
	return nil
}
