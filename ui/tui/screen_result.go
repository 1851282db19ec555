package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// resultScreen is the defended decision: it opens on the summary, which
// fits the screen, and the details follow as sections that open and close
// (enter or space on the focused one, tab and shift+tab to move, o for all
// of them, n for the course-notes page of the stack's products, t for the trace view with
// rule ids and scores). The decision is worded when it is given a size,
// when the answers or the palette change and when the view switches to or
// from the trace, never while drawing; opening a section joins lines
// already worded.
type resultScreen struct {
	c      *shared
	vp     viewport.Model
	layout resultLayout
	// offsets is the line of each section's title in the content.
	offsets []int
	open    map[string]bool
	focus   int // the focused section, -1: none (the summary)
	trace   bool
	laid    struct {
		version, w, h int
		dark, trace   bool
	}
	w, h int
}

// The result screen's own keys; p, c and l are left for the pin, copy and
// plain launch views.
var (
	resultNext    = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next section"))
	resultPrev    = key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous section"))
	resultToggle  = key.NewBinding(key.WithKeys("enter", "space"), key.WithHelp("enter/space", "open/close"))
	resultOpenAll = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open/close all"))
	resultNotes   = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "course-notes changes"))
	resultTrace   = key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "trace view"))
)

func newResultScreen(c *shared) *resultScreen {
	return &resultScreen{c: c, vp: viewport.New(), open: map[string]bool{}, focus: -1}
}

func (s *resultScreen) Title() string {
	if s.trace {
		return "Decision (trace) · " + s.c.session.origin
	}
	return "Decision · " + s.c.session.origin
}

func (s *resultScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h-1, 1))
	s.relayout()
}

// relayout words the decision again if the decision, the size, the
// palette or the view changed, then joins the content.
func (s *resultScreen) relayout() {
	c := s.c
	l := &s.laid
	if l.version != c.session.version || l.w != s.w || l.h != s.h || l.dark != c.Styles.Dark || l.trace != s.trace || s.offsets == nil {
		s.layout = layoutResult(c, s.w, s.vp.Height(), s.trace)
		if l.version != c.session.version {
			s.focus = min(s.focus, len(s.layout.sections)-1)
		}
		l.version, l.w, l.h, l.dark, l.trace = c.session.version, s.w, s.h, c.Styles.Dark, s.trace
	}
	s.join()
}

// join lays the worded lines out with the sections open as they are.
func (s *resultScreen) join() {
	content, offsets := s.layout.content(s.c, s.w, s.open, s.focus, s.c.session.changedLayers())
	y := s.vp.YOffset()
	s.vp.SetContent(content)
	s.vp.SetYOffset(y)
	s.offsets = offsets
}

// focusOn moves the focus to section i and brings its title into view,
// with as much of an open section as fits below it.
func (s *resultScreen) focusOn(i int) {
	if len(s.offsets) == 0 {
		return
	}
	i = max(min(i, len(s.offsets)-1), 0)
	s.focus = i
	s.join()
	top := s.vp.YOffset()
	if off := s.offsets[i]; off < top || off >= top+s.vp.Height()-1 {
		s.vp.SetYOffset(off)
	}
}

func (s *resultScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.relayout() // the root model has just rebuilt the styles
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := c.Keys
	switch {
	case key.Matches(k, resultNext):
		s.focusOn(s.focus + 1)
	case key.Matches(k, resultPrev):
		if s.focus <= 0 {
			s.focus = -1
			s.join()
			s.vp.GotoTop()
		} else {
			s.focusOn(s.focus - 1)
		}
	case key.Matches(k, resultToggle):
		// Only a focused section opens: an enter still on its way from
		// the questionnaire must not scroll the summary away.
		if id := s.focusedID(); id != "" {
			s.open[id] = !s.open[id]
			s.focusOn(s.focus)
			if s.open[id] {
				s.vp.SetYOffset(s.offsets[s.focus]) // what was opened, from its title
			}
		}
	case key.Matches(k, resultOpenAll):
		all := true
		for _, sec := range s.layout.sections {
			all = all && s.open[sec.ID]
		}
		for _, sec := range s.layout.sections {
			s.open[sec.ID] = !all
		}
		s.join()
	case key.Matches(k, resultNotes):
		if flags, notes := report.CourseNotesGone(c.KB, c.session.decision); flags+notes > 0 {
			c.Push(newStackChangesScreen(c, report.PlacedProducts(c.session.decision)))
		}
	case key.Matches(k, resultTrace):
		s.trace = !s.trace
		id := s.focusedID()
		s.relayout()
		s.focus = -1
		for i, sec := range s.layout.sections {
			if sec.ID == id {
				s.focus = i
			}
		}
		s.join()
	case key.Matches(k, keys.Edit):
		focus := ""
		d := c.session.decision
		layer := ""
		if id := s.focusedID(); id != "" {
			layer = s.layout.sections[s.focus].Layer
		}
		for _, lp := range d.Layers {
			if (layer == "" || lp.Layer == layer) && len(lp.Flips) > 0 && focus == "" {
				focus = lp.Flips[0].Answer
			}
		}
		c.Push(newAnswersScreen(c, focus))
	case key.Matches(k, keys.Save):
		c.Push(newSaveScreen(c))
	case key.Matches(k, keys.Export):
		c.Push(newExportScreen(c))
	case key.Matches(k, keys.Manifests):
		c.Push(newManifestScreen(c))
	case key.Matches(k, keys.Pin):
		togglePin(c)
	case key.Matches(k, keys.Diff):
		openDiff(c)
	case key.Matches(k, keys.Form):
		if !c.PopTo(func(s screen.Screen) bool { _, ok := s.(*formScreen); return ok }) {
			c.Push(newFormScreen(c))
		}
	default:
		if cmd, ok := launchKey(c, k); ok {
			return cmd
		}
		return scrollKeys(c, &s.vp, k)
	}
	return nil
}

func (s *resultScreen) focusedID() string {
	if s.focus < 0 || s.focus >= len(s.layout.sections) {
		return ""
	}
	return s.layout.sections[s.focus].ID
}

func (s *resultScreen) View() string {
	c := s.c
	st := c.Styles
	// The position shows only when there is somewhere to scroll to.
	right := ""
	if s.vp.TotalLineCount() > s.vp.Height() {
		if s.focus >= 0 && s.w >= 60 {
			right = fmt.Sprintf("%d/%d · ", s.focus+1, len(s.offsets))
		}
		right += percent(s.vp.ScrollPercent())
	}
	prefix := ""
	if len(c.session.changedLayers()) > 0 {
		prefix = "» "
	}
	room := s.w - len([]rune(prefix))
	if right != "" && s.w >= 40 {
		room -= screen.VisibleWidth(right) + 1
	}
	line := report.ShortStackLine(c.KB, c.session.decision, max(room, 1))
	if strings.HasPrefix(line, "Stack: ") {
		line = st.Muted.Render("Stack: ") + st.Pick.Render(strings.TrimPrefix(line, "Stack: "))
	} else {
		line = st.Pick.Render(line)
	}
	if prefix != "" {
		line = st.Changed.Render(prefix) + line
	}
	if right != "" && s.w >= 40 {
		right = st.Muted.Render(" " + right)
		line = padRight(truncate(line, s.w-screen.VisibleWidth(right)), s.w-screen.VisibleWidth(right)) + right
	}
	return truncate(line, s.w) + "\n" + s.vp.View()
}

func percent(p float64) string { return fmt.Sprintf("%d%%", int(p*100+0.5)) }

func (s *resultScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	// space opens a section here, so only pgdn and f page down.
	pageDown := key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn/f", "page down"))
	return screen.KeyHelp{
		Short: []key.Binding{resultNext, resultToggle, k.Edit, k.Save, screen.WithHelp(k.Export, "export"), screen.WithHelp(k.Manifests, "files"), k.Back},
		Full: [][]key.Binding{
			{resultNext, resultPrev, resultToggle, resultOpenAll, resultNotes, resultTrace},
			{scroll, k.PageUp, pageDown, k.Top, k.Bottom},
			{k.Edit, k.Save, k.Export, k.Manifests, k.Form, k.Pin, k.Diff, k.Back},
			{k.Copy, k.LaunchView},
		},
	}
}
