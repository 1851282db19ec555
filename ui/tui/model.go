package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/drills"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// Model is the root of the app: the only tea.Model. It builds the shared
// context and the first screens, and runs them in a screen.Frame, which
// owns the terminal size and routes every message.
type Model struct {
	c     *shared
	frame *screen.Frame
}

// New builds the app at its home screen. The first frame needs no terminal
// query: styles start dark and switch when the terminal says it is light.
func New(kb *knowledge.KB, list []scenarios.Scenario, opts Options) *Model {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	c := &shared{
		Context: &screen.Context{
			KB:        kb,
			Decider:   decide.Compile(kb),
			Scenarios: list,
			Keys:      screen.DefaultKeyMap(),
			Styles:    screen.NewStyles(true),
		},
		noColor: opts.NoColor,
		now:     now,
		kbDir:   opts.KBDir,
		version: opts.Version,
		drills:  drills.NewState(drills.Options{HistoryPath: opts.HistoryPath, Seed: opts.DrillSeed, Scenario: opts.DrillScenario}, now),
	}
	c.NewConfirm = func(question, explanation string, decided func(yes bool) tea.Cmd) screen.Screen {
		return newConfirmScreen(c, question, explanation, decided)
	}
	m := &Model{c: c, frame: screen.NewFrame(c.Context)}
	m.frame.Unsaved = c.session.unsaved
	m.frame.Moved = func(before []screen.Screen) { noteLeft(c, before) }
	m.frame.Mark = func() string { return pinnedMark(c) }
	if opts.Drill == "" {
		c.Push(newHomeScreen(c))
		openAtStart(c, opts.Open)
		return m
	}
	drills.Open(c.Context, c.drills, opts.Drill)
	return m
}

// Init asks the terminal for its background colour and starts the first
// screen's timer, if it has one.
func (m *Model) Init() tea.Cmd { return m.frame.Init() }

// Interrupted reports whether the user quit with ctrl+c.
func (m *Model) Interrupted() bool { return m.frame.Interrupted() }

// Update hands a message to the frame.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) { return m, m.frame.Update(msg) }

// View draws the frame, always exactly the terminal's size.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame.Render())
	v.AltScreen = true
	v.WindowTitle = "stackpick"
	return v
}
