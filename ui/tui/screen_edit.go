package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// editScreen changes one answer. The stack is re-decided as the choice
// moves, so the room sees the effect before anyone confirms; esc puts the
// old answer back.
type editScreen struct {
	c        *shared
	q        *knowledge.Question
	b        *binding
	form     *form
	original knowledge.Answers
	before   decide.Decision
	err      string
	// note says which other answer moved to agree with this one.
	note   string
	w, h   int
	fw, fh int
}

func newEditScreen(c *shared, q *knowledge.Question) *editScreen {
	return &editScreen{c: c, q: q, original: c.session.answers.Clone(), before: c.session.decision}
}

func (s *editScreen) Title() string { return "Edit " + s.q.Key }

func (s *editScreen) formSize() (int, int) {
	w := s.w - 1
	if s.w >= sidePaneMin {
		w = s.w - sidePaneWidth - 2
	}
	h := s.h - 1
	if s.h >= 14 {
		h--
	}
	return w, max(h, 3)
}

func (s *editScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	fw, fh := s.formSize()
	if s.form != nil && fw == s.fw && fh == s.fh {
		return
	}
	s.fw, s.fh = fw, fh
	if s.b == nil {
		s.b = bindingFor(s.q, s.c.session.answers)
	}
	s.form = questionForm(s.c, fw, fh, []*binding{s.b})
	s.form.init()
}

func (s *editScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "esc" || (k.String() == "q" && !s.form.typing())) {
		c.session.set(s.original)
		c.Pop()
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "tab" {
		// The one field is the last: tab keeps it, as enter does, rather
		// than doing nothing while the next arrow key changes the answer.
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	cmd := s.form.update(msg)
	s.err = ""
	if v, err := s.b.value(); err != nil {
		s.err = err.Error()
	} else {
		a, note := reconcile(c.session.answers.Confirm(c.KB.QuestionIndex(s.q.Key), v), c.session.answers)
		s.note = note
		c.session.set(a)
	}
	if s.form.done() {
		c.Status = s.summary()
		c.PopTo(func(sc screen.Screen) bool { _, ok := sc.(*resultScreen); return ok })
	}
	return cmd
}

// summary says what the edit changed: the answer and every pick it moved.
func (s *editScreen) summary() string {
	c := s.c
	from := s.original.Get(s.q.Key).Plain(s.q.Type)
	to := c.session.answers.Get(s.q.Key).Plain(s.q.Type)
	note := report.EditNote(c.KB, s.before, c.session.decision, s.q.Key, from, to)
	if s.note != "" {
		note = s.note + "; " + note
	}
	return note
}

func (s *editScreen) View() string {
	c := s.c
	st := c.Styles
	fw, fh := s.formSize()
	var left []string
	if s.h >= 14 {
		left = append(left, truncate(st.Muted.Render("The stack follows your choice; enter keeps it, esc puts back ")+st.Key.Render(s.original.Get(s.q.Key).Plain(s.q.Type)), fw))
	}
	left = append(left, strings.Split(screen.Fit(s.form.view(), fw, fh), "\n")...)
	status := stackLine(c, fw)
	if s.err != "" {
		status = st.Error.Render(truncate(s.err, fw))
	}
	left = append(left, status)
	if s.w < sidePaneMin {
		return strings.Join(left, "\n")
	}
	right := strings.Split(stackPane(c, sidePaneWidth, s.h), "\n")
	out := make([]string, s.h)
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = padRight(l, fw) + "  " + r
	}
	return strings.Join(out, "\n")
}

func (s *editScreen) Help() screen.KeyHelp {
	choose := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose"))
	keep := key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "keep"))
	cancel := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "put back"))
	toggle := key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space/x", "tick a list item"))
	short := []key.Binding{choose, keep, cancel}
	if s.form != nil && s.form.ticking() {
		short = []key.Binding{toggle, keep, cancel}
	}
	return screen.KeyHelp{
		Short: short,
		Full:  [][]key.Binding{{choose, toggle, keep, cancel}},
	}
}
