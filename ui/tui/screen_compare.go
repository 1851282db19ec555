package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// compareScreen shows the products marked in the browser as a capability
// grid: one row per question, one column per product, every cell read from
// the knowledge base and footnoted (report.NewGrid words it; this screen
// only scrolls it). Too narrow for columns, it lists one record per product.
type compareScreen struct {
	c    *shared
	ps   []*knowledge.Product
	grid report.Grid
	vp   viewport.Model
	w, h int
}

func newCompareScreen(c *shared, ps ...*knowledge.Product) *compareScreen {
	return &compareScreen{c: c, ps: ps, grid: report.NewGrid(c.KB, ps...), vp: viewport.New()}
}

func (s *compareScreen) Title() string { return s.grid.Title }

func (s *compareScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(h)
	y := s.vp.YOffset()
	// One column short of the edge: the viewport never has to cut a line.
	s.vp.SetContent(strings.Join(report.GridLines(s.grid, s.c.Styles, max(w-1, 1)), "\n"))
	s.vp.SetYOffset(y)
}

func (s *compareScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, s.c.Keys.Swap) {
		// The first product moves to the end: with two, they swap.
		s.ps = append(s.ps[1:], s.ps[0])
		s.grid = report.NewGrid(s.c.KB, s.ps...)
		s.SetSize(s.w, s.h)
		return nil
	}
	return scrollKeys(s.c, &s.vp, k)
}

func (s *compareScreen) View() string { return s.vp.View() }

func (s *compareScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	swap := k.Swap
	if len(s.ps) > 2 {
		swap = screen.WithHelp(k.Swap, "rotate the columns")
	}
	return screen.KeyHelp{
		Short: []key.Binding{scroll, k.PageDown, swap, k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {swap, k.Back}},
	}
}
