package screen

import (
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// Context is what every screen sees: the knowledge, the size it may draw
// in, the keys and styles, and the screen stack. The root model owns it;
// screens hold a pointer and never copy it.
type Context struct {
	KB *knowledge.KB
	// Decider is KB compiled for deciding, once: screens decide through it
	// rather than decide.Decide, which compiles the rules every time.
	Decider   *decide.Compiled
	Scenarios []scenarios.Scenario
	Keys      KeyMap
	Styles    Styles

	// Width and Height are the body's: the terminal minus header and
	// footer.
	Width, Height int

	// Stack is the screens shown, the top one last. Screens change it only
	// through Push, Pop, Replace and PopTo.
	Stack []Screen
	// Status is a one-line message shown until the next key press.
	Status string
	// Quit ends the app once the message that set it is handled.
	Quit bool

	// NewConfirm builds the app's yes/no question; the root model sets it
	// (the question is a huh form, and huh is ui/tui's).
	NewConfirm func(question, explanation string, decided func(yes bool) tea.Cmd) Screen
}

// Push shows s on top of the current screen.
func (c *Context) Push(s Screen) {
	s.SetSize(c.Width, c.Height)
	c.Stack = append(c.Stack, s)
}

// Pop goes back one screen; popping the last one quits.
func (c *Context) Pop() {
	if len(c.Stack) <= 1 {
		c.Quit = true
		return
	}
	c.Stack = c.Stack[:len(c.Stack)-1]
	c.Top().SetSize(c.Width, c.Height)
}

// Replace swaps the top screen for s (a form that turns into its result).
func (c *Context) Replace(s Screen) {
	c.Stack = c.Stack[:len(c.Stack)-1]
	c.Push(s)
}

// Top is the screen shown.
func (c *Context) Top() Screen { return c.Stack[len(c.Stack)-1] }

// PopTo goes back to the nearest screen that matches, if any.
func (c *Context) PopTo(match func(Screen) bool) bool {
	for i := len(c.Stack) - 1; i >= 0; i-- {
		if match(c.Stack[i]) {
			c.Stack = c.Stack[:i+1]
			c.Top().SetSize(c.Width, c.Height)
			return true
		}
	}
	return false
}

// Confirm asks a yes/no question over the current screen, before
// something that cannot be undone; decided gets the answer (esc is no).
func (c *Context) Confirm(question, explanation string, decided func(yes bool) tea.Cmd) tea.Cmd {
	c.Push(c.NewConfirm(question, explanation, decided))
	return nil
}
