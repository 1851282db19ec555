package report

import (
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Header is what the reader is told before the cards.
type Header struct {
	Title string // scenario title or answers file
	Story string
}

// Decision renders the decision as text for the command line: the header,
// the stack line, then each layer's card under a rule, at the given width
// (100 when the output is not a terminal).
func Decision(kb *knowledge.KB, d decide.Decision, h Header, st Styles, width int) string {
	var b strings.Builder
	if h.Title != "" {
		b.WriteString(st.Title.Render(h.Title))
		b.WriteString("\n")
	}
	if h.Story != "" {
		b.WriteString(wrapIndent(h.Story, width, 0, 0))
		b.WriteString("\n")
	}
	b.WriteString(wrapIndent("Stack: "+StackLine(kb, d), width, 0, 7, st.Muted))
	b.WriteString("\n")
	if s := ServesLine(kb, d); s != "" {
		b.WriteString(wrapIndent(s, width, 0, 8, st.Muted))
		b.WriteString("\n")
	}
	for _, l := range AssumptionLines(d, st, width) {
		b.WriteString(l + "\n")
	}
	for _, lp := range d.Layers {
		title := LayerTitle(kb, lp.Layer)
		rule := strings.Repeat("─", max(0, width-len(title)-4))
		b.WriteString("\n" + st.Layer.Render("── "+title) + " " + st.Muted.Render(rule) + "\n")
		for _, l := range LayerCard(kb, d, lp, st, width, false) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// AssumptionLines lists the defaulted answers the decision rests on, each
// with the question that would confirm it, under "Assumed, not stated:";
// none when every answer a reason rests on was stated.
func AssumptionLines(d decide.Decision, st Styles, w int) []string {
	if len(d.Assumptions) == 0 {
		return nil
	}
	out := []string{st.Warn.Render(Truncate("Assumed (defaults to confirm):", w))}
	for _, a := range d.Assumptions {
		out = append(out, WrapSpans([]Span{Styled("?", &st.Warn), Plain(" " + AssumptionLine(a))}, w, 0, 2)...)
	}
	return out
}
