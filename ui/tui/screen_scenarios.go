package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// scenarioScreen lists the presets with their story and the stack each one
// gets, and loads one into the questionnaire (or straight into the result).
type scenarioScreen struct {
	c      *shared
	cursor int
	top    int
	stacks []string
	w, h   int
}

func newScenarioScreen(c *shared) *scenarioScreen {
	s := &scenarioScreen{c: c}
	for _, sc := range c.Scenarios {
		s.stacks = append(s.stacks, report.StackLine(c.KB, c.Decider.Decide(sc.Answers)))
	}
	return s
}

func (s *scenarioScreen) Title() string { return "Load scenario" }

func (s *scenarioScreen) SetSize(w, h int) { s.w, s.h = w, h }

func (s *scenarioScreen) load(sc scenarios.Scenario) tea.Cmd {
	c := s.c
	c.session.start(c.Decider, sc.Answers, sc.Title, sc.Name)
	return nil
}

func (s *scenarioScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || len(s.c.Scenarios) == 0 {
		if ok && key.Matches(k, s.c.Keys.Back) {
			s.c.Pop()
		}
		return nil
	}
	c := s.c
	keys := c.Keys
	n := len(c.Scenarios)
	switch {
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Up):
		s.cursor = (s.cursor + n - 1) % n
	case key.Matches(k, keys.Down):
		s.cursor = (s.cursor + 1) % n
	case key.Matches(k, keys.Open):
		return s.confirmThen(func() tea.Cmd {
			s.load(c.Scenarios[s.cursor])
			// Over the list: back from the preset's questions, or from its
			// result while nothing was changed, comes to the list.
			f := newFormScreen(c)
			f.fromPreset = true
			c.Push(f)
			return nil
		})
	case key.Matches(k, keys.Result):
		return s.confirmThen(func() tea.Cmd {
			s.load(c.Scenarios[s.cursor])
			// Over the list, so back comes to it with this preset under
			// the cursor, to try the next one.
			c.Push(newResultScreen(c))
			return nil
		})
	}
	return nil
}

// confirmThen asks before a preset replaces answers that were not saved.
func (s *scenarioScreen) confirmThen(then func() tea.Cmd) tea.Cmd {
	c := s.c
	return replaceAnswers(c, "Load “"+c.Scenarios[s.cursor].Title+"”?", then)
}

func (s *scenarioScreen) View() string {
	c := s.c
	st := c.Styles
	if len(c.Scenarios) == 0 {
		return st.Muted.Render("No scenarios.")
	}
	var rows []string
	for i, sc := range c.Scenarios {
		if i == s.cursor {
			rows = append(rows, truncate(st.Selected.Render("› "+truncate(sc.Title, s.w-3)+" "), s.w))
		} else {
			rows = append(rows, truncate("  "+sc.Title, s.w))
		}
	}
	sc := c.Scenarios[s.cursor]
	var detail []string
	detail = append(detail, "")
	detail = append(detail, truncate(st.Muted.Render("Stack: ")+st.Pick.Render(s.stacks[s.cursor]), s.w))
	if sc.Line != "" {
		detail = append(detail, wrapStyled("Illustrates "+sc.Line, s.w, 0, 0, st.Muted)...)
	}
	story := wrap(sc.Story, s.w, 0, 0)
	detail = append(detail, story...)
	// The list gets what it needs first (up to all of it); the story fills
	// the rest and is cut if it must be.
	listH := min(len(rows), max(s.h-4, 3))
	visible, top := screen.Window(rows, listH, s.cursor, s.top)
	s.top = top
	out := append([]string{}, visible...)
	room := s.h - len(out)
	if len(detail) > room {
		detail = detail[:max(room, 0)]
		if room > 0 {
			detail[room-1] = cutMore(detail[room-1], s.w)
		}
	}
	return strings.Join(append(out, detail...), "\n")
}

func (s *scenarioScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	return screen.KeyHelp{
		Short: []key.Binding{screen.WithHelp(k.Open, "form"), screen.WithHelp(k.Result, "result"), screen.UpDown(), k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down}, {k.Open, k.Result, k.Back}},
	}
}
