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

// statsScreen is the progress of the drills: per drill the attempts,
// the last and best score and the scores over time, then the items missed
// most often (the ones the next drills ask first).
type statsScreen struct {
	c    *shared
	page pager
	w, h int
}

func newStatsScreen(c *shared) *statsScreen { return &statsScreen{c: c} }

func (s *statsScreen) Title() string { return "Drills · progress" }

func (s *statsScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.page.set(s.lines(), h)
}

// sparkline draws ratios (0-1) as block heights, oldest first.
func sparkline(ratios []float64) string {
	blocks := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, r := range ratios {
		i := int(r*float64(len(blocks)-1) + 0.5)
		b.WriteRune(blocks[max(0, min(i, len(blocks)-1))])
	}
	return b.String()
}

func (s *statsScreen) lines() []string {
	c := s.c
	st := c.Styles
	w := s.w
	d := c.drills
	sum := store.Summarize(d.records)
	var out []string
	if n := d.notice; n != "" {
		out = append(out, report.WrapStyled("⚠ "+n, w, 1, 2, st.Warn)...)
	}
	if p := d.problem; p != "" {
		out = append(out, report.WrapStyled("⚠ Drill history: "+p, w, 1, 2, st.Warn)...)
	}
	if len(sum.Drills) == 0 {
		out = append(out, report.WrapStyled("No drills finished yet. Start with the taxonomy: esc, then t.", w, 1, 0, st.Muted)...)
		return out
	}
	out = append(out, " "+st.Heading.Render("Progress per drill"))
	for _, ds := range sum.Drills {
		line := drill.Progress(ds.Drill, ds.Attempts, ds.Last, ds.Best, ds.Passes)
		if i := strings.Index(line, "  last"); screen.VisibleWidth(line)+3 > w && i > 0 {
			// Too narrow for one line: the scores go on a line of their
			// own, so none is cut.
			out = append(out, report.Truncate("   "+strings.TrimSpace(line[:i]), w), report.Truncate("     "+strings.TrimSpace(line[i:]), w))
			continue
		}
		room := max(w-screen.VisibleWidth(line)-6, 0)
		recent := ds.Ratios[max(0, len(ds.Ratios)-min(room, 20)):]
		line = "   " + line + "  " + st.Pick.Render(sparkline(recent))
		// The last few scores in numbers, as far as they fit.
		if t := "  " + drill.Trend(ds.Ratios, 5); len(ds.Ratios) > 1 && screen.VisibleWidth(line)+len(t) <= w {
			line += st.Muted.Render(t)
		}
		out = append(out, report.Truncate(line, w))
	}
	if len(sum.MostMissed) > 0 {
		out = append(out, "", " "+st.Heading.Render("Most missed")+st.Muted.Render(" (asked first next time)"))
		for _, m := range sum.MostMissed {
			out = append(out, report.Wrap(fmt.Sprintf("%2d× %s", m.Count, itemName(c, m.Item)), w, 3, 4)...)
		}
	}
	if d.path != "" && s.h >= 16 {
		out = append(out, "")
		out = append(out, report.WrapStyled("From "+d.path, w, 1, 0, st.Muted)...)
	}
	return out
}

func (s *statsScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, s.c.Keys.Back) {
		s.c.Pop()
		return nil
	}
	s.page.update(k, s.c.Keys)
	return nil
}

func (s *statsScreen) View() string { return s.page.view() }

func (s *statsScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{scroll, k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Back}},
	}
}
