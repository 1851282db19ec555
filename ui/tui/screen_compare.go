package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// compareMin is the width from which two products sit side by side; below
// it each section lists one product, then the other.
const compareMin = 70

// compareScreen puts two products next to each other, section by section,
// so "when to pick" faces "when to pick".
type compareScreen struct {
	c    *shared
	a, b *knowledge.Product
	vp   viewport.Model
	w, h int
}

func newCompareScreen(c *shared, a, b *knowledge.Product) *compareScreen {
	return &compareScreen{c: c, a: a, b: b, vp: viewport.New()}
}

func (s *compareScreen) Title() string { return s.a.Name + " vs " + s.b.Name }

func (s *compareScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(h)
	y := s.vp.YOffset()
	s.vp.SetContent(s.render())
	s.vp.SetYOffset(y)
}

func (s *compareScreen) render() string {
	st := s.c.Styles
	var out []string
	if s.w >= compareMin {
		colW := (s.w - 3) / 2
		sa := productSections(s.c, s.a, colW, s.a.Layer != s.b.Layer)
		sb := productSections(s.c, s.b, colW, s.a.Layer != s.b.Layer)
		sep := st.Border.Render(" │ ")
		out = append(out, padRight(st.Pick.Render(truncate(s.a.Name, colW)), colW)+sep+st.Pick.Render(truncate(s.b.Name, colW)))
		if s.a.Layer == s.b.Layer {
			both := st.Muted.Render(truncate(s.c.KB.Layer(s.a.Layer).Name, colW))
			out = append(out, padRight(both, colW)+sep+both)
		}
		for _, title := range sectionTitles(sa, sb) {
			la, lb := sectionLines(sa, title), sectionLines(sb, title)
			out = append(out, padRight("", colW)+sep)
			out = append(out, padRight(st.Heading.Render(title), colW)+sep+st.Heading.Render(title))
			for i := range max(len(la), len(lb)) {
				l, r := "", ""
				if i < len(la) {
					l = la[i]
				}
				if i < len(lb) {
					r = lb[i]
				}
				out = append(out, padRight(l, colW)+sep+r)
			}
		}
		return strings.Join(out, "\n")
	}
	w := s.w - 1
	sa := productSections(s.c, s.a, w-2, s.a.Layer != s.b.Layer)
	sb := productSections(s.c, s.b, w-2, s.a.Layer != s.b.Layer)
	for i, title := range sectionTitles(sa, sb) {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, st.Heading.Render(truncate(title, w)))
		for _, p := range []struct {
			prod  *knowledge.Product
			lines []string
		}{{s.a, sectionLines(sa, title)}, {s.b, sectionLines(sb, title)}} {
			out = append(out, " "+st.Pick.Render(truncate(p.prod.Name, w-1)))
			out = append(out, indentLines(p.lines, 2)...)
		}
	}
	return strings.Join(out, "\n")
}

// sectionTitles is every section either product has, in page order.
func sectionTitles(a, b []section) []string {
	var out []string
	for _, list := range [][]section{a, b} {
		for _, s := range list {
			found := false
			for _, t := range out {
				if t == s.title {
					found = true
				}
			}
			if !found {
				out = append(out, s.title)
			}
		}
	}
	return out
}

func sectionLines(secs []section, title string) []string {
	for _, s := range secs {
		if s.title == title {
			return s.lines
		}
	}
	return []string{"(none recorded)"}
}

func (s *compareScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, s.c.Keys.Swap) {
		s.a, s.b = s.b, s.a
		s.SetSize(s.w, s.h)
		return nil
	}
	return scrollKeys(s.c, &s.vp, k)
}

func (s *compareScreen) View() string { return s.vp.View() }

func (s *compareScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{scroll, k.PageDown, k.Swap, k.Back},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Swap, k.Back}},
	}
}
