package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// confirmScreen asks one yes/no question before something that cannot be
// undone: quitting with unsaved answers, replacing a file. esc means no.
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

func (s *confirmScreen) title() string { return "Confirm" }

func (s *confirmScreen) setSize(w, h int) {
	if w == s.w && h == s.h && s.form != nil {
		return
	}
	s.w, s.h = w, h
	s.form = confirmForm(s.c, w-2, h, s.question, s.explanation, &s.yes)
	s.form.init()
}

// confirm shows a yes/no question over the current screen.
func (c *shared) confirm(s *confirmScreen) tea.Cmd {
	c.push(s)
	return nil
}

func (s *confirmScreen) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, s.c.keys.Back) {
		return s.decided(false)
	}
	cmd := s.form.update(msg)
	if s.form.done() {
		return s.decided(s.yes)
	}
	return cmd
}

func (s *confirmScreen) view() string {
	return indent(s.form.view(), 1)
}

func (s *confirmScreen) help() keyHelp {
	k := s.c.keys
	yes := key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes"))
	no := key.NewBinding(key.WithKeys("n"), key.WithHelp("n/esc", "no"))
	toggle := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose"))
	enter := withHelp(k.Enter, "confirm choice")
	return keyHelp{
		short: []key.Binding{yes, no, toggle, enter},
		full:  [][]key.Binding{{yes, no, toggle, enter}},
	}
}
