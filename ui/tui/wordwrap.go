package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// span is a run of text in one style; a nil style leaves it plain.
type span struct {
	text  string
	style *lipgloss.Style
}

func plain(s string) span                      { return span{text: s} }
func styled(s string, st *lipgloss.Style) span { return span{text: s, style: st} }

// wrapSpans word-wraps styled text to width cells. Unlike wrap it breaks
// only at spaces, so a flag such as --max-num-seqs or a metric name stays
// whole; a word wider than the line (a URL) is cut. The first line is
// indented by indent cells, the others by indent+hang, and every piece is
// styled on its own line, so colour never spans a line break.
func wrapSpans(spans []span, width, indent, hang int) []string {
	avail := width - indent - hang
	if avail < 8 {
		// Too narrow for the hang: drop it before dropping words.
		indent, hang = min(indent, max(width-8, 0)), 0
		avail = max(width-indent, 1)
	}
	var lines []string
	var line []span
	lineW := 0
	flush := func() {
		pad := indent
		if len(lines) > 0 {
			pad += hang
		}
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", pad))
		for _, p := range line {
			b.WriteString(p.render())
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
		line, lineW = line[:0], 0
	}
	room := func() int {
		if len(lines) == 0 {
			return avail + hang
		}
		return avail
	}
	for _, w := range words(spans) {
		ww := spansWidth(w)
		// A word that fits a line of its own starts one; a word too long
		// for any line is cut, starting right here.
		if lineW > 0 && lineW+1+ww > room() && (ww <= avail || room()-lineW-1 < 8) {
			flush()
		}
		if lineW > 0 {
			line = append(line, plain(" "))
			lineW++
		}
		for lineW+ww > room() {
			// A word longer than a whole line: cut it at the edge.
			head, tail := cutSpans(w, room()-lineW)
			line = append(line, head...)
			flush()
			w, ww = tail, spansWidth(tail)
		}
		line = append(line, w...)
		lineW += ww
	}
	if lineW > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

func (p span) render() string {
	if p.style == nil || p.text == "" || p.text == " " {
		return p.text
	}
	return p.style.Render(p.text)
}

// words splits styled text at spaces; a word may hold several styles
// ("(`--enable-lora`," is three pieces).
func words(spans []span) [][]span {
	var out [][]span
	var cur []span
	for _, p := range spans {
		parts := strings.Split(p.text, " ")
		for i, part := range parts {
			if i > 0 && len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			if part != "" {
				cur = append(cur, span{text: part, style: p.style})
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func spansWidth(w []span) int {
	n := 0
	for _, p := range w {
		n += ansi.StringWidth(p.text)
	}
	return n
}

// cutSpans splits a word after n cells.
func cutSpans(w []span, n int) (head, tail []span) {
	n = max(n, 1)
	for i, p := range w {
		pw := ansi.StringWidth(p.text)
		if pw <= n {
			head = append(head, p)
			n -= pw
			if n == 0 {
				return head, w[i+1:]
			}
			continue
		}
		head = append(head, span{text: ansi.Cut(p.text, 0, n), style: p.style})
		rest := span{text: ansi.Cut(p.text, n, pw), style: p.style}
		return head, append([]span{rest}, w[i+1:]...)
	}
	return head, nil
}
