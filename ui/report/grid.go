package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
)

// A capability grid puts two or three products side by side, one row per
// question a selection meeting asks (does it need Kubernetes, does it route
// by KV cache, who governs it, how recent is it), every cell read from the
// knowledge base and footnoted to its source. Nothing in it is prose: a
// cell is a short value, or says that no source was found.

// GridSchema names the JSON form of a grid.
const GridSchema = "stackpick.compare/v1"

// Cell states.
const (
	CellValue    = "value"     // a value read from a source
	CellNoSource = "no-source" // no source found for it (not proof it is missing)
	CellNotApply = "n/a"       // the row does not apply to this kind of product
)

// GridCell is one product's answer to one row.
type GridCell struct {
	Text  string `json:"text"`
	State string `json:"state"`
	// Notes are the numbers of the footnotes (Grid.Notes) it rests on.
	Notes []int `json:"notes,omitempty"`
}

// GridRow is one question, answered for each product in Grid.Products order.
type GridRow struct {
	ID    string     `json:"id"`
	Label string     `json:"label"`
	Cells []GridCell `json:"cells"`
}

// GridNote is one footnote: where a product's values for one kind of fact
// were read, with the exact words (or why nothing was found).
type GridNote struct {
	N       int    `json:"n"`
	Product string `json:"product"`
	About   string `json:"about"`
	Source  string `json:"source,omitempty"`
	Quote   string `json:"quote,omitempty"`
	AsOf    string `json:"as_of,omitempty"`
	// NotFound is what no source gave, and why.
	NotFound string `json:"not_found,omitempty"`
}

// GridProduct is a compared product as the grid names it.
type GridProduct struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Layer string `json:"layer"`
}

// Grid is a capability grid of two or three products.
type Grid struct {
	Schema   string        `json:"schema"`
	Title    string        `json:"title"`
	Products []GridProduct `json:"products"`
	// Note is said above the grid: set when the products sit on
	// different layers, so the grid does not read as a choice between them.
	Note   string     `json:"note,omitempty"`
	Rows   []GridRow  `json:"rows"`
	Notes  []GridNote `json:"notes"`
	Legend string     `json:"legend"`
}

// Grid row ids, in display order.
const (
	RowKubernetes = "kubernetes-needed"
	RowBareMetal  = "bare-metal"
	RowKVRouting  = "kv-routing"
	RowPD         = "pd-disaggregation"
	RowLoRA       = "lora-routing"
	RowAutoscale  = "autoscaling"
	RowGovernance = "governance"
	RowEngines    = "engines"
	RowVendors    = "vendors"
	RowLicence    = "licence"
	RowRelease    = "latest-release"
)

const noSourceText = "— (no source)"

// gridLegend explains the one cell that is not a value.
const gridLegend = noSourceText + ": no source for it was found in the knowledge base; that is not a proven no."

// vendorNames are the accelerator vendors as a reader knows them.
var vendorNames = map[string]string{
	"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel", "google": "Google TPU",
	"apple": "Apple silicon", knowledge.VendorNone: "CPU only",
}

// substrateNames are the places a product runs, as a reader knows them.
var substrateNames = map[string]string{
	knowledge.SubstrateKubernetes: "Kubernetes", knowledge.SubstrateOpenShift: "OpenShift",
	knowledge.SubstrateManagedCloud: "managed Kubernetes", knowledge.SubstrateSlurm: "Slurm",
	knowledge.SubstrateBareMetal: "bare metal",
}

// NewGrid builds the capability grid of ps (two or three products; the
// caller checks the count) from the knowledge base.
func NewGrid(kb *knowledge.KB, ps ...*knowledge.Product) Grid {
	g := Grid{Schema: GridSchema, Legend: gridLegend, Notes: []GridNote{}}
	layers := map[string]bool{}
	for _, p := range ps {
		g.Products = append(g.Products, GridProduct{ID: p.ID, Name: p.Name, Layer: p.Layer})
		layers[p.Layer] = true
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	g.Title = strings.Join(names, " vs ")
	if len(layers) > 1 {
		var on []string
		for _, p := range ps {
			on = append(on, p.Name+": "+strings.ToLower(LayerTitle(kb, p.Layer)))
		}
		g.Note = "These products sit on different layers (" + strings.Join(on, "; ") + "), so they are not alternatives to each other: the grid shows what each records, not which to pick."
	}
	b := gridBuilder{kb: kb, g: &g, noteOf: map[string]int{}}
	b.row(RowKubernetes, "Kubernetes needed", ps, b.kubernetes)
	b.row(RowBareMetal, "Bare metal", ps, func(p *knowledge.Product) GridCell {
		return b.has(p, knowledge.CanSubstrates, knowledge.SubstrateBareMetal, "where it runs")
	})
	for _, f := range []struct{ id, label, feature string }{
		{RowKVRouting, "KV-aware routing", "kv-routing"},
		{RowPD, "Prefill/decode disaggregation", "pd-disaggregation"},
		{RowLoRA, "LoRA adapter routing", "lora-routing"},
		{RowAutoscale, "Autoscaling", "autoscaling"},
	} {
		b.row(f.id, f.label, ps, func(p *knowledge.Product) GridCell {
			return b.has(p, knowledge.CanFeatures, f.feature, "what it provides")
		})
	}
	b.row(RowGovernance, "Governance", ps, b.governance)
	b.row(RowEngines, "Engines it runs", ps, b.engines)
	b.row(RowVendors, "Accelerator vendors", ps, func(p *knowledge.Product) GridCell {
		return b.list(p, knowledge.CanVendors, "accelerator vendors", func(v string) string { return cmpOr(vendorNames[v], v) })
	})
	b.row(RowLicence, "Licence", ps, b.licence)
	b.row(RowRelease, "Latest release", ps, b.release)
	return g
}

type gridBuilder struct {
	kb     *knowledge.KB
	g      *Grid
	noteOf map[string]int
}

func (b *gridBuilder) row(id, label string, ps []*knowledge.Product, cell func(*knowledge.Product) GridCell) {
	r := GridRow{ID: id, Label: label}
	for _, p := range ps {
		r.Cells = append(r.Cells, cell(p))
	}
	b.g.Rows = append(b.g.Rows, r)
}

// note returns the number of the footnote for n, adding it the first time.
func (b *gridBuilder) note(n GridNote) int {
	key := n.Product + "\x00" + n.About
	if i, ok := b.noteOf[key]; ok {
		return i
	}
	n.N = len(b.g.Notes) + 1
	b.g.Notes = append(b.g.Notes, n)
	b.noteOf[key] = n.N
	return n.N
}

func (b *gridBuilder) capNote(p *knowledge.Product, c *knowledge.Capability, about string) int {
	return b.note(GridNote{Product: p.Name, About: about, Source: c.Sources.Cite(true), Quote: c.Sources.Quote(), AsOf: c.Sources.CheckedOn()})
}

func noSource() GridCell { return GridCell{Text: noSourceText, State: CellNoSource} }

// engineCell answers the rows about where a product runs and what it
// provides for an engine: the knowledge base records those for model
// servers and orchestrators (what serves and routes), not for engines.
var engineCell = GridCell{Text: "n/a (an engine)", State: CellNotApply}

// has answers "yes" when the product's capability of kind what lists v.
func (b *gridBuilder) has(p *knowledge.Product, what, v, about string) GridCell {
	if p.Layer == knowledge.LayerEngine {
		return engineCell
	}
	c := b.kb.Capability(p.ID, what)
	if c == nil || !slices.Contains(c.Values, v) {
		return noSource()
	}
	return GridCell{Text: "yes", State: CellValue, Notes: []int{b.capNote(p, c, about)}}
}

// kubernetes reads the substrates: a product that also runs on bare metal
// or Slurm does not need Kubernetes; one whose sources name only Kubernetes
// platforms does.
func (b *gridBuilder) kubernetes(p *knowledge.Product) GridCell {
	if p.Layer == knowledge.LayerEngine {
		return engineCell
	}
	c := b.kb.Capability(p.ID, knowledge.CanSubstrates)
	if c == nil {
		return noSource()
	}
	var without []string
	for _, s := range c.Values {
		if s == knowledge.SubstrateBareMetal || s == knowledge.SubstrateSlurm {
			without = append(without, substrateNames[s])
		}
	}
	text := "yes (the sources name only Kubernetes)"
	if len(without) > 0 {
		text = "no (also " + strings.Join(without, ", ") + ")"
	}
	return GridCell{Text: text, State: CellValue, Notes: []int{b.capNote(p, c, "where it runs")}}
}

func (b *gridBuilder) list(p *knowledge.Product, what, about string, name func(string) string) GridCell {
	c := b.kb.Capability(p.ID, what)
	if c == nil || len(c.Values) == 0 {
		return noSource()
	}
	names := make([]string, len(c.Values))
	for i, v := range c.Values {
		names[i] = name(v)
	}
	return GridCell{Text: strings.Join(names, ", "), State: CellValue, Notes: []int{b.capNote(p, c, about)}}
}

func (b *gridBuilder) engines(p *knowledge.Product) GridCell {
	if p.Layer == knowledge.LayerEngine {
		return engineCell
	}
	return b.list(p, knowledge.CanEngines, "engines it runs", b.kb.ProductName)
}

func (b *gridBuilder) governance(p *knowledge.Product) GridCell {
	g := p.Governance
	if g.Kind == knowledge.GovernanceNotFound || g.Text == "" {
		n := b.note(GridNote{Product: p.Name, About: "governance", NotFound: g.NotFound})
		return GridCell{Text: noSourceText, State: CellNoSource, Notes: []int{n}}
	}
	return GridCell{Text: g.Text, State: CellValue, Notes: []int{b.note(GridNote{Product: p.Name, About: "governance", Source: g.Sources.Cite(true), Quote: g.Sources.Quote()})}}
}

func (b *gridBuilder) licence(p *knowledge.Product) GridCell {
	l := p.Licence
	if l.SPDX == "" {
		return noSource()
	}
	return GridCell{Text: l.SPDX, State: CellValue, Notes: []int{b.note(GridNote{Product: p.Name, About: "licence", Source: l.Sources.Cite(true), Quote: l.Sources.Quote()})}}
}

func (b *gridBuilder) release(p *knowledge.Product) GridCell {
	r := p.Release
	n := b.note(GridNote{Product: p.Name, About: "latest release", Source: r.Sources.Cite(true), Quote: r.Sources.Quote(), AsOf: r.CheckedOn, NotFound: r.NotFound})
	if r.Tag == "" {
		return GridCell{Text: "— (not found)", State: CellNoSource, Notes: []int{n}}
	}
	return GridCell{Text: ReleaseText(r), State: CellValue, Notes: []int{n}}
}

// ReleaseText is a product's latest release in a few words: "v0.21.0,
// 2026-09-30", "v1.6.1, date not found", or "not found".
func ReleaseText(r knowledge.Release) string {
	var s string
	switch {
	case r.Tag == "":
		return "not found"
	case r.Date == "":
		s = r.Tag + ", date not found"
	default:
		s = r.Tag + ", " + r.Date
	}
	if r.Stable != "" {
		s = r.Tag + " (a pre-release)" + strings.TrimPrefix(s, r.Tag) + "; newest stable release " + r.Stable
		if r.StableDate != "" {
			s += ", " + r.StableDate
		}
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// marked is a cell's text with its footnote markers: "yes [3]".
func (c GridCell) marked() string {
	s := c.Text
	for _, n := range c.Notes {
		s += fmt.Sprintf(" [%d]", n)
	}
	return s
}

// Text of a footnote: "[3] KServe, what it provides (checked 2026-12-01): SOURCE".
func (n GridNote) text() string {
	head := fmt.Sprintf("[%d] %s, %s", n.N, n.Product, n.About)
	if n.AsOf != "" {
		head += " (checked " + n.AsOf + ")"
	}
	var parts []string
	if n.Source != "" {
		parts = append(parts, n.Source)
	}
	if n.NotFound != "" {
		parts = append(parts, "not found: "+n.NotFound)
	}
	return head + ": " + strings.Join(parts, "; ")
}

// Grid widths: product columns of gridMinCol to gridMaxCol cells, joined
// by gridSep.
const (
	gridMinCol = 10
	gridMaxCol = 40
	gridSep    = " │ "
)

// GridColumns reports whether g fits width as columns; below that it is
// laid out one record per product. A column must hold the longest word of
// its cells, so wrapping never has to cut one.
func GridColumns(g Grid, width int) bool {
	_, colW := gridWidths(g, width)
	return colW >= gridMinCol && colW >= longestWord(g)
}

func gridWidths(g Grid, width int) (labelW, colW int) {
	n := len(g.Products)
	// The longest label, within a fifth of the width (at least 12), and
	// never narrower than a word of a label.
	longest, word := 0, 0
	for _, r := range g.Rows {
		longest = max(longest, ansi.StringWidth(r.Label))
		for _, w := range strings.Fields(r.Label) {
			word = max(word, ansi.StringWidth(w))
		}
	}
	labelW = max(min(longest, max(width/5, 12)), word)
	if n == 0 {
		return labelW, 0
	}
	colW = min((width-labelW-n*ansi.StringWidth(gridSep))/n, gridMaxCol)
	return labelW, colW
}

func longestWord(g Grid) int {
	n := 0
	for _, p := range g.Products {
		for _, w := range strings.Fields(p.Name) {
			n = max(n, ansi.StringWidth(w))
		}
	}
	for _, r := range g.Rows {
		for _, c := range r.Cells {
			for _, w := range strings.Fields(c.marked()) {
				n = max(n, ansi.StringWidth(w))
			}
		}
	}
	return n
}

// GridLines lays g out in width cells: the note, the grid (columns, or one
// record per product when the columns would be too narrow), the legend and
// the footnotes. No line is wider than width and no word is dropped or cut.
func GridLines(g Grid, st Styles, width int) []string {
	width = max(width, 1)
	var out []string
	if g.Note != "" {
		out = append(out, WrapStyled(g.Note, width, 0, 0, st.Warn)...)
		out = append(out, "")
	}
	if GridColumns(g, width) {
		out = append(out, gridColumns(g, st, width)...)
	} else {
		out = append(out, gridRecords(g, st, width)...)
	}
	out = append(out, "")
	out = append(out, WrapStyled(g.Legend, width, 0, 0, st.Muted)...)
	out = append(out, "")
	out = append(out, st.Heading.Render(Truncate("Sources", width)))
	for _, n := range g.Notes {
		out = append(out, WrapStyled(n.text(), width, 0, 4, st.Muted)...)
	}
	return out
}

// GridText is the grid under its title, as one string ending in a newline:
// what the command line prints.
func GridText(g Grid, st Styles, width int) string {
	lines := append(WrapStyled(g.Title, width, 0, 2, st.Title), "")
	return strings.Join(append(lines, GridLines(g, st, width)...), "\n") + "\n"
}

func gridColumns(g Grid, st Styles, width int) []string {
	labelW, colW := gridWidths(g, width)
	sep := st.Border.Render(gridSep)
	lastSep := st.Border.Render(strings.TrimRight(gridSep, " "))
	line := func(label []string, cells [][]string) []string {
		h := len(label)
		for _, c := range cells {
			h = max(h, len(c))
		}
		var out []string
		for i := range h {
			var b strings.Builder
			b.WriteString(PadRight(at(label, i), labelW))
			for j, c := range cells {
				cell := at(c, i)
				switch {
				case j < len(cells)-1:
					b.WriteString(sep + PadRight(cell, colW))
				case cell == "":
					b.WriteString(lastSep) // no trailing space
				default:
					b.WriteString(sep + cell)
				}
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
		return out
	}
	var names [][]string
	for _, p := range g.Products {
		names = append(names, WrapStyled(p.Name, colW, 0, 0, st.Pick))
	}
	out := line(nil, names)
	rule := strings.Repeat("─", labelW)
	for range g.Products {
		rule += "─┼─" + strings.Repeat("─", colW)
	}
	out = append(out, st.Border.Render(Truncate(rule, width)))
	for _, r := range g.Rows {
		var cells [][]string
		for _, c := range r.Cells {
			cells = append(cells, cellLines(c, st, colW))
		}
		out = append(out, line(WrapStyled(r.Label, labelW, 0, 0, st.Heading), cells)...)
	}
	return out
}

func cellLines(c GridCell, st Styles, w int) []string {
	if c.State == CellValue {
		return Wrap(c.marked(), w, 0, 0)
	}
	return WrapStyled(c.marked(), w, 0, 0, st.Muted)
}

func gridRecords(g Grid, st Styles, width int) []string {
	var out []string
	for i, p := range g.Products {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, WrapStyled(p.Name, width, 0, 2, st.Pick)...)
		for _, r := range g.Rows {
			c := r.Cells[i]
			spans := []Span{Styled(r.Label+":", &st.Heading), Plain(" ")}
			if c.State == CellValue {
				spans = append(spans, Plain(c.marked()))
			} else {
				spans = append(spans, Styled(c.marked(), &st.Muted))
			}
			out = append(out, WrapSpans(spans, width, 2, 2)...)
		}
	}
	return out
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// GridMarkdown is g as a Markdown table with the footnotes as a list.
func GridMarkdown(g Grid) string {
	var b strings.Builder
	b.WriteString("# " + mdText(g.Title) + "\n\n")
	if g.Note != "" {
		b.WriteString("> " + g.Note + "\n\n")
	}
	b.WriteString("|")
	for _, p := range g.Products {
		b.WriteString(" | " + gridMDCell(p.Name))
	}
	b.WriteString(" |\n| ---")
	for range g.Products {
		b.WriteString(" | ---")
	}
	b.WriteString(" |\n")
	for _, r := range g.Rows {
		b.WriteString("| " + gridMDCell(r.Label))
		for _, c := range r.Cells {
			b.WriteString(" | " + gridMDCell(c.marked()))
		}
		b.WriteString(" |\n")
	}
	b.WriteString("\n" + g.Legend + "\n\n## Sources\n\n")
	for _, n := range g.Notes {
		b.WriteString("- " + n.markdown() + "\n")
	}
	return b.String()
}

// markdown is the footnote with each source as code and every address in
// the reason linked, so a Markdown viewer neither reads brackets as links
// nor leaves a bare URL.
func (n GridNote) markdown() string {
	head := fmt.Sprintf(`\[%d\] %s, %s`, n.N, mdText(n.Product), n.About)
	if n.AsOf != "" {
		head += " (checked " + n.AsOf + ")"
	}
	var parts []string
	for _, src := range strings.Split(n.Source, "; ") {
		if src != "" {
			parts = append(parts, "`"+src+"`")
		}
	}
	if n.NotFound != "" {
		parts = append(parts, "not found: "+linkURLs(mdText(n.NotFound)))
	}
	return head + ": " + strings.Join(parts, "; ")
}

// gridMDCell escapes what would end a table cell.
func gridMDCell(s string) string { return strings.ReplaceAll(mdText(s), "|", `\|`) }

// mdText keeps Markdown from reading brackets as links.
func mdText(s string) string { return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s) }

// linkURLs puts each http(s) address of s in angle brackets; an address
// ends at a space or a closing parenthesis.
func linkURLs(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "https://")
		if j := strings.Index(s, "http://"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := strings.IndexAny(s[i:], " )")
		if end < 0 {
			end = len(s) - i
		}
		b.WriteString(s[:i] + "<" + s[i:i+end] + ">")
		s = s[i+end:]
	}
}

// GridJSON writes g as indented JSON.
func GridJSON(w io.Writer, g Grid) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}

// releaseSource words a release's source as a reader reads it, not as the
// command that read it: "kserve/kserve tag v0.20.0, commit 1fb7810, dated
// 2026-08-06T11:35:49+05:30".
