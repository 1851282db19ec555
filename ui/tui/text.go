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

// fit makes s exactly h lines, none wider than w: the last guard against a
// screen that would otherwise make the terminal wrap or scroll.
func fit(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// window returns the h lines of all that keep line sel visible, scrolling
// as little as possible from top; it returns the new top.
func window(all []string, h, sel, top int) ([]string, int) {
	if h <= 0 {
		return nil, top
	}
	if sel < top {
		top = sel
	}
	if sel >= top+h {
		top = sel - h + 1
	}
	top = max(0, min(top, len(all)-h))
	end := min(len(all), top+h)
	return all[top:end], top
}

// indent shifts every line of s right by n spaces.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = pad + l
	}
	return strings.Join(ls, "\n")
}
