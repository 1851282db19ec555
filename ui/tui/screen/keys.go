package screen

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap holds every binding of the app, so the help screen, the footer and
// the tests all name keys the same way.
type KeyMap struct {
	Quit key.Binding // from anywhere
	Help key.Binding
	Back key.Binding

	Up, Down, Left, Right key.Binding
	Enter                 key.Binding
	PageUp, PageDown      key.Binding
	Top, Bottom           key.Binding

	// Questionnaire.
	NextField, PrevField key.Binding
	NextPage, PrevPage   key.Binding
	ResultNow            key.Binding

	// Result.
	NextCard, PrevCard key.Binding
	Edit               key.Binding
	Save               key.Binding
	Form               key.Binding
	Export             key.Binding
	Manifests          key.Binding
	Pin, Diff          key.Binding

	// The launch command: to the clipboard, and plain to select.
	Copy       key.Binding
	LaunchView key.Binding

	// Scenarios.
	Open   key.Binding
	Result key.Binding

	// Knowledge browser.
	Filter      key.Binding
	ClearFilter key.Binding
	Compare     key.Binding
	Swap        key.Binding

	// Drills.
	Again key.Binding // a new round of the same drill
	Done  key.Binding // hand in the explanation
	Story key.Binding // the scenario's whole story
}

// DefaultKeyMap is the app's key bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		// f1 opens the help even in free text, where ? is a question mark.
		Help: key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?/f1", "help")),
		Back: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "back")),

		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "left")),
		Right:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "right")),
		Enter:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space", "f"), key.WithHelp("pgdn/space", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "bottom")),

		NextField: key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter/tab", "next question")),
		PrevField: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous question")),
		NextPage:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "next page")),
		PrevPage:  key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "previous page")),
		ResultNow: key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "result now")),

		NextCard: key.NewBinding(key.WithKeys("tab", "n"), key.WithHelp("tab/n", "next layer")),
		PrevCard: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous layer")),
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit answer")),
		Save:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save")),
		Form:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all questions")),
		Export:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export memo")),
		// m: the files that deploy the stack (screen_manifest.go).
		Manifests: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "deployable files")),
		Pin:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pin as A")),
		Diff:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "A beside B")),

		Copy:       key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy launch command")),
		LaunchView: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "launch command, plain")),

		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "fill the form")),
		Result: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "straight to the result")),

		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Compare:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare")),
		Swap:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "swap sides")),

		Again: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "again")),
		Done:  key.NewBinding(key.WithKeys("ctrl+d", "ctrl+s"), key.WithHelp("ctrl+d", "done: grade it")),
		Story: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "whole story")),
	}
}

// KeyHelp is one screen's help: a short line for the footer and columns
// for the full help.
type KeyHelp struct {
	Short []key.Binding
	Full  [][]key.Binding
}

func (k KeyHelp) ShortHelp() []key.Binding  { return k.Short }
func (k KeyHelp) FullHelp() [][]key.Binding { return k.Full }

// WithHelp returns b with its help text replaced (the keys stay).
func WithHelp(b key.Binding, desc string) key.Binding {
	h := b.Help()
	b.SetHelp(h.Key, desc)
	return b
}

// UpDown is the one-entry help for moving a cursor.
func UpDown() key.Binding {
	return key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move"))
}
