package screen

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/stackpick/stackpick/ui/report"
)

// shortHelp is the footer: as many "key action" pairs as fit, then the key
// that opens the help: "? help", or "f1 help" in free text, where ? is
// typed as a question mark.
func shortHelp(c *Context, bs []key.Binding, w int, inText bool) string {
	st := c.Styles
	helpKey := "?"
	if inText {
		helpKey = "f1"
	}
	more := st.Key.Render(helpKey) + " " + st.Muted.Render("help")
	moreW := VisibleWidth(more)
	sep := st.Muted.Render(" · ")
	var b strings.Builder
	used := 0
	for _, k := range bs {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		item := st.Key.Render(h.Key) + " " + st.Muted.Render(h.Desc)
		iw := VisibleWidth(item)
		if used > 0 {
			iw += 3
		}
		if used+iw+3+moreW > w {
			break
		}
		if used > 0 {
			b.WriteString(sep)
		}
		b.WriteString(st.Key.Render(h.Key) + " " + st.Muted.Render(h.Desc))
		used += iw
	}
	if used > 0 {
		b.WriteString(sep)
	}
	b.WriteString(more)
	return report.Truncate(b.String(), w)
}

// helpLines is the full help of a screen: every key it names, then the
// keys that work everywhere, one "key  action" per entry. Two columns when
// the body is wide enough for both and one would not fit; in one column an
// action too long for the width wraps under itself.
func helpLines(c *Context, s Screen, w, h int) []string {
	st := c.Styles
	var entries []key.Binding
	for _, col := range s.Help().Full {
		for _, k := range col {
			if k.Enabled() {
				entries = append(entries, k)
			}
		}
	}
	entries = append(entries, c.Keys.Help, c.Keys.Quit)
	keyW, rowW := 0, 0
	for _, k := range entries {
		keyW = max(keyW, VisibleWidth(k.Help().Key))
	}
	for _, k := range entries {
		rowW = max(rowW, keyW+2+VisibleWidth(k.Help().Desc))
	}
	row := func(k key.Binding) string {
		hk := k.Help()
		return st.Key.Render(report.PadRight(hk.Key, keyW)) + "  " + hk.Desc
	}
	var out []string
	if len(entries) > h && 2*rowW+4 <= w {
		half := (len(entries) + 1) / 2
		for i := range half {
			l := row(entries[i])
			if i+half < len(entries) {
				l = report.PadRight(l, rowW+4) + row(entries[i+half])
			}
			out = append(out, l)
		}
		return out
	}
	descW := max(w-keyW-2, 10)
	for _, k := range entries {
		hk := k.Help()
		for i, l := range report.Wrap(hk.Desc, descW, 0, 0) {
			name := ""
			if i == 0 {
				name = hk.Key
			}
			out = append(out, st.Key.Render(report.PadRight(name, keyW))+"  "+l)
		}
	}
	return out
}

// helpView draws the help in w×h from line top of the list (clamped), and
// returns the clamped top and the largest top there is: when the list is
// longer than the body it scrolls, and the title line says where it is.
func helpView(c *Context, s Screen, w, h, top int) (string, int, int) {
	st := c.Styles
	title := "Keys: " + s.Title()
	gap := h >= 6 // a blank line under the title
	room := h - 1
	if gap {
		room--
	}
	rows := helpLines(c, s, w, max(room, 1))
	if len(rows) > room && gap {
		// Scrolling: the blank line is worth more as a row.
		gap = false
		room++
	}
	room = max(room, 1)
	maxTop := max(len(rows)-room, 0)
	top = max(0, min(top, maxTop))
	head := st.Heading.Render(title)
	if maxTop > 0 {
		pos := st.Muted.Render(fmt.Sprintf(" %d–%d of %d", top+1, min(top+room, len(rows)), len(rows)))
		head = report.PadRight(report.Truncate(head, w-VisibleWidth(pos)), w-VisibleWidth(pos)) + pos
	}
	out := []string{report.Truncate(head, w)}
	if gap {
		out = append(out, "")
	}
	out = append(out, rows[top:min(top+room, len(rows))]...)
	return strings.Join(out, "\n"), top, maxTop
}
