package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// memoPreviewScreen shows the memo about to be written, drawn from its own
// Markdown by report.PaintMarkdown, in a scrolling view; enter writes the
// file. It lays the memo out when it is given a size and when the palette
// changes, never while drawing: View only shows the laid-out lines.
type memoPreviewScreen struct {
	c        *shared
	export   *exportScreen
	vp       viewport.Model
	rendered struct {
		w    int
		dark bool
	}
	w, h int
}

func newMemoPreviewScreen(c *shared, e *exportScreen) *memoPreviewScreen {
	return &memoPreviewScreen{c: c, export: e, vp: viewport.New()}
}

func (s *memoPreviewScreen) Title() string { return "Memo preview" }

func (s *memoPreviewScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h-1, 1))
	s.layout()
}

// layout paints the memo at the current width and palette, unless the
// lines already laid out are those.
func (s *memoPreviewScreen) layout() {
	c := s.c
	if s.rendered.w == s.w && s.rendered.dark == c.Styles.Dark {
		return
	}
	lines := report.PaintMarkdown(s.export.memo, c.Styles, max(s.w-2, 10))
	for i, l := range lines {
		if l != "" {
			lines[i] = " " + l
		}
	}
	y := s.vp.YOffset()
	s.vp.SetContentLines(lines)
	s.vp.SetYOffset(y)
	s.rendered.w, s.rendered.dark = s.w, c.Styles.Dark
}

func (s *memoPreviewScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		s.layout() // the root model has just rebuilt the styles
	case memoWrittenMsg:
		return s.export.written(msg)
	case tea.KeyPressMsg:
		if key.Matches(msg, c.Keys.Enter) {
			return s.export.write(false)
		}
		return scrollKeys(c, &s.vp, msg)
	}
	return nil
}

func (s *memoPreviewScreen) View() string {
	st := s.c.Styles
	path := strings.TrimSpace(s.export.path)
	right := ""
	if s.vp.TotalLineCount() > s.vp.Height() {
		right = " " + percent(s.vp.ScrollPercent())
	}
	left := truncate(st.Muted.Render(" To ")+st.Key.Render(path)+st.Muted.Render(" · enter writes it"), s.w-screen.VisibleWidth(right))
	line := padRight(left, s.w-screen.VisibleWidth(right)) + st.Muted.Render(right)
	return line + "\n" + s.vp.View()
}

func (s *memoPreviewScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	write := screen.WithHelp(k.Enter, "write the file")
	back := key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "change the path"))
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{write, back, scroll},
		Full: [][]key.Binding{
			{write, back},
			{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		},
	}
}
