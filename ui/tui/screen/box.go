package screen

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

// Box draws body inside a rounded border exactly w cells wide, with title set
// into the top edge. Body lines must already fit w-4 cells; longer ones are
// cut so the right edge never moves. With h > 0 the box is exactly h lines
// (body cut or padded); with h == 0 it fits the body.
func Box(st Styles, title string, body []string, w, h int) []string {
	if w < 6 {
		return body
	}
	inner := w - 4
	top := "╭─"
	if title != "" {
		t := report.Truncate(title, max(inner-2, 1))
		top += " " + t + " "
	}
	fill := w - 1 - ansi.StringWidth(top)
	top = st.Border.Render("╭─") + strings.TrimPrefix(top, "╭─") + st.Border.Render(strings.Repeat("─", max(fill, 0))+"╮")
	out := []string{top}
	n := len(body)
	if h > 0 {
		n = max(h-2, 0)
	}
	side := st.Border.Render("│")
	for i := range n {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		out = append(out, side+" "+report.PadRight(l, inner)+" "+side)
	}
	out = append(out, st.Border.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	return out
}
