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
	lines := func(ls []string) {
		for _, l := range ls {
			b.WriteString(l + "\n")
		}
	}
	if r.Fits {
		lines(WrapSpans([]Span{Styled("✓ fits", &st.Good), Plain(" " + fmt.Sprintf("%s tokens of KV cache; %.1f requests of %s tokens at once", sizing.FormatValue(float64(r.KVCacheTokens), ""), r.MaxConcurrency, sizing.FormatValue(float64(r.ContextTokens), "")))}, width, 0, 2))
	} else {
		lines(WrapSpans([]Span{Styled("✗ does not fit", &st.Bad), Plain(" " + r.Reason)}, width, 0, 2))
	}
	if len(h.Tried) > 1 {
		b.WriteString(st.Heading.Render("Layouts tried") + "\n")
		lines(TriedLines(h.Tried, st, width, 2))
	}
	b.WriteString(st.Heading.Render("Figures") + "\n")
	lines(FigureLines(r.Figures, st, width, 2))
	for _, n := range h.Notes {
		lines(WrapStyled("note: "+n, width, 0, 2, st.Muted))
	}
	return b.String()
}
