package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// changesScreen is "What changed since the course notes": per product, the
// course notes' claims the knowledge base corrects and the run-book flags
// they name that are gone, each with its source. ← and → move between
// every product and one product at a time.
type changesScreen struct {
	c *shared
	// products are the ids with a change, in knowledge-base order; product
	// is the one shown, "" for all of them.
	products []string
	product  string
	// stack is the products a decision places, shown together as the
	// page stackView; empty when the page was not opened from a result.
	stack []string
	vp    viewport.Model
	w, h  int
	// pages holds each product's page laid out for width w, so stepping
	// back and forth does not word-wrap it again.
	pages map[string]string
}

// newChangesScreen opens the page on product ("" for every product); the
// result screen opens it on the picked engine.
func newChangesScreen(c *shared, product string) screen.Screen {
	s := &changesScreen{c: c, vp: viewport.New()}
	all, _ := report.CourseNoteChanges(c.KB, "")
	for _, pc := range all {
		s.products = append(s.products, pc.Product)
	}
	if c.KB.Product(product) != nil {
		s.product = product
	}
	return s
}

// stackView is the product key of the page that shows the stack's
// products together (no product id has a space).
const stackView = "this stack"

// newStackChangesScreen opens the page on the products a decision places,
// together; ←/→ go on to one product at a time and to every product.
func newStackChangesScreen(c *shared, products []string) screen.Screen {
	s := newChangesScreen(c, "").(*changesScreen)
	if len(products) > 0 {
		s.stack, s.product = products, stackView
	}
	return s
}

func (s *changesScreen) Title() string {
	if s.product == "" {
		return report.CourseNotesTitle
	}
	if s.product == stackView {
		return report.CourseNotesTitle + " · this stack"
	}
	return report.CourseNotesTitle + " · " + s.c.KB.ProductName(s.product)
}

func (s *changesScreen) SetSize(w, h int) {
	if w != s.w {
		s.pages = nil
	}
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(h)
	s.layout()
}

// layout words the page for the width and the product shown: on size or
// product change only, not on every View.
func (s *changesScreen) layout() {
	if page, ok := s.pages[s.product]; ok {
		s.vp.SetContent(page)
		s.vp.GotoTop()
		return
	}
	st := s.c.Styles
	w := max(s.w-1, 10)
	var changes []report.ProductChanges
	if s.product == stackView {
		for _, id := range s.stack {
			pc, _ := report.CourseNoteChanges(s.c.KB, id)
			changes = append(changes, pc...)
		}
	} else {
		changes, _ = report.CourseNoteChanges(s.c.KB, s.product)
	}
	out := report.WrapStyled(report.CourseNotesAbout, w, 0, 0, st.Muted)
	out = append(out, report.WrapStyled(s.showing(), w, 0, 0, st.Muted)...)
	out = append(out, "")
	out = append(out, report.CourseNoteLines(changes, st, w)...)
	if s.pages == nil {
		s.pages = map[string]string{}
	}
	s.pages[s.product] = strings.Join(out, "\n")
	s.vp.SetContent(s.pages[s.product])
	s.vp.GotoTop()
}

// showing says which products the page holds and how to see the others.
func (s *changesScreen) showing() string {
	if s.product == "" {
		return "Every product; ←/→ shows one at a time."
	}
	if s.product == stackView {
		names := make([]string, len(s.stack))
		for i, id := range s.stack {
			names[i] = s.c.KB.ProductName(id)
		}
		return "The stack's products: " + strings.Join(names, ", ") + "; ←/→ shows one product at a time, then every product."
	}
	return "Only " + s.c.KB.ProductName(s.product) + "; ←/→ for the next product, all of them after the last."
}

func (s *changesScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := s.c.Keys
	switch {
	case key.Matches(k, keys.Right):
		s.step(1)
		return nil
	case key.Matches(k, keys.Left):
		s.step(-1)
		return nil
	}
	return scrollKeys(s.c, &s.vp, k)
}

// step moves to the next (d = 1) or previous product with a change, the
// whole list sitting between the last and the first.
func (s *changesScreen) step(d int) {
	ring := append([]string{""}, s.products...)
	if len(s.stack) > 0 {
		ring = append([]string{stackView}, ring...)
	}
	if s.product != "" && !slices.Contains(ring, s.product) {
		ring = append(ring, s.product)
	}
	i := slices.Index(ring, s.product)
	s.product = ring[(i+d+len(ring))%len(ring)]
	s.layout()
}

func (s *changesScreen) View() string { return s.vp.View() }

func (s *changesScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	product := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "product"))
	return screen.KeyHelp{
		Short: []key.Binding{scroll, product, k.PageDown, k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Left, k.Right, k.Back}},
	}
}
