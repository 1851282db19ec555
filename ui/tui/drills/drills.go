// Package drills is the app's exit-test drills: the drills menu, one
// screen per drill (taxonomy, scenario, flags, explain), the mock exit test
// that runs the four in a row, and the progress over time. Grading and its
// words are scenarios/drill's, the history file is ui/store's; this package
// only asks the questions, shows the grading and keeps the record through a
// command. Its screens implement screen.Screen and run on the app's
// screen.Context. It must not import ui/tui or ui/cli: ui/tui opens the
// drills (Menu from home, Open for `stackpick drill NAME`).
package drills

import (
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// shared is what every drill screen sees: the app's context and the
// drills' own state.
type shared struct {
	*screen.Context
	drills *State
}

// Menu is the drills menu, as the home screen opens it.
func Menu(c *screen.Context, st *State) screen.Screen {
	return newMenuScreen(&shared{Context: c, drills: st})
}

// Open starts the app on a drill, as `stackpick drill NAME` does: the
// drills menu underneath, so q after the result offers the other drills
// and q again quits, and over it the named drill (a drill.Names entry, or
// "stats").
func Open(c *screen.Context, st *State, name string) {
	s := &shared{Context: c, drills: st}
	c.Push(newMenuScreen(s))
	if d := s.screenFor(name); d != nil {
		c.Push(d)
	}
	if st.notice != "" && c.Status == "" {
		// The whole notice is on the result, the drills menu and the
		// progress; the footer says it at once.
		c.Status = "⚠ Unreadable drill history set aside; a new one starts (details: Progress)"
	}
}

// scenarioPrompt is the scenario a drill plays: the --scenario preset, or
// one generated from the seed.
func (c *shared) scenarioPrompt(seed uint64) drill.ScenarioPrompt {
	d := c.drills
	if d.scenario != "" {
		if s, err := scenarios.Find(c.Scenarios, d.scenario); err == nil {
			return drill.PresetPrompt(s)
		}
	}
	return d.content.GeneratedPrompt(c.KB, seed)
}

// screenFor starts the named drill (or the stats). Content that does
// not load is a bug in stackpick; the menu says so instead of starting.
func (c *shared) screenFor(name string) screen.Screen {
	if err := c.drills.load(c.KB); err != nil {
		c.Status = "The drills cannot start: " + err.Error()
		return nil
	}
	switch name {
	case drill.Taxonomy:
		return newTaxonomyScreen(c, nil)
	case drill.Scenario:
		return newScenarioScreen(c, nil)
	case drill.Flags:
		return newFlagsScreen(c, nil)
	case drill.Explain:
		return newExplainScreen(c, nil)
	case drill.Mock:
		return newMockScreen(c)
	case "stats":
		return newStatsScreen(c)
	}
	return nil
}
