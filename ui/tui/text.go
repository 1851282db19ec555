package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

// wrap, wrapStyled, truncate and padRight are report's, the ones every
// surface uses, under the short names the screens call them by.
var (
	wrap       = report.Wrap
	wrapStyled = report.WrapStyled
	truncate   = report.Truncate
	padRight   = report.PadRight
)

// cutMore ends a line that more text follows with one "…", within width
// cells: cut short if it is too long (never "……"), the "…" added if not.
func cutMore(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return strings.TrimRight(ansi.Truncate(s, width-1, ""), " ") + "…"
}
