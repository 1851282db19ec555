package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/tui/screen"
)

// confirmScreen asks one yes/no question before something that cannot be
// undone: quitting with unsaved answers, replacing a file, abandoning a
// drill. esc means no. screen.Context.Confirm shows it, through the
// NewConfirm the root model sets.
type confirmScreen struct {
	c           *shared
	question    string
	explanation string
	yes         bool
	form        *form
	decided     func(yes bool) tea.Cmd
	w, h        int
}

func newConfirmScreen(c *shared, question, explanation string, decided func(yes bool) tea.Cmd) *confirmScreen {
	return &confirmScreen{c: c, question: question, explanation: explanation, decided: decided}
}

func (s *confirmScreen) Title() string { return "Confirm" }

func (s *confirmScreen) SetSize(w, h int) {
	if w == s.w && h == s.h && s.form != nil {
		return
	}
	s.w, s.h = w, h
	s.form = confirmForm(s.c, w-2, h, s.question, s.explanation, &s.yes)
	s.form.init()
}

func (s *confirmScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, s.c.Keys.Back) {
		return s.decided(false)
	}
	cmd := s.form.update(msg)
	if s.form.done() {
		return s.decided(s.yes)
	}
	return cmd
}

func (s *confirmScreen) View() string {
	return screen.Indent(s.form.view(), 1)
}

func (s *confirmScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	yes := key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes"))
	no := key.NewBinding(key.WithKeys("n"), key.WithHelp("n/esc", "no"))
	toggle := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose"))
	enter := screen.WithHelp(k.Enter, "confirm choice")
	return screen.KeyHelp{
		Short: []key.Binding{yes, no, toggle, enter},
		Full:  [][]key.Binding{{yes, no, toggle, enter}},
	}
}
