package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// browserScreen draws the three layers as a stack, the orchestrator on top
// and the engine next to the accelerators, with every product placed in its
// layer. A filter narrows the products as you type; c marks products to
// compare: two marked, enter (or c again on a marked one) compares them, and
// c on a third compares all three.
type browserScreen struct {
	c      *shared
	filter textinput.Model
	sel    string   // selected product id
	marks  []string // products marked for comparison, at most two
	w, h   int
	// found is matchesOf for every product, for the filter text foundFor.
	found    map[string][]match
	foundFor string
}

func newBrowserScreen(c *shared) *browserScreen {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "type to filter (name, layer, role, flags, any text)"
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

// match is where the filter text was found in a product: the field, by
// the name the product page gives it, and the item that holds it.
type match struct {
	field, text string
}

// matchesOf lists where q occurs in p, one entry per field, in the order
// the product page shows them (name first); nil when q is empty or absent.
func matchesOf(kb *knowledge.KB, p *knowledge.Product, q string) []match {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var out []match
	find := func(field string, items ...string) {
		for _, it := range items {
			if strings.Contains(strings.ToLower(it), q) {
				out = append(out, match{field, it})
				return
			}
		}
	}
	find("name", p.Name, p.ID)
	find("layer", kb.Layer(p.Layer).Name)
	find("role", p.Role)
	find("pick it when", p.PickWhen...)
	find("avoid it when", p.AvoidWhen...)
	find("strength", p.Strengths...)
	find("key point", p.KeyPoints...)
	var mines, flags, notes []string
	for _, m := range p.Landmines {
		mines = append(mines, m.Text)
	}
	find("landmine", mines...)
	for _, f := range kb.FlagsOf(p.ID) {
		flags = append(flags, append([]string{f.Name}, f.Aliases...)...)
	}
	find("flag", flags...)
	for _, n := range p.SeedNotes {
		notes = append(notes, n.Claim, n.Current)
	}
	find("course-notes correction", notes...)
	return out
}

// matchesFor is where the filter text occurs in p, worked out once per
// filter text for every product (a key press redraws the stack several
// times over).
func (s *browserScreen) matchesFor(p *knowledge.Product) []match {
	q := s.filter.Value()
	if s.found == nil || s.foundFor != q {
		s.found, s.foundFor = map[string][]match{}, q
		for _, p := range s.c.KB.Products {
			s.found[p.ID] = matchesOf(s.c.KB, p, q)
		}
	}
	return s.found[p.ID]
}

// matches reports whether p matches the filter text.
func (s *browserScreen) matches(p *knowledge.Product) bool {
	return strings.TrimSpace(s.filter.Value()) == "" || len(s.matchesFor(p)) > 0
}

// matchedFields names the fields the filter matched across the visible
// products, for the filter line: "in name, flag".
func (s *browserScreen) matchedFields() []string {
	var out []string
	for _, p := range s.order() {
		for _, m := range s.matchesFor(p) {
			if !slices.Contains(out, m.field) {
				out = append(out, m.field)
			}
		}
	}
	return out
}

func (s *browserScreen) visible(l *knowledge.Layer) []*knowledge.Product {
	var out []*knowledge.Product
	for _, p := range s.c.KB.ProductsOn(l.ID) {
		if s.matches(p) {
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
	case k.String() == "esc" && len(s.marks) > 0:
		s.marks = nil
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Filter):
		return s.filter.Focus()
	case key.Matches(k, changesKey):
		c.Push(newChangesScreen(c, ""))
	case len(o) == 0:
	case key.Matches(k, keys.Right), k.String() == "tab":
		s.sel = o[(i+1)%len(o)].ID
	case key.Matches(k, keys.Left), k.String() == "shift+tab":
		s.sel = o[(i+len(o)-1)%len(o)].ID
	case key.Matches(k, keys.Up):
		s.moveLayer(-1)
	case key.Matches(k, keys.Down):
		s.moveLayer(1)
	case key.Matches(k, keys.Enter) && len(s.marks) == 2:
		s.compare(s.marks...)
	case key.Matches(k, keys.Enter):
		c.Push(newProductScreen(c, c.KB.Product(s.sel)))
	case key.Matches(k, keys.Compare):
		marked := slices.Contains(s.marks, s.sel)
		switch {
		case len(s.marks) == 2 && marked:
			s.compare(s.marks...)
		case len(s.marks) == 2:
			s.compare(append(s.marks, s.sel)...)
		case marked:
			s.marks = nil
		default:
			s.marks = append(s.marks, s.sel)
		}
	}
	return nil
}

// compare opens the grid of the products ids, and clears the marks.
func (s *browserScreen) compare(ids ...string) {
	ps := make([]*knowledge.Product, len(ids))
	for i, id := range ids {
		ps[i] = s.c.KB.Product(id)
	}
	s.marks = nil
	s.c.Push(newCompareScreen(s.c, ps...))
}

// markLine is the line that says what is marked and what the keys do next.
func (s *browserScreen) markLine() string {
	st, kb := s.c.Styles, s.c.KB
	names := make([]string, len(s.marks))
	for i, id := range s.marks {
		names[i] = kb.ProductName(id)
	}
	if len(s.marks) == 1 {
		return st.Marked.Render("◆ "+names[0]) + st.Muted.Render(": move to another, c marks it (esc: cancel)")
	}
	return st.Marked.Render("◆ "+strings.Join(names, " · ")) + st.Muted.Render(": enter compares the two, c on a third compares three (esc: cancel)")
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
		case slices.Contains(s.marks, p.ID):
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
// in h lines: boxes with the layer's purpose (wrapped, never cut), boxes
// alone, or plain headings. The accelerator floor comes when it fits too.
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
				body = append(body, wrapStyled(l.What, s.w-4, 0, 0, st.Muted)...)
			}
			body = append(body, s.chipRows(ps, s.w-4)...)
			out = append(out, screen.Box(st, st.Layer.Render(strings.ToUpper(l.Name)), body, s.w, 0)...)
		}
		if len(out) <= h || mode == 0 {
			if floor := s.accelerators(); mode == 2 && len(out)+len(floor) <= h {
				out = append(out, floor...)
			}
			return out
		}
	}
	return nil
}

// accelerators is the floor the stack stands on: the GPU catalog, wrapped.
func (s *browserScreen) accelerators() []string {
	var ids []string
	for _, g := range s.c.KB.GPUs {
		ids = append(ids, g.ID)
	}
	return wrapStyled("▔ accelerators: "+strings.Join(ids, " · "), s.w, 0, 2, s.c.Styles.Muted)
}

func (s *browserScreen) View() string {
	c := s.c
	st := c.Styles
	var out []string
	switch {
	case s.filter.Focused() || s.filter.Value() != "":
		n := len(s.order())
		info := fmt.Sprintf("  %d of %d", n, len(c.KB.Products))
		q := strings.TrimSpace(s.filter.Value())
		if fields := s.matchedFields(); len(fields) > 0 {
			where := " · in " + strings.Join(fields, ", ")
			if screen.VisibleWidth(info+where) > s.w-len(q)-4 {
				where = fmt.Sprintf(" · in %d fields (the preview names them)", len(fields))
				if len(fields) == 1 {
					where = " · in 1 field"
				}
			}
			if screen.VisibleWidth(info+where) <= s.w-len(q)-4 {
				info += where
			}
		}
		// The count and where it matched are what the line is for: the
		// filter box gives way to them.
		infoW := min(screen.VisibleWidth(info), max(s.w-len(q)-4, 0))
		count := st.Muted.Render(ansi.Truncate(info, infoW, ""))
		box := ansi.Truncate(s.filter.View(), max(s.w-infoW, 0), "")
		out = append(out, padRight(box, s.w-infoW)+count)
	case len(s.marks) > 0:
		out = append(out, truncate(s.markLine(), s.w))
	default:
		out = append(out, st.Muted.Render(fitParts(s.w, "/ filter", "enter details", "c compare 2–3", "w "+strings.ToLower(report.CourseNotesTitle))))
	}
	// Leave room for the selected product's name and role when there is
	// room for them: the layers' purposes and the accelerators give way
	// first.
	detailMin := 0
	if p := c.KB.Product(s.sel); p != nil && s.h >= 14 {
		detailMin = 3 + len(wrap(p.Role, s.w, 0, 0))
	}
	out = append(out, s.stack(s.h-1-detailMin)...)
	if p := c.KB.Product(s.sel); p != nil {
		if room := s.h - len(out); room > 1 {
			out = append(out, s.preview(p, room)...)
		}
	}
	return strings.Join(out, "\n")
}

// preview is the selected product in at most room lines: its name, where
// the filter matched, its role and when to pick it. Every block is shown
// whole or left out (with a line saying enter shows it), never cut off
// mid-sentence.
func (s *browserScreen) preview(p *knowledge.Product, room int) []string {
	c := s.c
	st := c.Styles
	var d []string
	if room > 2 {
		d = append(d, "")
	}
	d = append(d, truncate(st.Pick.Render(p.Name)+st.Muted.Render(" · "+c.KB.Layer(p.Layer).Name), s.w))
	// fits adds block when it leaves a line for the note that something
	// was left out.
	left := false
	fits := func(block []string) bool {
		if len(d)+len(block)+1 <= room {
			d = append(d, block...)
			return true
		}
		left = true
		return false
	}
	if ms := s.matchesFor(p); len(ms) > 0 {
		fields := make([]string, len(ms))
		for i, m := range ms {
			fields[i] = m.field
		}
		line := wrapStyled(fmt.Sprintf("matches %q in: %s", strings.TrimSpace(s.filter.Value()), strings.Join(fields, ", ")), s.w, 0, 2, st.Key)
		if !fits(line) {
			d = append(d, truncate(st.Key.Render("matches in "+fields[0]), s.w))
		} else if m := ms[0]; m.field != "name" && m.field != "layer" && m.field != "role" {
			// The role is shown below anyway; name and layer are in the
			// line above.
			fits(wrap(m.field+": "+m.text, s.w, 2, 4))
		}
	}
	fits(wrap(p.Role, s.w, 0, 0))
	if !left {
		pick := []string{"", st.Heading.Render("Pick it when")}
		for _, pw := range p.PickWhen {
			pick = append(pick, wrap("+ "+pw, s.w, 0, 2)...)
		}
		if !fits(pick) {
			// The heading and as many whole items as fit.
			part := pick[:2]
			for _, pw := range p.PickWhen {
				item := wrap("+ "+pw, s.w, 0, 2)
				if len(d)+len(part)+len(item)+1 > room {
					break
				}
				part = append(part, item...)
			}
			if len(part) > 2 {
				d = append(d, part...)
			}
			left = true
		}
	}
	if left && len(d) < room {
		d = append(d, st.Muted.Render(truncate("enter: the whole page", s.w)))
	}
	if len(d) > room {
		d = d[:room]
	}
	return d
}

func (s *browserScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	move := key.NewBinding(key.WithKeys("left", "right", "up", "down"), key.WithHelp("←↑↓→", "move"))
	details := screen.WithHelp(k.Enter, "details")
	compare := screen.WithHelp(k.Compare, "mark 2 or 3 to compare: enter opens 2, a 3rd c opens 3")
	return screen.KeyHelp{
		Short: []key.Binding{details, k.Compare, k.Filter, move, changesKey, k.Back},
		Full: [][]key.Binding{
			{k.Left, k.Right, k.Up, k.Down},
			{details, compare, k.Filter, k.ClearFilter, changesKey, k.Back},
		},
	}
}

// changesKey opens "What changed since the course notes" from the browser
// and from a product's page.
var changesKey = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "what changed since the course notes"))

// fitParts joins as many of parts as fit in w cells with " · ", whole,
// in order.
func fitParts(w int, parts ...string) string {
	out := ""
	for _, p := range parts {
		next := p
		if out != "" {
			next = out + " · " + p
		}
		if screen.VisibleWidth(next) > w {
			break
		}
		out = next
	}
	return out
}
