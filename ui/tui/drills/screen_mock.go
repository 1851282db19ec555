package drills

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// mockScreen is the mock exit test: the four drills in a row on one seed,
// no grading in between, then pass or fail against the seed's bar with the
// weakest items named. Each part's grading opens from the summary.
type mockScreen struct {
	c    *shared
	seed uint64
	part int           // the part running, 0-3; 4 once all are done
	cur  screen.Screen // the part on screen

	tax *taxonomyScreen
	sc  *scenarioScreen
	fl  *flagsScreen
	ex  *explainScreen

	graded bool
	result drill.MockResult
	saved  string
	page   pager
	w, h   int
}

var mockParts = []string{drill.Taxonomy, drill.Scenario, drill.Flags, drill.Explain}

func newMockScreen(c *shared) *mockScreen {
	m := &mockScreen{c: c, seed: c.drills.nextSeed()}
	m.tax = newTaxonomyScreen(c, m)
	m.cur = m.tax
	return m
}

// partDone moves on when a part has been answered: the next part, or the
// verdict after the last.
func (m *mockScreen) partDone() tea.Cmd {
	c := m.c
	m.part++
	switch m.part {
	case 1:
		m.sc = newScenarioScreen(c, m)
		m.cur = m.sc
	case 2:
		m.fl = newFlagsScreen(c, m)
		m.cur = m.fl
	case 3:
		m.ex = newExplainScreen(c, m)
		m.cur = m.ex
	default:
		m.result = c.drills.content.GradeMock(m.tax.result, m.sc.result, m.fl.result, m.ex.result)
		m.graded = true
		var cmd tea.Cmd
		m.saved, cmd = c.drills.record(m, store.MockRecord(m.seed, m.result))
		m.layoutResult()
		return cmd
	}
	c.Status = fmt.Sprintf("%s done. Part %d of %d: %s.", partTitle(mockParts[m.part-1]), m.part+1, len(mockParts), mockParts[m.part])
	m.cur.SetSize(m.w, m.h)
	return screen.Begin(m.cur)
}

func partTitle(name string) string { return strings.ToUpper(name[:1]) + name[1:] }

func (m *mockScreen) Begin() tea.Cmd {
	if m.graded {
		return nil
	}
	return screen.Begin(m.cur)
}

func (m *mockScreen) TakesQuestionMark() bool { return !m.graded && screen.TakesQuestionMark(m.cur) }

func (m *mockScreen) Title() string {
	if m.graded {
		return "Mock exit test · " + m.result.Verdict()
	}
	return fmt.Sprintf("Mock %d/%d · %s", m.part+1, len(mockParts), m.cur.Title())
}

func (m *mockScreen) SetSize(w, h int) {
	m.w, m.h = w, h
	if m.graded {
		m.layoutResult()
		return
	}
	m.cur.SetSize(w, h)
}

// partScreen is part i, to open its grading from the summary.
func (m *mockScreen) partScreen(i int) screen.Screen {
	switch i {
	case 0:
		m.tax.graded, m.tax.readOnly = true, true
		return m.tax
	case 1:
		m.sc.graded, m.sc.readOnly = true, true
		return m.sc
	case 2:
		m.fl.graded, m.fl.readOnly = true, true
		return m.fl
	case 3:
		m.ex.graded, m.ex.readOnly = true, true
		return m.ex
	}
	return nil
}

func (m *mockScreen) Update(msg tea.Msg) tea.Cmd {
	if hk, ok := msg.(historyKept); ok {
		m.saved = hk.text
		m.layoutResult()
		return nil
	}
	if !m.graded {
		return m.cur.Update(msg)
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	c := m.c
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Again):
		n := newMockScreen(c)
		c.Replace(n)
		return screen.Begin(n)
	default:
		if s := k.String(); len(s) == 1 && s[0] >= '1' && s[0] <= '4' {
			c.Push(m.partScreen(int(s[0] - '1')))
			return nil
		}
		m.page.update(k, keys)
	}
	return nil
}

func (m *mockScreen) layoutResult() {
	c := m.c
	st := c.Styles
	w := m.w
	var lines []string
	if m.saved != "" {
		style := st.Muted
		if strings.HasPrefix(m.saved, "Not recorded") {
			style = st.Warn
		}
		lines = append(lines, report.WrapStyled(m.saved, w, 1, 2, style)...)
	}
	if n := c.drills.notice; n != "" {
		lines = append(lines, report.WrapStyled("⚠ "+n, w, 1, 2, st.Warn)...)
	}
	lines = append(lines, "")
	for i, p := range m.result.Parts {
		mark := st.Good.Render("✓")
		if !p.Pass {
			mark = st.Bad.Render("✗")
		}
		line := fmt.Sprintf(" %s %s %-9s %4.0f%%  ", mark, st.Key.Render(fmt.Sprint(i+1)), partTitle(p.Drill), 100*p.Ratio)
		detail := fmt.Sprintf("bar %.0f%% · %s", 100*p.Bar, p.Score.Text())
		if p.Drill == drill.Scenario {
			detail = fmt.Sprintf("bar %.0f%% (layers right) · %s", 100*p.Bar, p.Score.Text())
		}
		line += st.Muted.Render(detail)
		lines = append(lines, report.Truncate(line, w))
	}
	if len(m.result.Weakest) > 0 {
		lines = append(lines, "", " "+st.Heading.Render("Weakest items"))
		for _, id := range m.result.Weakest[:min(10, len(m.result.Weakest))] {
			lines = append(lines, report.Wrap(itemName(c, id), w, 3, 2)...)
		}
		if n := len(m.result.Weakest) - 10; n > 0 {
			lines = append(lines, "   "+st.Muted.Render(fmt.Sprintf("and %d more", n)))
		}
	}
	lines = append(lines, "")
	lines = append(lines, report.WrapStyled("1-4 opens a part's grading; what you missed comes first next time.", w, 1, 0, st.Muted)...)
	m.page.set(lines, m.h-1)
}

func (m *mockScreen) View() string {
	if !m.graded {
		return m.cur.View()
	}
	st := m.c.Styles
	verdict := st.Good.Bold(true).Render(m.result.Verdict())
	if !m.result.Pass {
		verdict = st.Bad.Bold(true).Render(m.result.Verdict())
	}
	head := " " + st.Heading.Render("Mock exit test: ") + verdict
	return withMore(st, head, m.page.more(), m.w) + "\n" + m.page.view()
}

func (m *mockScreen) Help() screen.KeyHelp {
	if !m.graded {
		return m.cur.Help()
	}
	k := m.c.Keys
	parts := key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "a part's grading"))
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{parts, k.Again, scroll, k.Back},
		Full:  [][]key.Binding{{parts, k.Again}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Back}},
	}
}
