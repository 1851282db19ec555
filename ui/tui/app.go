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
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// ErrInterrupted is returned when the user quits with ctrl+c.
var ErrInterrupted = errors.New("interrupted")

// ErrHangup is returned when the terminal the app reads went away (its
// input ended or failed: the window was closed, ssh or tmux dropped the
// session) without a SIGHUP reaching stackpick, as under a wrapper shell
// that traps the signal. The command line exits 129 for it, as for SIGHUP.
var ErrHangup = errors.New("the terminal hung up")

// ErrInputEnded is returned when the accessible prompts' input runs out
// (ctrl+d, a short pipe) before the last answer.
var ErrInputEnded = errors.New("the input ended before the last answer; nothing was saved")

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
	// Version is stackpick's version, named in the header of each
	// deployable file the manifests screen writes ("" is "dev").
	Version string
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
//
// The app handles no signal itself (its caller does, for the whole
// process): when ctx ends, it quits, puts the terminal back and returns
// ctx's cause. Before it takes the terminal it hands the context's
// TerminalGuard what puts the terminal back without it.
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
		tea.WithoutSignalHandler(),
		tea.WithOutput(out),
		tea.WithEnvironment(opts.Env),
		// Frames reach the terminal on the renderer's tick, the first one
		// included: at the 120 fps ceiling a frame waits at most 8 ms, not
		// the default 17.
		tea.WithFPS(120),
	}
	in := opts.Stdin
	if in == nil {
		in = os.Stdin
	}
	// Keys are read through a watch for the terminal's end: Bubble Tea
	// (its reader, ultraviolet's StreamEvents) takes a read's end of file
	// for the input's normal end and stops reading, and the app ran on,
	// forever, on a terminal that was gone. The end of a terminal's input
	// in raw mode (where ctrl+d is a key) is a hang-up: the app quits.
	ctx, hangup := context.WithCancelCause(ctx)
	defer hangup(nil)
	popts = append(popts, tea.WithContext(ctx))
	if f, ok := in.(term.File); opts.Stdin != nil || ok && term.IsTerminal(f.Fd()) {
		// (With no Stdin and no terminal there, Bubble Tea opens /dev/tty.)
		popts = append(popts, tea.WithInput(watchHangup(in, func() { hangup(ErrHangup) })))
	}
	switch {
	case opts.NoColor:
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	case opts.Profile != colorprofile.Unknown:
		popts = append(popts, tea.WithColorProfile(opts.Profile))
	}
	m := New(kb, list, opts)
	if guard := GuardOf(ctx); guard != nil {
		defer guard(terminalRestorer(in, out))()
	}
	stops := newStopSignals()
	p := tea.NewProgram(m, append(popts, tea.WithFilter(stops.filter))...)
	defer stops.watch(p)()
	final, err := p.Run()
	// A drill finished as the app quit still has its record written.
	m.c.drills.Flush()
	if ctx.Err() != nil {
		// Ended from outside (a signal) or by the terminal's end: the
		// terminal is back, as far as it still exists; say why.
		return context.Cause(ctx)
	}
	if err != nil {
		return fmt.Errorf("the interactive app failed: %w", err)
	}
	if fm, ok := final.(*Model); ok && fm.Interrupted() {
		return ErrInterrupted
	}
	return nil
}

// TerminalGuard is handed, before the app takes the terminal, restore:
// what puts the terminal back as the app found it. It returns release,
// which the app calls once it has put the terminal back itself. The
// command line's signal handler calls restore when a second signal asks
// it to exit without waiting for the app.
type TerminalGuard func(restore func()) (release func())

type guardKey struct{}

// WithTerminalGuard returns ctx carrying guard, for Run.
func WithTerminalGuard(ctx context.Context, guard TerminalGuard) context.Context {
	return context.WithValue(ctx, guardKey{}, guard)
}

// GuardOf is the TerminalGuard ctx carries, nil when none.
func GuardOf(ctx context.Context) TerminalGuard {
	g, _ := ctx.Value(guardKey{}).(TerminalGuard)
	return g
}

// leaveScreenModes turns off what the app may have turned on: the
// alternate screen, the hidden cursor, bracketed paste, focus and mouse
// reports, and the keyboard enhancements.
var leaveScreenModes = ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
	ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr +
	ansi.ResetModeFocusEvent + ansi.ResetModeBracketedPaste +
	ansi.ResetModeAltScreenSaveCursor + ansi.ShowCursor

// terminalRestorer returns what puts the terminal back as it is now: the
// input's mode (the app makes it raw) and the screen modes off. It asks
// the terminal's state now, before the app changes it.
func terminalRestorer(in io.Reader, out io.Writer) func() {
	var restoreMode func()
	if f, ok := in.(term.File); ok && term.IsTerminal(f.Fd()) {
		if state, err := term.GetState(f.Fd()); err == nil {
			restoreMode = func() { term.Restore(f.Fd(), state) } //nolint:errcheck
		}
	}
	return func() {
		io.WriteString(out, leaveScreenModes) //nolint:errcheck
		if restoreMode != nil {
			restoreMode()
		}
	}
}

// watchHangup returns in, a terminal, reading through a watch that calls
// hungUp when a read ends the input (end of file or an error): in raw mode
// that only happens when the terminal went away. Any other reader is
// returned as it is. The watch is an *os.File still (its Fd and Name
// promoted), so Bubble Tea makes it raw and cancels its reads as before.
func watchHangup(in io.Reader, hungUp func()) io.Reader {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return in
	}
	return &hangupWatch{File: f, hungUp: hungUp}
}

type hangupWatch struct {
	*os.File
	hungUp func()
}

func (h *hangupWatch) Read(p []byte) (int, error) {
	n, err := h.File.Read(p)
	if err != nil && n == 0 && len(p) > 0 {
		h.hungUp()
	}
	return n, err
}

// HungUp reports whether r is a terminal that has hung up: a terminal
// whose far end closed (a closed window, a dropped ssh or tmux session)
// reads end of file and fails every terminal request with EIO (Linux) or
// ENXIO. A live terminal, where end of file is a ctrl+d, and anything
// that is not a terminal are not hung up.
func HungUp(r io.Reader) bool {
	f, ok := r.(term.File)
	if !ok {
		return false
	}
	_, err := term.GetState(f.Fd())
	return errors.Is(err, syscall.EIO) || errors.Is(err, syscall.ENXIO)
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
