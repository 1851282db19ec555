// Package tui is stackpick's interactive app: a guided questionnaire with the
// stack re-decided after every answer, the defended result, a browser for
// the knowledge base, and the exit-test drills. One root model builds the
// shared context (size, keys, styles, the screen stack) and hands it to
// small screens, one per screen_<name>.go; the screen contract, the context
// and the frame they are drawn in are ui/tui/screen's, and the drills are
// ui/tui/drills. huh is used for forms only, all of it in forms.go. The app
// never computes or words a decision: it asks the decide package after
// every change, and ui/report words what comes back (the cards, the memo
// and its preview, the palette, the word-wrapping); screens only lay it out
// in boxes, panes and scrolling views. It must not import ui/cli; nothing
// but ui/cli imports it.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// ErrInterrupted is returned when the user quits with ctrl+c.
var ErrInterrupted = errors.New("interrupted")

// Options are the app's settings from the command line.
type Options struct {
	// NoColor draws without colour (--no-color or NO_COLOR); selection
	// stays visible through markers, bold and reverse video.
	NoColor bool
	// Profile is the terminal's colour profile as the command line
	// detected it (inside tmux each detection runs `tmux info`, so it is
	// done once per process); Unknown lets bubbletea detect it.
	Profile colorprofile.Profile
	// Accessible runs the questionnaire as huh's plain line-by-line prompts
	// for screen readers, then prints the decision, instead of the
	// full-screen app.
	Accessible bool
	Env        []string
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer

	// Drill opens the app on this exit-test drill (a drill.Names entry, or
	// "stats"), over the drills menu, instead of on the home screen.
	Drill string
	// DrillSeed seeds the first drill (question order, generated scenario);
	// nil seeds every drill from the clock.
	DrillSeed *uint64
	// DrillScenario plays the scenario drill on this preset instead of a
	// generated scenario.
	DrillScenario string
	// HistoryPath is the drill history file; empty means the XDG state
	// folder's.
	HistoryPath string
	// KBDir is the folder of the knowledge overlay the knowledge base was
	// loaded with (--kb or STACKPICK_KB), empty for the built-in one.
	// Saved answers name it in their replay line, since they decide
	// differently without it.
	KBDir string
	// Open opens the app on an answers file's result, over the home
	// screen (stackpick open FILE); nil starts at home.
	Open *Opened
	// Now is the app's clock: the date of an exported memo, and for the
	// drills the explanation's countdown, the default seeds and the history's
	// time stamps. Nil means time.Now; tests pin it.
	Now func() time.Time
}

// Run starts the app on the terminal and returns when the user quits.
// The full-screen app draws on stderr (or /dev/tty when stderr is
// redirected), so stdout stays clean.
func Run(ctx context.Context, kb *knowledge.KB, list []scenarios.Scenario, opts Options) error {
	if opts.Accessible {
		return runAccessible(kb, list, opts)
	}
	out, closeOut, err := terminalOutput(opts.Stderr)
	if err != nil {
		return err
	}
	defer closeOut()
	popts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithOutput(out),
		tea.WithEnvironment(opts.Env),
		// Frames reach the terminal on the renderer's tick, the first one
		// included: at the 120 fps ceiling a frame waits at most 8 ms, not
		// the default 17.
		tea.WithFPS(120),
	}
	if opts.Stdin != nil {
		popts = append(popts, tea.WithInput(opts.Stdin))
	}
	switch {
	case opts.NoColor:
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	case opts.Profile != colorprofile.Unknown:
		popts = append(popts, tea.WithColorProfile(opts.Profile))
	}
	m := New(kb, list, opts)
	final, err := tea.NewProgram(m, popts...).Run()
	if err != nil {
		return fmt.Errorf("the interactive app failed: %w", err)
	}
	if fm, ok := final.(*Model); ok && fm.Interrupted() {
		return ErrInterrupted
	}
	return nil
}

// terminalOutput is where the app draws: stderr when it is a terminal,
// else the controlling terminal itself.
func terminalOutput(stderr io.Writer) (io.Writer, func(), error) {
	if f, ok := stderr.(term.File); ok && term.IsTerminal(f.Fd()) {
		return stderr, func() {}, nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("the interactive app needs a terminal to draw on: %w", err)
	}
	return tty, func() { tty.Close() }, nil
}
