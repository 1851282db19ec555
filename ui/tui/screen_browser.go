package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// browserScreen draws the three layers as a stack, the orchestrator on top
// and the engine next to the accelerators, with every product placed in its
// layer. A filter narrows the products as you type; c marks one product and
// compares it with the next.
type browserScreen struct {
	c      *shared
	filter textinput.Model
	sel    string // selected product id
	mark   string // product marked for comparison
	w, h   int
}

func newBrowserScreen(c *shared) *browserScreen {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "type to filter (name, role, strengths)"
	st := textinput.DefaultStyles(c.Styles.Dark)
	st.Cursor.Blink = false
	ti.SetStyles(st)
	s := &browserScreen{c: c, filter: ti}
	if layers := s.layers(); len(layers) > 0 {
		if ps := s.visible(layers[0]); len(ps) > 0 {
			s.sel = ps[0].ID
		}
	}
	return s
}

func (s *browserScreen) Title() string { return "Knowledge" }

func (s *browserScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.filter.SetWidth(max(w-16, 4))
}

// layers in stack order: fleet-level first, engine last.
func (s *browserScreen) layers() []*knowledge.Layer {
	ls := slices.Clone(s.c.KB.Layers)
	slices.Reverse(ls)
	return ls
}

// matches reports whether p matches the filter text.
func matches(kb *knowledge.KB, p *knowledge.Product, q string) bool {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return true
	}
	hay := []string{p.ID, p.Name, p.Role, kb.Layer(p.Layer).Name}
	hay = append(hay, p.Strengths...)
	hay = append(hay, p.PickWhen...)
	hay = append(hay, p.KeyPoints...)
	for _, h := range hay {
		if strings.Contains(strings.ToLower(h), q) {
			return true
		}
	}
	return false
}

func (s *browserScreen) visible(l *knowledge.Layer) []*knowledge.Product {
	var out []*knowledge.Product
	for _, p := range s.c.KB.ProductsOn(l.ID) {
		if matches(s.c.KB, p, s.filter.Value()) {
			out = append(out, p)
		}
	}
	return out
}

// order is every visible product, top of the stack first.
func (s *browserScreen) order() []*knowledge.Product {
	var out []*knowledge.Product
	for _, l := range s.layers() {
		out = append(out, s.visible(l)...)
	}
	return out
}

// keepSelection moves the cursor to a visible product when the filter hid
// the selected one.
func (s *browserScreen) keepSelection() {
	o := s.order()
	if slices.ContainsFunc(o, func(p *knowledge.Product) bool { return p.ID == s.sel }) {
		return
	}
	if len(o) > 0 {
		s.sel = o[0].ID
	} else {
		s.sel = ""
	}
}

// moveLayer moves the cursor to the layer d steps down (up for d < 0),
// keeping roughly the same position in the row.
func (s *browserScreen) moveLayer(d int) {
	layers := s.layers()
	cur := s.c.KB.Product(s.sel)
	if cur == nil {
		return
	}
	li := slices.IndexFunc(layers, func(l *knowledge.Layer) bool { return l.ID == cur.Layer })
	pos := slices.IndexFunc(s.visible(layers[li]), func(p *knowledge.Product) bool { return p.ID == s.sel })
	for i := li + d; i >= 0 && i < len(layers); i += d {
		if ps := s.visible(layers[i]); len(ps) > 0 {
			s.sel = ps[min(pos, len(ps)-1)].ID
			return
		}
	}
}

func (s *browserScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	keys := c.Keys
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if s.filter.Focused() {
		switch k.String() {
		case "esc":
			s.filter.SetValue("")
			s.filter.Blur()
		case "enter", "down", "up", "tab":
			s.filter.Blur()
		default:
			var cmd tea.Cmd
			s.filter, cmd = s.filter.Update(msg)
			s.keepSelection()
			return cmd
		}
		s.keepSelection()
		return nil
	}
	o := s.order()
	i := slices.IndexFunc(o, func(p *knowledge.Product) bool { return p.ID == s.sel })
	switch {
	case k.String() == "esc" && s.filter.Value() != "":
		s.filter.SetValue("")
		s.keepSelection()
	case k.String() == "esc" && s.mark != "":
		s.mark = ""
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Filter):
		return s.filter.Focus()
	case len(o) == 0:
	case key.Matches(k, keys.Right), k.String() == "tab":
		s.sel = o[(i+1)%len(o)].ID
	case key.Matches(k, keys.Left), k.String() == "shift+tab":
		s.sel = o[(i+len(o)-1)%len(o)].ID
	case key.Matches(k, keys.Up):
		s.moveLayer(-1)
	case key.Matches(k, keys.Down):
		s.moveLayer(1)
	case key.Matches(k, keys.Enter):
		c.Push(newProductScreen(c, c.KB.Product(s.sel)))
	case key.Matches(k, keys.Compare):
		switch s.mark {
		case "":
			s.mark = s.sel
		case s.sel:
			s.mark = ""
		default:
			a, b := c.KB.Product(s.mark), c.KB.Product(s.sel)
			s.mark = ""
			c.Push(newCompareScreen(c, a, b))
		}
	}
	return nil
}

// chipRows lays products out as chips in rows no wider than w.
func (s *browserScreen) chipRows(ps []*knowledge.Product, w int) []string {
	st := s.c.Styles
	var rows []string
	cur, curW := "", 0
	for _, p := range ps {
		name := truncate(p.Name, max(w-2, 1))
		var chip string
		switch {
		case p.ID == s.sel:
			chip = st.Selected.Render("›" + name + " ")
		case p.ID == s.mark:
			chip = st.Marked.Render("◆" + name + " ")
		default:
			chip = " " + st.Text.Render(name) + " "
		}
		cw := screen.VisibleWidth(name) + 2
		if curW > 0 && curW+1+cw > w {
			rows = append(rows, cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += " "
			curW++
		}
		cur += chip
		curW += cw
	}
	if cur != "" || len(rows) == 0 {
		if len(ps) == 0 {
			cur = st.Muted.Render("(no match)")
		}
		rows = append(rows, cur)
	}
	return rows
}

// stack draws the layers in one of three densities, the richest that fits
// in h lines: boxes with the layer's purpose, boxes alone, or plain
// headings.
func (s *browserScreen) stack(h int) []string {
	st := s.c.Styles
	for _, mode := range []int{2, 1, 0} {
		var out []string
		for _, l := range s.layers() {
			ps := s.visible(l)
			if mode == 0 {
				out = append(out, st.Layer.Render(truncate(strings.ToUpper(l.Name), s.w)))
				for _, r := range s.chipRows(ps, s.w-1) {
					out = append(out, " "+r)
				}
				continue
			}
			var body []string
			if mode == 2 {
				body = append(body, st.Muted.Render(truncate(l.What, s.w-4)))
			}
			body = append(body, s.chipRows(ps, s.w-4)...)
			out = append(out, screen.Box(st, st.Layer.Render(strings.ToUpper(l.Name)), body, s.w, 0)...)
		}
		if len(out) <= h || mode == 0 {
			if mode == 2 && len(out) < h {
				out = append(out, s.accelerators())
			}
			return out
		}
	}
	return nil
}

// accelerators is the floor the stack stands on: the GPU catalog.
func (s *browserScreen) accelerators() string {
	st := s.c.Styles
	var ids []string
	for _, g := range s.c.KB.GPUs {
		ids = append(ids, g.ID)
	}
	return truncate(st.Muted.Render("▔ accelerators: "+strings.Join(ids, " · ")), s.w)
}

func (s *browserScreen) View() string {
	c := s.c
	st := c.Styles
	var out []string
	switch {
	case s.filter.Focused() || s.filter.Value() != "":
		n := len(s.order())
		count := st.Muted.Render(fmt.Sprintf("  %d of %d", n, len(c.KB.Products)))
		out = append(out, truncate(s.filter.View(), s.w-screen.VisibleWidth(count))+count)
	case s.mark != "":
		out = append(out, truncate(st.Marked.Render("◆ "+c.KB.ProductName(s.mark))+st.Muted.Render(": move to another product, c compares (esc: cancel)"), s.w))
	default:
		out = append(out, truncate(st.Muted.Render("/ filter · enter details · c compare two"), s.w))
	}
	// Leave at least two lines for the selected product's summary when
	// there is room for it.
	detailMin := 0
	if s.h >= 14 {
		detailMin = 3
	}
	out = append(out, s.stack(s.h-1-detailMin)...)
	if p := c.KB.Product(s.sel); p != nil {
		room := s.h - len(out)
		if room > 1 {
			var d []string
			if room > 2 {
				d = append(d, "")
			}
			d = append(d, truncate(st.Pick.Render(p.Name)+st.Muted.Render(" · "+c.KB.Layer(p.Layer).Name), s.w))
			d = append(d, wrap(p.Role, s.w, 0, 0)...)
			if len(d)+2 < room {
				d = append(d, "", st.Heading.Render("Pick it when"))
				for _, pw := range p.PickWhen {
					d = append(d, wrap("+ "+pw, s.w, 0, 2)...)
				}
			}
			if len(d) > room {
				d = d[:room]
				d[room-1] = cutMore(d[room-1], s.w)
			}
			out = append(out, d...)
		}
	}
	return strings.Join(out, "\n")
}

func (s *browserScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	move := key.NewBinding(key.WithKeys("left", "right", "up", "down"), key.WithHelp("←↑↓→", "move"))
	details := screen.WithHelp(k.Enter, "details")
	compare := screen.WithHelp(k.Compare, "mark, then compare with another")
	return screen.KeyHelp{
		Short: []key.Binding{details, k.Compare, k.Filter, move, k.Back},
		Full: [][]key.Binding{
			{k.Left, k.Right, k.Up, k.Down},
			{details, compare, k.Filter, k.ClearFilter, k.Back},
		},
	}
}
