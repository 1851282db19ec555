package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// productScreen is everything the knowledge base says about one product.
type productScreen struct {
	c    *shared
	p    *knowledge.Product
	vp   viewport.Model
	w, h int
}

func newProductScreen(c *shared, p *knowledge.Product) *productScreen {
	return &productScreen{c: c, p: p, vp: viewport.New()}
}

func (s *productScreen) Title() string { return "Knowledge · " + s.p.Name }

func (s *productScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(h)
	var out []string
	for i, sec := range productSections(s.c, s.p, w-1, true) {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, wrapStyled(sec.title, w, 0, 2, s.c.Styles.Heading)...)
		out = append(out, indentLines(sec.lines, 1)...)
	}
	y := s.vp.YOffset()
	s.vp.SetContent(strings.Join(out, "\n"))
	s.vp.SetYOffset(y)
}

func (s *productScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, changesKey) {
		s.c.Push(newChangesScreen(s.c, s.p.ID))
		return nil
	}
	return scrollKeys(s.c, &s.vp, k)
}

// scrollKeys handles the keys every scrolling page shares, back included.
func scrollKeys(c *shared, vp *viewport.Model, k tea.KeyPressMsg) tea.Cmd {
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Up):
		vp.ScrollUp(1)
	case key.Matches(k, keys.Down):
		vp.ScrollDown(1)
	case key.Matches(k, keys.PageUp):
		vp.PageUp()
	case key.Matches(k, keys.PageDown):
		vp.PageDown()
	case key.Matches(k, keys.Top):
		vp.GotoTop()
	case key.Matches(k, keys.Bottom):
		vp.GotoBottom()
	}
	return nil
}

func (s *productScreen) View() string { return s.vp.View() }

func (s *productScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{scroll, k.PageDown, changesKey, k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {changesKey, k.Back}},
	}
}

func indentLines(ls []string, n int) []string {
	pad := strings.Repeat(" ", n)
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = pad + l
	}
	return out
}
