package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide/sizing"
)

// SizingHeader is what the sizing card says besides the result.
type SizingHeader struct {
	Engine string
	Notes  []string
	Tried  []sizing.Tried
}

// Sizing renders one sizing: the verdict, the headline numbers, then every
// figure with its formula and source.
func Sizing(r sizing.Result, h SizingHeader, st Styles, width int) string {
	var b strings.Builder
	title := fmt.Sprintf("%s on %s × TP %d", r.Model, r.GPU, r.TensorParallelSize)
	if r.PipelineParallelSize > 1 {
		title += fmt.Sprintf(" × PP %d", r.PipelineParallelSize)
	}
	b.WriteString(st.Title.Render(title))
	if h.Engine != "" {
		b.WriteString(st.Muted.Render("  (" + h.Engine + " memory model)"))
	}
	b.WriteString("\n")
	if r.Fits {
		b.WriteString(st.Good.Render("✓ fits") + wrapIndent(fmt.Sprintf("%s tokens of KV cache; %.1f requests of %s tokens at once", sizing.FormatValue(float64(r.KVCacheTokens), ""), r.MaxConcurrency, sizing.FormatValue(float64(r.ContextTokens), "")), width, 1, 7) + "\n")
	} else {
		b.WriteString(st.Bad.Render("✗ does not fit") + wrapIndent(r.Reason, width, 1, 15) + "\n")
	}
	if len(h.Tried) > 1 {
		b.WriteString(st.Heading.Render("Layouts tried") + "\n")
		for _, t := range h.Tried {
			mark := st.Bad.Render("✗")
			if t.Fits {
				mark = st.Good.Render("✓")
			}
			line := fmt.Sprintf("TP %d × PP %d", t.TP, t.PP)
			if t.Why != "" {
				line += ": " + t.Why
			}
			b.WriteString("  " + mark + wrapIndent(line, width, 1, 4) + "\n")
		}
	}
	b.WriteString(st.Heading.Render("Figures") + "\n")
	b.WriteString(Figures(r.Figures, st, width))
	for _, n := range h.Notes {
		b.WriteString(wrapIndent("note: "+n, width, 0, 6, st.Muted) + "\n")
	}
	return b.String()
}

// Figures renders figures as "name  value" with the formula and the source
// indented below, for the size command and the engine card alike.
func Figures(figs []sizing.Figure, st Styles, width int) string {
	var b strings.Builder
	for _, fg := range figs {
		fmt.Fprintf(&b, "  %s  %s\n", fg.Name, st.Pick.Render(fg.Text()))
		b.WriteString(wrapIndent("= "+fg.Formula, width, 4, 2, st.Muted) + "\n")
		if fg.Source != "" {
			b.WriteString(wrapIndent("source: "+fg.Source, width, 4, 8, st.Muted) + "\n")
		}
	}
	return b.String()
}
