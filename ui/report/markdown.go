package report

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The memo preview draws the memo's own Markdown with the app's styles.
// It knows only what report.Memo writes: ATX headings, paragraphs, bullet,
// numbered and task lists, pipe tables, one fenced code block, and inline
// code, bold, autolinks and backslash escapes. A full renderer (glamour)
// would cost every start of the binary ~30 ms of package initialisation
// for a screen few sessions open.

// PaintMarkdown renders src, a memo's Markdown, as styled lines at most w
// cells wide, for the app's memo preview.
func PaintMarkdown(src string, styles Styles, w int) []string {
	st := &styles
	var out []string
	blank := func() {
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
	}
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.TrimSpace(l) == "":
			blank()
		case strings.HasPrefix(l, "```"):
			// A fenced block, drawn dimmed and indented; the fences go.
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				code := lines[i]
				lead := len(code) - len(strings.TrimLeft(code, " "))
				out = append(out, WrapSpans([]Span{Styled(strings.TrimLeft(code, " "), &st.Muted)}, w, 2+lead, 4)...)
			}
		case strings.HasPrefix(l, "#"):
			level := len(l) - len(strings.TrimLeft(l, "#"))
			hs := &st.Heading
			switch level {
			case 1:
				hs = &st.App
			case 2:
				hs = &st.Layer
			}
			out = append(out, WrapSpans(inlineSpans(st, strings.TrimSpace(l[level:]), hs), w, 0, 2)...)
		case strings.HasPrefix(l, "|"):
			var rows [][]string
			for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				rows = append(rows, tableCells(lines[i]))
			}
			i--
			out = append(out, tableLines(st, rows, w)...)
		case isListItem(l):
			rest := strings.TrimLeft(l, " ")
			depth := (len(l) - len(rest)) / 2
			marker, text, _ := strings.Cut(rest, " ")
			ms := &st.Muted
			switch {
			case strings.HasPrefix(text, "[ ] "):
				marker, text = "[ ]", text[4:]
			case marker == "-" && depth == 0:
				marker, ms = "•", &st.Key
			case marker == "-":
				marker = "◦"
			}
			item := append([]Span{Styled(marker, ms), Plain(" ")}, inlineSpans(st, text, nil)...)
			out = append(out, WrapSpans(item, w, 2*depth, ansi.StringWidth(marker)+1)...)
		default:
			out = append(out, WrapSpans(inlineSpans(st, l, nil), w, 0, 0)...)
		}
	}
	return out
}

// inlineSpans parses inline Markdown: `code`, **bold**, <https://…> and
// backslash escapes. Plain text takes base (nil: unstyled).
func inlineSpans(st *Styles, s string, base *lipgloss.Style) []Span {
	var out []Span
	var text strings.Builder
	bold := false
	flush := func() {
		if text.Len() == 0 {
			return
		}
		style := base
		if bold {
			style = &st.Title
		}
		out = append(out, Span{Text: text.String(), Style: style})
		text.Reset()
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++
			text.WriteByte(s[i])
		case ch == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				text.WriteByte(ch)
				continue
			}
			flush()
			out = append(out, Styled(s[i+1:i+1+end], &st.Key))
			i += end + 1
		case ch == '*' && strings.HasPrefix(s[i:], "**"):
			flush()
			bold = !bold
			i++
		case ch == '<' && strings.HasPrefix(s[i+1:], "http"):
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				text.WriteByte(ch)
				continue
			}
			flush()
			out = append(out, Styled(s[i+1:i+end], &st.RuleID))
			i += end
		default:
			text.WriteByte(ch)
		}
	}
	flush()
	return out
}

func isASCIIPunct(b byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", b) >= 0
}

// tableCells splits a pipe-table row; "\|" is a pipe inside a cell.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		if row[i] == '\\' && i+1 < len(row) && row[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if row[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(row[i])
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// tableLines lays a table out in columns when they fit w, wrapping the
// widest cells; when even that would leave columns too narrow to read, each
// row becomes a small record: the first cell, then "Header: value" pairs.
func tableLines(st *Styles, rows [][]string, w int) []string {
	if len(rows) == 0 {
		return nil
	}
	head := rows[0]
	var body [][]string
	for _, r := range rows[1:] {
		if len(r) > 0 && isTableRule(r[0]) {
			continue
		}
		body = append(body, r)
	}
	n := len(head)
	cells := make([][][]Span, len(body))
	natural := make([]int, n)
	for j, h := range head {
		natural[j] = ansi.StringWidth(h)
	}
	for i, r := range body {
		cells[i] = make([][]Span, n)
		for j := range n {
			if j < len(r) {
				cells[i][j] = inlineSpans(st, r[j], nil)
			}
			natural[j] = max(natural[j], spansWidth(cells[i][j]))
		}
	}
	const gap, minCol = 2, 12
	avail := w - gap*(n-1)
	// The widest cap that fits: narrow columns keep their width, the wide
	// ones share what is left.
	capW := 0
	for cw := 1; cw <= slices.Max(natural); cw++ {
		total := 0
		for _, nw := range natural {
			total += min(nw, cw)
		}
		if total > avail {
			break
		}
		capW = cw
	}
	if capW < slices.Max(natural) && capW < minCol {
		return tableRecords(st, head, cells, w)
	}
	widths := make([]int, n)
	for j, nw := range natural {
		widths[j] = min(nw, capW)
	}
	wrapped := capW < slices.Max(natural)
	row := func(cols [][]string) []string {
		height := 0
		for _, col := range cols {
			height = max(height, len(col))
		}
		out := make([]string, height)
		for k := range height {
			var b strings.Builder
			for j, col := range cols {
				cell := ""
				if k < len(col) {
					cell = col[k]
				}
				if j < n-1 {
					b.WriteString(PadRight(cell, widths[j]) + strings.Repeat(" ", gap))
				} else {
					b.WriteString(cell)
				}
			}
			out[k] = strings.TrimRight(b.String(), " ")
		}
		return out
	}
	hdr := make([][]string, n)
	rule := make([]string, n)
	for j, h := range head {
		hdr[j] = WrapSpans([]Span{Styled(h, &st.Heading)}, widths[j], 0, 0)
		rule[j] = st.Muted.Render(strings.Repeat("─", widths[j]))
	}
	out := row(hdr)
	out = append(out, strings.Join(rule, strings.Repeat(" ", gap)))
	// A wrapped cell's later lines hang by two cells, so a row's start
	// stands out without a blank line between rows.
	hang := 0
	if wrapped {
		hang = 2
	}
	for _, r := range cells {
		cols := make([][]string, n)
		for j, cell := range r {
			cols[j] = WrapSpans(cell, widths[j], 0, hang)
		}
		out = append(out, row(cols)...)
	}
	return out
}

// tableRecords is a table for a narrow screen: one record per row.
func tableRecords(st *Styles, head []string, cells [][][]Span, w int) []string {
	var out []string
	for i, r := range cells {
		if i > 0 {
			out = append(out, "")
		}
		first := append([]Span{Styled("•", &st.Key), Plain(" ")}, r[0]...)
		out = append(out, WrapSpans(first, w, 0, 2)...)
		for j := 1; j < len(r); j++ {
			if len(r[j]) == 0 {
				continue
			}
			field := append([]Span{Styled(head[j]+":", &st.Muted), Plain(" ")}, r[j]...)
			out = append(out, WrapSpans(field, w, 2, 2)...)
		}
	}
	return out
}

// isListItem reports whether l starts a list item: "- " or "12. ", after
// any indentation.
func isListItem(l string) bool {
	rest := strings.TrimLeft(l, " ")
	if strings.HasPrefix(rest, "- ") {
		return true
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	return digits > 0 && strings.HasPrefix(rest[digits:], ". ")
}

// isTableRule reports whether a cell is a header rule: "---", ":--:".
func isTableRule(cell string) bool {
	core := strings.Trim(cell, ":")
	return core != "" && strings.Trim(core, "-") == ""
}
