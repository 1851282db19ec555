package drills

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// pager is a page of lines that scrolls: the graded results and the stats.
type pager struct {
	lines []string
	top   int
	h     int
}

func (p *pager) set(lines []string, h int) {
	p.lines, p.h = lines, max(h, 1)
	p.clamp()
}

func (p *pager) clamp() { p.top = max(0, min(p.top, len(p.lines)-p.h)) }

func (p *pager) update(k tea.KeyPressMsg, keys screen.KeyMap) bool {
	switch {
	case key.Matches(k, keys.Up):
		p.top--
	case key.Matches(k, keys.Down):
		p.top++
	case key.Matches(k, keys.PageUp):
		p.top -= max(p.h-1, 1)
	case key.Matches(k, keys.PageDown):
		p.top += max(p.h-1, 1)
	case key.Matches(k, keys.Top):
		p.top = 0
	case key.Matches(k, keys.Bottom):
		p.top = len(p.lines)
	default:
		return false
	}
	p.clamp()
	return true
}

func (p *pager) view() string {
	end := min(len(p.lines), p.top+p.h)
	return strings.Join(p.lines[p.top:end], "\n")
}

// more says how far down the page is, when it does not fit.
func (p *pager) more() string {
	if len(p.lines) <= p.h {
		return ""
	}
	if p.top+p.h >= len(p.lines) {
		return "end"
	}
	return fmt.Sprintf("%d%% ↓", 100*(p.top+p.h)/len(p.lines))
}

// withMore puts the pager's position at the right of a header line.
func withMore(st screen.Styles, line, more string, w int) string {
	if more == "" || w < 30 {
		return report.Truncate(line, w)
	}
	right := st.Muted.Render(" " + more)
	rw := screen.VisibleWidth(right)
	return report.PadRight(report.Truncate(line, w-rw), w-rw) + right
}
