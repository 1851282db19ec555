package report

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// This is stackpick's one word-wrapper, for every surface: the app's
// screens, the command line's text and the memo preview.

// Span is a run of text in one style; a nil style leaves it plain.
type Span struct {
	Text  string
	Style *lipgloss.Style
}

// Plain is unstyled text.
func Plain(s string) Span { return Span{Text: s} }

// Styled is text in style st.
func Styled(s string, st *lipgloss.Style) Span { return Span{Text: s, Style: st} }

// Wrap word-wraps plain text to width cells. The first line is indented by
// indent cells, the others by indent+hang. Lines come back unstyled: the
// caller styles each one, so colour never spans a line break.
func Wrap(s string, width, indent, hang int) []string {
	return WrapSpans([]Span{Plain(s)}, width, indent, hang)
}

// WrapStyled wraps s and renders every line with st, indentation left
// plain: one style per line, not per word.
func WrapStyled(s string, width, indent, hang int, st lipgloss.Style) []string {
	lines := Wrap(s, width, indent, hang)
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		lines[i] = l[:len(l)-len(trimmed)] + st.Render(trimmed)
	}
	return lines
}

// WrapSpans word-wraps styled text to width cells. It breaks only at
// spaces, so a flag such as --enable-lora, a range such as 2048-8192 or a
// metric name stays whole; a word wider than the line (a URL, a commit id)
// is cut, so nothing runs past the edge. The first line is indented by
// indent cells, the others by indent+hang, and every piece is styled on
// its own line, so colour never spans a line break.
func WrapSpans(spans []Span, width, indent, hang int) []string {
	avail := width - indent - hang
	if avail < 8 {
		// Too narrow for the hang: drop it before dropping words.
		indent, hang = min(indent, max(width-8, 0)), 0
		avail = max(width-indent, 1)
	}
	var lines []string
	var line []Span
	lineW := 0
	short := 0 // cells the next line's indent gives up for a long word
	flush := func() {
		pad := indent
		if len(lines) > 0 {
			pad += hang
		}
		pad, short = max(pad-short, 0), 0
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
		// A word that does not fit here starts a line of its own, so a
		// URL, a path or a hash is never split when a line can hold it;
		// only a word wider than the whole width is cut.
		if lineW > 0 && lineW+1+ww > room() {
			flush()
		}
		if lineW > 0 {
			line = append(line, Plain(" "))
			lineW++
		}
		if lineW == 0 && ww > room() && ww <= width {
			// Wider than the indented line but not than the width: the
			// line gives up indent for it rather than split it.
			short = ww - room()
			line = append(line, w...)
			lineW += ww
			continue
		}
		for lineW+ww > room() {
			// A word wider than the whole width: cut it at the edge, after
			// a / or : near the edge when there is one.
			head, tail := cutSpans(w, cutAt(w, room()-lineW))
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

func (p Span) render() string {
	if p.Style == nil || p.Text == "" || p.Text == " " {
		return p.Text
	}
	return p.Style.Render(p.Text)
}

// words splits styled text at spaces; a word may hold several styles
// ("(`--enable-lora`," is three pieces).
func words(spans []Span) [][]Span {
	var out [][]Span
	var cur []Span
	for _, p := range spans {
		parts := strings.Split(p.Text, " ")
		for i, part := range parts {
			if i > 0 && len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			if part != "" {
				cur = append(cur, Span{Text: part, Style: p.Style})
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func spansWidth(w []Span) int {
	n := 0
	for _, p := range w {
		n += ansi.StringWidth(p.Text)
	}
	return n
}

// cutAt is where to cut a word that must be cut within n cells: after
// the last / : @ ; ? & or = in the second half of them (else _ or .), so
// each piece reads as part of a path or a URL; never after a hyphen, which
// would read as the word's own; else at n.
func cutAt(w []Span, n int) int {
	var text strings.Builder
	for _, p := range w {
		text.WriteString(p.Text)
	}
	cells := 0
	best, fallback := 0, 0
	for _, r := range text.String() {
		rw := ansi.StringWidth(string(r))
		if cells+rw > n {
			break
		}
		cells += rw
		switch {
		case cells < n/2:
		case strings.ContainsRune("/:@;?&=", r):
			best = cells
		case strings.ContainsRune("_.", r):
			fallback = cells
		}
	}
	switch {
	case best > 0:
		return best
	case fallback > 0:
		return fallback
	}
	return n
}

// cutSpans splits a word after n cells.
func cutSpans(w []Span, n int) (head, tail []Span) {
	n = max(n, 1)
	for i, p := range w {
		pw := ansi.StringWidth(p.Text)
		if pw <= n {
			head = append(head, p)
			n -= pw
			if n == 0 {
				return head, w[i+1:]
			}
			continue
		}
		head = append(head, Span{Text: ansi.Cut(p.Text, 0, n), Style: p.Style})
		rest := Span{Text: ansi.Cut(p.Text, n, pw), Style: p.Style}
		return head, append([]Span{rest}, w[i+1:]...)
	}
	return head, nil
}

// Truncate cuts a styled line to width cells, marking the cut with "…".
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// PadRight pads a styled line with spaces to exactly width cells (or cuts it).
func PadRight(s string, width int) string {
	w := ansi.StringWidth(s)
	if w > width {
		return Truncate(s, width)
	}
	return s + strings.Repeat(" ", width-w)
}

// wrapIndent is Wrap for the command line's text, joined into one string,
// every line rendered with style if one is given. On a narrow terminal
// hanging indents shrink: they cost too much room there.
func wrapIndent(s string, width, indent, hang int, style ...lipgloss.Style) string {
	if width < 60 {
		hang = min(hang, 2)
		indent = min(indent, 4)
	}
	lines := Wrap(s, width, indent, hang)
	if len(style) > 0 {
		lines = WrapStyled(s, width, indent, hang, style[0])
	}
	return strings.Join(lines, "\n")
}
