package screen

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

// VisibleWidth is the cells s takes on the terminal, styles aside.
func VisibleWidth(s string) int { return ansi.StringWidth(s) }

// Fit makes s exactly h lines, none wider than w: the last guard against a
// screen that would otherwise make the terminal wrap or scroll.
func Fit(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = report.Truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Window returns the h lines of all that keep line sel visible, scrolling
// as little as possible from top; it returns the new top.
func Window(all []string, h, sel, top int) ([]string, int) {
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

// Indent shifts every line of s right by n spaces.
func Indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = pad + l
	}
	return strings.Join(ls, "\n")
}
