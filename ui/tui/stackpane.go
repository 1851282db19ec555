package tui

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// sidePaneMin is the terminal width from which forms get the live stack
// beside them instead of a one-line summary under them.
const sidePaneMin = 120

// sidePaneWidth is the width of the live stack pane.
const sidePaneWidth = 40

// stackPane is the live stack as it stands after the last answer: one entry
// per layer with its pick, the strongest reason, and a mark on what the last
// change moved.
func stackPane(c *shared, w, h int) string {
	st := c.Styles
	s := &c.session
	d := s.decision
	changed := s.changedLayers()
	inner := w - 4
	var body []string
	for _, lp := range d.Layers {
		body = append(body, st.Layer.Render(report.LayerTitle(c.KB, lp.Layer)))
		pick := st.Pick.Render(truncate(report.PickText(c.KB, lp), inner-2))
		if changed[lp.Layer] {
			pick = st.Changed.Render("» ") + pick
		} else {
			pick = "  " + pick
		}
		body = append(body, pick)
		if len(lp.Reasons) > 0 {
			r := wrapStyled(lp.Reasons[0].Text, inner, 2, 0, st.Muted)
			if len(r) > 2 {
				r = r[:2]
				r[1] = truncate(r[1]+"…", inner)
			}
			body = append(body, r...)
		}
		body = append(body, "")
	}
	risks := len(d.Risks)
	body = append(body, st.Muted.Render(fmt.Sprintf("%d risk%s · see the result for all", risks, plural(risks))))
	if len(changed) > 0 {
		body = append(body, st.Changed.Render("» moved with the last answer"))
	}
	return strings.Join(screen.Box(st, "Stack so far", body, w, h), "\n")
}

// stackLine is the one-line live stack for narrow terminals.
func stackLine(c *shared, w int) string {
	st := c.Styles
	line := report.StackLine(c.KB, c.session.decision)
	prefix := st.Muted.Render("Stack: ")
	if len(c.session.changedLayers()) > 0 {
		prefix = st.Changed.Render("» Stack: ")
	}
	return truncate(prefix+st.Pick.Render(line), w)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
