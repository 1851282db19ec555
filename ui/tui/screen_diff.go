package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// Two decisions side by side in the app: the result screen's p pins the
// decision as it stands as A; after the answers change, d shows A beside
// the decision as it stands now (B), worded by report.DiffLines.

// pinnedDecision is decision A: the answers it was made for, the decision
// and the label it is shown under.
type pinnedDecision struct {
	answers  knowledge.Answers
	decision decide.Decision
	label    string
}

// togglePin is the result screen's p: it pins the decision as it stands
// as A; pressed again on the same answers it unpins, on other answers it
// pins the new decision in A's place. The status line says which.
func togglePin(c *shared) {
	s := &c.session
	stack := report.StackLine(c.KB, s.decision)
	switch {
	case s.pinned != nil && c.KB.Same(s.pinned.answers, s.answers):
		s.pinned = nil
		c.Status = "Unpinned A (p pins this decision again)"
		return
	case s.pinned != nil:
		c.Status = "Re-pinned A to this decision: " + stack + " (was " + report.StackLine(c.KB, s.pinned.decision) + ")"
	default:
		c.Status = "Pinned as A (e changes answers, then d shows A beside B): " + stack
	}
	s.pinned = &pinnedDecision{answers: s.answers.Clone(), decision: s.decision, label: originLabel(c, s.answers)}
}

// originLabel names where answers came from: the session's origin (a
// preset's title, a file), and the answers changed from the preset when
// they differ from it: "The exit test: … (changed: kubernetes)". A
// preset's title alone would describe answers these no longer are.
func originLabel(c *shared, answers knowledge.Answers) string {
	label := c.session.origin
	if sc := scenarioNamed(c.Scenarios, c.session.scenario); sc != nil {
		var keys []string
		for _, ch := range c.KB.Diff(sc.Answers, answers) {
			keys = append(keys, ch.Q.Key)
		}
		if len(keys) > 0 {
			label += " (changed: " + strings.Join(keys, ", ") + ")"
		}
	}
	return label
}

// openDiff is the result screen's d: A beside B, or a word on what to do
// first when nothing is pinned.
func openDiff(c *shared) {
	if c.session.pinned == nil {
		c.Status = "Nothing is pinned: p pins this decision as A, then change answers and press d"
		return
	}
	c.Push(newDiffScreen(c))
}

// pinnedMark is the header's note that a decision is pinned.
func pinnedMark(c *shared) string {
	if c.session.started && c.session.pinned != nil {
		return "A pinned"
	}
	return ""
}

// pinnedForMemo is the pinned decision for the memo's options, when one
// is pinned and differs from the decision being exported.
func pinnedForMemo(c *shared) (label string, d decide.Decision, ok bool) {
	p := c.session.pinned
	if p == nil || c.KB.Same(p.answers, c.session.answers) {
		return "", decide.Decision{}, false
	}
	return p.label, p.decision, true
}

// diffScreen shows A beside B in a scrolling view. It lays the diff out
// when it is given a size and when the palette changes; View only shows
// the laid-out lines.
type diffScreen struct {
	c        *shared
	vp       viewport.Model
	diff     report.DecisionDiff
	rendered struct {
		w    int
		dark bool
	}
	w, h int
}

func newDiffScreen(c *shared) *diffScreen {
	s := &diffScreen{c: c, vp: viewport.New()}
	p := c.session.pinned
	s.diff = report.DiffDecisions(c.KB, p.decision, c.session.decision, "pinned · "+p.label, "now · "+originLabel(c, c.session.answers))
	return s
}

func (s *diffScreen) Title() string { return "A · B" }

func (s *diffScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h, 1))
	s.layout()
}

func (s *diffScreen) layout() {
	c := s.c
	if s.rendered.w == s.w && s.rendered.dark == c.Styles.Dark {
		return
	}
	lines := report.DiffLines(s.diff, c.Styles, s.w)
	y := s.vp.YOffset()
	s.vp.SetContentLines(lines)
	s.vp.SetYOffset(y)
	s.rendered.w, s.rendered.dark = s.w, c.Styles.Dark
}

func (s *diffScreen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		s.layout()
	case tea.KeyPressMsg:
		return scrollKeys(s.c, &s.vp, msg)
	}
	return nil
}

func (s *diffScreen) View() string { return s.vp.View() }

func (s *diffScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{scroll, k.PageDown, screen.WithHelp(k.Back, "back to B")},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Back}},
	}
}
