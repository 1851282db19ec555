package tui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui/drills"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// shared is what every screen of the app sees: the screen.Context (the
// knowledge, the size, the keys, the styles and the stack), and what only
// the app's own screens need: the working answers, the clock that dates
// memos, the knowledge overlay's folder and the drills' state. The root
// model owns it; screens hold a pointer and never copy it.
type shared struct {
	*screen.Context
	noColor bool
	now     func() time.Time // dates exported memos
	kbDir   string           // the knowledge overlay's folder, if any
	version string           // stackpick's version, for the manifests' headers
	drills  *drills.State

	session session
}

// session is the decision being worked on: the answers as they stand and
// the decision the decide package made for them. Screens change answers
// only through set, so the decision is never stale.
type session struct {
	kb       *knowledge.KB
	decider  *decide.Compiled
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
	// pinned is decision A, shown beside this one (screen_diff.go); it
	// outlives starting another decision, so two presets can be compared.
	pinned *pinnedDecision
}

// start begins a session from a full set of answers.
func (s *session) start(dec *decide.Compiled, a knowledge.Answers, origin, scenario string) {
	*s = session{kb: dec.KB(), decider: dec, answers: a.Clone(), origin: origin, scenario: scenario, started: true, version: 1, pinned: s.pinned}
	s.decision = dec.Decide(s.answers)
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
	s.decision = s.decider.Decide(s.answers)
	s.version++
	return true
}

// settle takes the decision as it stands as the one the next change is
// compared with: nothing is marked as moved until something moves again.
func (s *session) settle() { s.previous = s.decision }

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

// replaceAnswers runs then, which replaces the session's answers, at once
// when nothing is unsaved; else it asks question first, so nothing typed
// is lost without a yes.
func replaceAnswers(c *shared, question string, then func() tea.Cmd) tea.Cmd {
	if !c.session.unsaved() {
		return then()
	}
	return c.Confirm(question,
		"The answers of \""+c.session.origin+"\" are not saved and will be replaced.",
		func(yes bool) tea.Cmd {
			c.Pop()
			if yes {
				return then()
			}
			return nil
		})
}
