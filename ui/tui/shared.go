package tui

import (
	"slices"
	"time"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// shared is what every screen sees: the knowledge, the size it may draw in,
// the keys and styles, the working answers, and the screen stack. The root
// model owns it; screens hold a pointer and never copy it.
type shared struct {
	kb        *knowledge.KB
	scenarios []scenarios.Scenario
	keys      KeyMap
	styles    Styles
	noColor   bool
	now       func() time.Time // dates exported memos
	kbDir     string           // the knowledge overlay's folder, if any
	drills    *drillState

	// width and height are the body's: the terminal minus header and footer.
	width, height int

	session session
	stack   []screen
	status  string // one-line message shown until the next key press
	quit    bool
}

// push shows s on top of the current screen.
func (c *shared) push(s screen) {
	s.setSize(c.width, c.height)
	c.stack = append(c.stack, s)
}

// pop goes back one screen; popping the last one quits.
func (c *shared) pop() {
	if len(c.stack) <= 1 {
		c.quit = true
		return
	}
	c.stack = c.stack[:len(c.stack)-1]
	c.top().setSize(c.width, c.height)
}

// replace swaps the top screen for s (a form that turns into its result).
func (c *shared) replace(s screen) {
	c.stack = c.stack[:len(c.stack)-1]
	c.push(s)
}

func (c *shared) top() screen { return c.stack[len(c.stack)-1] }

// popTo goes back to the nearest screen that matches, if any.
func (c *shared) popTo(match func(screen) bool) bool {
	for i := len(c.stack) - 1; i >= 0; i-- {
		if match(c.stack[i]) {
			c.stack = c.stack[:i+1]
			c.top().setSize(c.width, c.height)
			return true
		}
	}
	return false
}

// session is the decision being worked on: the answers as they stand and
// the decision the decide package made for them. Screens change answers
// only through set, so the decision is never stale.
type session struct {
	kb       *knowledge.KB
	answers  knowledge.Answers
	decision decide.Decision
	// previous is the decision before the last change, to show what moved.
	previous decide.Decision
	// origin says where the answers came from: "New decision" or a scenario.
	origin string
	// scenario is the preset's name, if the answers came from one.
	scenario string
	// version counts changes, so views know when to lay out again.
	version int
	// saved is what was last saved (or loaded); unsaved compares with it.
	saved     knowledge.Answers
	savedPath string
	started   bool
}

// start begins a session from a full set of answers.
func (s *session) start(kb *knowledge.KB, a knowledge.Answers, origin, scenario string) {
	*s = session{kb: kb, answers: a.Clone(), origin: origin, scenario: scenario, started: true, version: 1}
	s.decision = decide.Decide(kb, s.answers)
	s.previous = s.decision
	// Nothing typed yet can be lost: a preset or the defaults are at hand.
	s.saved = s.answers
}

// markSaved records that the answers as they stand are in path.
func (s *session) markSaved(path string) {
	s.saved = s.answers
	s.savedPath = path
}

// set replaces the answers and re-decides; it reports whether anything
// changed.
func (s *session) set(a knowledge.Answers) bool {
	if s.kb.Same(s.answers, a) {
		return false
	}
	s.answers = a.Clone()
	s.previous = s.decision
	s.decision = decide.Decide(s.kb, s.answers)
	s.version++
	return true
}

// unsaved reports whether answers were entered since the last save.
func (s *session) unsaved() bool {
	return s.started && !s.kb.Same(s.saved, s.answers)
}

// changedLayers lists the layers whose pick or complements moved with the
// last change.
func (s *session) changedLayers() map[string]bool {
	out := map[string]bool{}
	for i, lp := range s.decision.Layers {
		if i >= len(s.previous.Layers) {
			break
		}
		old := s.previous.Layers[i]
		if old.Pick != lp.Pick || !slices.Equal(old.Also, lp.Also) {
			out[lp.Layer] = true
		}
	}
	return out
}
