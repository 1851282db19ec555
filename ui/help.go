package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

func visibleWidth(s string) int { return ansi.StringWidth(s) }

// shortHelp is the footer: as many "key action" pairs as fit, then "? more".
func shortHelp(c *shared, bs []key.Binding, w int) string {
	st := c.styles
	more := st.Key.Render("?") + " " + st.Muted.Render("help")
	moreW := visibleWidth(more)
	sep := st.Muted.Render(" · ")
	var b strings.Builder
	used := 0
	for _, k := range bs {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		item := st.Key.Render(h.Key) + " " + st.Muted.Render(h.Desc)
		iw := visibleWidth(item)
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
	return truncate(b.String(), w)
}

// helpView lists every key of the screen, then the keys that work
// everywhere. Two columns when the body is wide enough.
func helpView(c *shared, s screen, w, h int) string {
	st := c.styles
	var entries []key.Binding
	for _, col := range s.help().full {
		entries = append(entries, col...)
	}
	// The footer names ? and ctrl+c while help is open; list them too when
	// there is room.
	if len(entries)+4 <= h || w >= 2*40+4 {
		entries = append(entries, c.keys.Help, c.keys.Quit)
	}
	keyW := 0
	for _, k := range entries {
		keyW = max(keyW, visibleWidth(k.Help().Key))
	}
	var rows []string
	for _, k := range entries {
		if !k.Enabled() {
			continue
		}
		hk := k.Help()
		rows = append(rows, st.Key.Render(padRight(hk.Key, keyW))+"  "+hk.Desc)
	}
	title := st.Heading.Render(truncate("Keys: "+s.title(), w))
	out := []string{title}
	if len(rows)+2 <= h {
		out = append(out, "")
	}
	avail := h - len(out)
	colW := keyW + 2 + 24
	if len(rows) > avail && w >= 2*colW+4 {
		half := (len(rows) + 1) / 2
		for i := range half {
			l := padRight(rows[i], colW+4)
			if i+half < len(rows) {
				l += rows[i+half]
			}
			out = append(out, l)
		}
	} else {
		out = append(out, rows...)
	}
	return strings.Join(out, "\n")
}
