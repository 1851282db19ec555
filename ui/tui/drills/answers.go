package drills

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// choiceList is a numbered list of answers to pick from: the products of a
// layer, four effects of a flag. Long answers wrap under their number.
type choiceList struct {
	labels []string
	cursor int
}

// update moves the cursor or picks; it reports the index picked, or -1.
// A number key picks at once.
func (l *choiceList) update(k tea.KeyPressMsg, keys screen.KeyMap) int {
	n := len(l.labels)
	switch {
	case key.Matches(k, keys.Up):
		l.cursor = (l.cursor + n - 1) % n
	case key.Matches(k, keys.Down):
		l.cursor = (l.cursor + 1) % n
	case key.Matches(k, keys.Enter):
		return l.cursor
	default:
		if s := k.String(); len(s) == 1 && s[0] >= '1' && int(s[0]-'0') <= n {
			l.cursor = int(s[0] - '1')
			return l.cursor
		}
	}
	return -1
}

// render draws the list w wide; it returns the lines and the first line of
// the cursor's entry, so a small screen can keep it in view.
func (l *choiceList) render(st screen.Styles, w int, focused bool) ([]string, int) {
	var out []string
	at := 0
	for i, label := range l.labels {
		num := fmt.Sprintf("%d ", i+1)
		lines := report.Wrap(label, w-1, 4, 0) // a cell for the selection's trailing space
		if i == l.cursor {
			at = len(out)
		}
		for j, line := range lines {
			text := strings.TrimLeft(line, " ")
			prefix := "    "
			if j == 0 {
				prefix = "  " + num
				if i == l.cursor && focused {
					prefix = "› " + num
				}
			}
			switch {
			case i == l.cursor && focused:
				out = append(out, report.Truncate(st.Selected.Render(prefix+text+" "), w))
			case j == 0:
				out = append(out, report.Truncate(prefix[:2]+st.Key.Render(num)+st.Text.Render(text), w))
			default:
				out = append(out, report.Truncate(prefix+text, w))
			}
		}
	}
	return out, at
}

// newLineInput is a one-line text field with a steady cursor.
func newLineInput(c *shared, placeholder string, w int) textinput.Model {
	ti := textinput.New()
	ti.Prompt = "> "
	ti.Placeholder = placeholder
	ti.CharLimit = 300
	ti.SetStyles(lineInputStyles(c))
	ti.SetWidth(max(w-3, 4))
	return ti
}

// lineInputStyles are a text field's styles for the app's background.
func lineInputStyles(c *shared) textinput.Styles {
	st := textinput.DefaultStyles(c.Styles.Dark)
	st.Cursor.Blink = false
	st.Focused.Prompt = c.Styles.Key
	st.Blurred.Prompt = c.Styles.Muted
	st.Focused.Placeholder = c.Styles.Muted
	st.Blurred.Placeholder = c.Styles.Muted
	return st
}
