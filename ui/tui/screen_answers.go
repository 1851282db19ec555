package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// answersScreen lists every answer with its value, to pick one to change.
// Answers that would move a pick are marked, so the ones worth arguing
// about stand out.
type answersScreen struct {
	c      *shared
	qs     []*knowledge.Question
	cursor int
	top    int
	w, h   int
}

func newAnswersScreen(c *shared, focus string) *answersScreen {
	s := &answersScreen{c: c}
	for _, p := range questionPages(c.KB) {
		s.qs = append(s.qs, p.questions...)
	}
	for i, q := range s.qs {
		if q.Key == focus {
			s.cursor = i
		}
	}
	return s
}

func (s *answersScreen) Title() string { return "Edit one answer" }

func (s *answersScreen) SetSize(w, h int) { s.w, s.h = w, h }

// movers are the answers that appear in some layer's flips.
func (s *answersScreen) movers() map[string]bool {
	m := map[string]bool{}
	for _, lp := range s.c.session.decision.Layers {
		for _, f := range lp.Flips {
			m[f.Answer] = true
		}
	}
	return m
}

func (s *answersScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	c := s.c
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Up):
		s.cursor = (s.cursor + len(s.qs) - 1) % len(s.qs)
	case key.Matches(k, keys.Down):
		s.cursor = (s.cursor + 1) % len(s.qs)
	case key.Matches(k, keys.PageUp):
		s.cursor = max(s.cursor-max(s.h-4, 1), 0)
	case key.Matches(k, keys.PageDown):
		s.cursor = min(s.cursor+max(s.h-4, 1), len(s.qs)-1)
	case key.Matches(k, keys.Top):
		s.cursor = 0
	case key.Matches(k, keys.Bottom):
		s.cursor = len(s.qs) - 1
	case key.Matches(k, keys.Enter):
		c.Push(newEditScreen(c, s.qs[s.cursor]))
		return nil
	}
	return nil
}

func (s *answersScreen) View() string {
	c := s.c
	st := c.Styles
	a := c.session.answers
	movers := s.movers()
	keyW := 0
	for _, q := range s.qs {
		keyW = max(keyW, len(q.Key))
	}
	keyW = min(keyW, max(s.w/2-4, 8))
	var rows []string
	sel := 0
	page := ""
	for i, q := range s.qs {
		if q.Page != page {
			page = q.Page
			rows = append(rows, st.Layer.Render(strings.ToUpper(page)))
		}
		mark := "  "
		if movers[q.Key] {
			mark = st.Changed.Render("⇄ ")
		}
		val := a.Get(q.Key).Plain(q.Type)
		name := padRight(q.Key, keyW)
		prompt := ""
		if s.w >= 100 {
			// Wide enough to read the question beside its answer.
			val = padRight(val, 14)
			prompt = "  " + q.Prompt
		}
		line := name + "  " + val + prompt
		if i == s.cursor {
			sel = len(rows)
			rows = append(rows, truncate(st.Selected.Render("›"+mark[:len(mark)-1]+" ")+st.Selected.Render(truncate(line, s.w-4)), s.w))
			continue
		}
		rows = append(rows, truncate(" "+mark+st.Key.Render(name)+"  "+val+st.Muted.Render(prompt), s.w))
	}
	q := s.qs[s.cursor]
	foot := []string{""}
	foot = append(foot, wrapStyled(q.Prompt, s.w, 1, 0, st.Text)...)
	if s.h >= 16 {
		foot = append(foot, wrapStyled("Why it matters: "+q.Why, s.w, 1, 0, st.Muted)...)
	}
	if s.h >= 12 {
		// Said only of an answer with a flip, and which; a blank line
		// otherwise, so the list does not jump as the cursor moves.
		line := ""
		if f := report.FlipNote(s.c.KB, s.c.session.decision, q.Key); f != "" {
			line = truncate(" "+st.Changed.Render("⇄")+st.Muted.Render(" would move a pick: "+f), s.w)
		}
		foot = append(foot, line)
	}
	if len(foot) > s.h/2 {
		foot = foot[:max(s.h/2, 0)]
	}
	listH := s.h - len(foot)
	visible, top := screen.Window(rows, listH, sel, s.top)
	s.top = top
	return strings.Join(append(visible, foot...), "\n")
}

func (s *answersScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	enter := screen.WithHelp(k.Enter, "change it")
	return screen.KeyHelp{
		Short: []key.Binding{enter, screen.UpDown(), k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {enter, k.Back}},
	}
}
