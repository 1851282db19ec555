package tui

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

// markdownLines renders src as styled lines at most w cells wide.
func markdownLines(c *shared, src string, w int) []string {
	st := &c.styles
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
				out = append(out, wrapSpans([]span{styled(strings.TrimLeft(code, " "), &st.Muted)}, w, 2+lead, 4)...)
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
			out = append(out, wrapSpans(inlineSpans(c, strings.TrimSpace(l[level:]), hs), w, 0, 2)...)
		case strings.HasPrefix(l, "|"):
			var rows [][]string
			for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				rows = append(rows, tableCells(lines[i]))
			}
			i--
			out = append(out, tableLines(c, rows, w)...)
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
			item := append([]span{styled(marker, ms), plain(" ")}, inlineSpans(c, text, nil)...)
			out = append(out, wrapSpans(item, w, 2*depth, ansi.StringWidth(marker)+1)...)
		default:
			out = append(out, wrapSpans(inlineSpans(c, l, nil), w, 0, 0)...)
		}
	}
	return out
}

// inlineSpans parses inline Markdown: `code`, **bold**, <https://…> and
// backslash escapes. Plain text takes base (nil: unstyled).
func inlineSpans(c *shared, s string, base *lipgloss.Style) []span {
	st := &c.styles
	var out []span
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
		out = append(out, span{text: text.String(), style: style})
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
			out = append(out, styled(s[i+1:i+1+end], &st.Key))
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
			out = append(out, styled(s[i+1:i+end], &st.RuleID))
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
func tableLines(c *shared, rows [][]string, w int) []string {
	st := &c.styles
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
	cells := make([][][]span, len(body))
	natural := make([]int, n)
	for j, h := range head {
		natural[j] = ansi.StringWidth(h)
	}
	for i, r := range body {
		cells[i] = make([][]span, n)
		for j := range n {
			if j < len(r) {
				cells[i][j] = inlineSpans(c, r[j], nil)
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
		return tableRecords(c, head, cells, w)
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
					b.WriteString(padRight(cell, widths[j]) + strings.Repeat(" ", gap))
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
		hdr[j] = wrapSpans([]span{styled(h, &st.Heading)}, widths[j], 0, 0)
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
			cols[j] = wrapSpans(cell, widths[j], 0, hang)
		}
		out = append(out, row(cols)...)
	}
	return out
}

// tableRecords is a table for a narrow screen: one record per row.
func tableRecords(c *shared, head []string, cells [][][]span, w int) []string {
	st := &c.styles
	var out []string
	for i, r := range cells {
		if i > 0 {
			out = append(out, "")
		}
		first := append([]span{styled("•", &st.Key), plain(" ")}, r[0]...)
		out = append(out, wrapSpans(first, w, 0, 2)...)
		for j := 1; j < len(r); j++ {
			if len(r[j]) == 0 {
				continue
			}
			field := append([]span{styled(head[j]+":", &st.Muted), plain(" ")}, r[j]...)
			out = append(out, wrapSpans(field, w, 2, 2)...)
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
