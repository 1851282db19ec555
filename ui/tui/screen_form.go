package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// page is one page of the questionnaire: the questions the knowledge base
// puts under one heading, in its order.
type page struct {
	name      string
	questions []*knowledge.Question
}

// questionPages groups the questions a user answers by their page, in the
// order the knowledge base first names each page. Derived answers are
// computed and never asked.
func questionPages(kb *knowledge.KB) []page {
	var pages []page
	for _, q := range kb.Questions {
		if q.Derived {
			continue
		}
		i := slices.IndexFunc(pages, func(p page) bool { return p.name == q.Page })
		if i < 0 {
			pages = append(pages, page{name: q.Page})
			i = len(pages) - 1
		}
		pages[i].questions = append(pages[i].questions, q)
	}
	return pages
}

// formScreen is the questionnaire: one page of questions at a time, every
// answer kept in the session as it changes, the stack re-decided after each
// change and shown beside the form (or under it on narrow terminals).
type formScreen struct {
	c     *shared
	pages []page
	page  int
	focus int // index of the focused question on the page

	bindings []*binding
	form     *form
	built    struct{ w, h, page, version int }
	err      string
	w, h     int

	// entered is the focused question and its answer when focus came to
	// it: what the session holds while the field's text is not a valid
	// answer, and what a second esc puts back.
	entered struct {
		key string
		val knowledge.Value
	}
	// fromPreset is set when the form opened on a preset just loaded
	// from the preset list, which lies under it.
	fromPreset bool
	// settled is the session's version when focus came to the question:
	// leaving it with the version unchanged means its answer moved nothing.
	settled int
}

func newFormScreen(c *shared) *formScreen {
	return &formScreen{c: c, pages: questionPages(c.KB)}
}

func (s *formScreen) Title() string {
	return fmt.Sprintf("%s (%d/%d) · %s", s.pages[s.page].name, s.page+1, len(s.pages), s.c.session.origin)
}

// formSize is the room the huh form gets: the body minus the page tabs, the
// status line and, on wide terminals, the side pane.
func (s *formScreen) formSize() (int, int) {
	w := s.w - 1
	if s.w >= sidePaneMin {
		w = s.w - sidePaneWidth - 2
	}
	h := s.h - 2 // tabs, status
	if s.h >= 16 {
		h-- // a blank line under the tabs
	}
	return w, max(h, 3)
}

func (s *formScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.rebuild()
}

// rebuild makes a fresh form for the current page when the size, the page
// or the answers changed underneath (a resize, coming back from the result
// after editing one answer), keeping the focused question. A new page or
// changed answers start from the session's answers; a resize keeps the
// fields' text as typed, a number not valid yet included.
func (s *formScreen) rebuild() {
	fw, fh := s.formSize()
	v := s.c.session.version
	same := s.form != nil && !s.form.done() && s.built.page == s.page && s.built.version == v
	if same && s.built.w == fw && s.built.h == fh {
		return
	}
	if !same {
		p := s.pages[s.page]
		s.bindings = s.bindings[:0]
		for _, q := range p.questions {
			s.bindings = append(s.bindings, bindingFor(q, s.c.session.answers))
		}
		s.entered.key = ""
	}
	s.form = questionForm(s.c, fw, fh, s.bindings)
	s.form.init()
	s.focus = min(s.focus, len(s.bindings)-1)
	s.form.advance(s.focus)
	s.built.w, s.built.h, s.built.page, s.built.version = fw, fh, s.page, v
	s.noteFocus()
}

// noteFocus records the focused question's answer when focus has just come
// to it.
func (s *formScreen) noteFocus() {
	if k := s.form.focusedKey(); k != s.entered.key {
		if s.entered.key != "" && s.settled == s.c.session.version {
			// The answer just left changed nothing: what the last
			// change moved is old news, and no longer marked.
			s.c.session.settle()
		}
		s.entered.key = k
		s.entered.val = s.c.session.answers.Get(k)
		s.settled = s.c.session.version
	}
}

// invalid is why the focused field's text is not a valid answer (a number
// mistyped or out of range), or nil.
func (s *formScreen) invalid() error {
	k := s.form.focusedKey()
	for _, b := range s.bindings {
		if b.q.Key == k {
			_, err := b.value()
			return err
		}
	}
	return nil
}

// refuseLeaving keeps focus on a field whose number is not valid, with the
// text as typed and the reason shown: leaving would store a number the user
// never entered (the valid part of "32k" is 32). esc is the way out: it
// puts back the answer the field had and leaves.
func (s *formScreen) refuseLeaving(err error, esc bool) tea.Cmd {
	q := s.c.KB.Question(s.entered.key)
	if esc && q != nil {
		a := s.c.session.answers.With(s.c.KB.QuestionIndex(q.Key), s.entered.val)
		s.c.session.set(a)
		s.c.Status = q.Key + " put back to " + s.entered.val.Plain(q.Type) + " (the number typed was not valid)"
		// The fields start again from the answers, so Resume shows the old
		// value, not the text that was refused.
		s.form, s.err = nil, ""
		s.rebuild()
		s.c.Pop()
		return nil
	}
	s.err = err.Error()
	s.c.Status = "Not moved: fix " + s.entered.key + " first (esc puts back " + s.entered.val.Plain(q.Type) + " and leaves)"
	return nil
}

// gotoPage shows page i with the question at focus focused (-1: the last).
func (s *formScreen) gotoPage(i, focus int) tea.Cmd {
	if i >= len(s.pages) {
		return s.showResult()
	}
	if s.entered.key != "" && s.settled == s.c.session.version {
		s.c.session.settle() // the page's last answer moved nothing
	}
	s.page = max(i, 0)
	if focus < 0 {
		focus = len(s.pages[s.page].questions) - 1
	}
	s.focus = focus
	s.form = nil
	s.err = ""
	s.entered.key = ""
	s.rebuild()
	return nil
}

// showResult opens the result over the questions; for a preset loaded
// and not changed, in their place, so back from it comes to the preset
// list to try the next one.
func (s *formScreen) showResult() tea.Cmd {
	if s.fromPreset && !s.c.session.unsaved() {
		s.c.Replace(newResultScreen(s.c))
		return nil
	}
	s.c.Push(newResultScreen(s.c))
	return nil
}

func (s *formScreen) Update(msg tea.Msg) tea.Cmd {
	keys := s.c.Keys
	if k, ok := msg.(tea.KeyPressMsg); ok {
		esc := k.String() == "esc" || (k.String() == "q" && !s.form.typing())
		// Every way off the field but enter and tab (which huh already
		// refuses) is checked here.
		if esc || key.Matches(k, keys.NextPage, keys.PrevPage, keys.ResultNow, keys.PrevField) {
			if err := s.invalid(); err != nil {
				return s.refuseLeaving(err, esc)
			}
		}
		if k.String() == "tab" && s.focus == len(s.bindings)-1 {
			// huh takes tab on a group's last field for nothing (only
			// enter submits it); here it goes on to the next page, as the
			// footer says, so the next arrow key never changes this
			// answer unseen.
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		switch {
		case esc:
			s.c.Pop()
			return nil
		case key.Matches(k, keys.NextPage):
			return s.gotoPage(s.page+1, 0)
		case key.Matches(k, keys.PrevPage):
			return s.gotoPage(s.page-1, 0)
		case key.Matches(k, keys.ResultNow):
			return s.showResult()
		case key.Matches(k, keys.PrevField) && s.focus == 0:
			if s.page > 0 {
				return s.gotoPage(s.page-1, -1)
			}
			return nil
		}
	}
	cmd := s.form.update(msg)
	s.sync()
	if s.form.done() {
		return tea.Batch(cmd, s.gotoPage(s.page+1, 0))
	}
	return cmd
}

// sync copies what the fields hold into the session. While a number being
// typed is not valid, the session holds the answer the field had when it
// got focus (never the valid part of the text, 32 of "32k"), and the form
// says why.
func (s *formScreen) sync() {
	s.noteFocus()
	a := s.c.session.answers
	s.err = ""
	for _, b := range s.bindings {
		v, err := b.value()
		if err != nil {
			s.err = err.Error()
			if b.q.Key != s.entered.key {
				continue
			}
			v = s.entered.val
		}
		a = a.With(s.c.KB.QuestionIndex(b.q.Key), v)
	}
	a, note := reconcile(a, s.c.session.answers)
	if note != "" {
		s.c.Status = note
	}
	if s.c.session.set(a) {
		s.built.version = s.c.session.version // the form already shows it
		if s.movedOnPage(a) {
			// An answer on this page moved to agree with another (or went
			// back to its default): show it now, so the field never
			// re-applies the value it replaced.
			s.built.version = -1
			s.rebuild()
		}
	}
	if i := slices.IndexFunc(s.bindings, func(b *binding) bool { return b.q.Key == s.form.focusedKey() }); i >= 0 {
		s.focus = i
	}
}

// movedOnPage reports whether a holds an answer other than the one a field
// of this page shows (reconcile moved it).
func (s *formScreen) movedOnPage(a knowledge.Answers) bool {
	for _, b := range s.bindings {
		if v, err := b.value(); err == nil && !v.Equal(a.Get(b.q.Key), b.q.Type) {
			return true
		}
	}
	return false
}

func (s *formScreen) tabs() string {
	st := s.c.Styles
	var parts []string
	for i, p := range s.pages {
		name := fmt.Sprintf("%d %s", i+1, p.name)
		if i == s.page {
			parts = append(parts, st.Selected.Render("›"+name+" "))
		} else {
			parts = append(parts, st.Muted.Render(" "+name+" "))
		}
	}
	line := strings.Join(parts, "")
	if screen.VisibleWidth(line) <= s.formWidthForTabs() {
		return line
	}
	return st.Selected.Render(fmt.Sprintf("›%d/%d %s ", s.page+1, len(s.pages), s.pages[s.page].name)) +
		st.Muted.Render(" pgdn/pgup: pages")
}

func (s *formScreen) formWidthForTabs() int {
	w, _ := s.formSize()
	return w
}

func (s *formScreen) View() string {
	st := s.c.Styles
	fw, fh := s.formSize()
	var left []string
	left = append(left, truncate(s.tabs(), fw))
	if s.h >= 16 {
		left = append(left, "")
	}
	left = append(left, strings.Split(screen.Fit(s.form.view(), fw, fh), "\n")...)
	status := ""
	switch {
	case s.err != "":
		msg := s.err
		if q := s.c.KB.Question(s.entered.key); q != nil && screen.VisibleWidth(msg) > fw {
			// Narrow: the range matters more than the key of the field
			// that has focus.
			msg = "enter " + q.AllowedText()
		}
		status = st.Error.Render(truncate(msg, fw))
	case s.w < sidePaneMin:
		status = stackLine(s.c, fw)
	}
	left = append(left, status)
	if s.w < sidePaneMin {
		return strings.Join(left, "\n")
	}
	right := strings.Split(stackPane(s.c, sidePaneWidth, s.h), "\n")
	var out []string
	for i := range s.h {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, padRight(l, fw)+"  "+r)
	}
	return strings.Join(out, "\n")
}

func (s *formScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	choose := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "choose"))
	toggle := key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space/x", "tick a list item"))
	back := key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back (answers kept)"))
	next := screen.WithHelp(k.NextField, "next")
	if s.form != nil && s.focus == len(s.bindings)-1 {
		next = screen.WithHelp(k.NextField, "next page")
		if s.page == len(s.pages)-1 {
			next = screen.WithHelp(k.NextField, "result")
		}
	}
	short := []key.Binding{next, screen.WithHelp(k.PrevField, "previous"), k.NextPage, k.ResultNow, back}
	if s.form != nil && s.form.ticking() {
		short = append([]key.Binding{toggle}, short...)
	}
	return screen.KeyHelp{
		Short: short,
		Full: [][]key.Binding{
			{choose, toggle, k.NextField, k.PrevField},
			{k.NextPage, k.PrevPage, k.ResultNow, back},
		},
	}
}
