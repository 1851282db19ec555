package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/fang/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
)

// IO is the process's streams and environment, injectable for tests.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Env    []string
}

// app holds what every command shares: streams, global flags, styles, and
// what the terminal has said (asked once per process; see terminal.go).
type app struct {
	io         IO
	kbDir      string
	noColor    bool
	accessible bool
	// answersFile is the root's --answers: the file the app opens on.
	answersFile string

	// detect is the colour-profile detection (detectProfile); profiles
	// keeps its answers for non-terminals [0] and terminals [1].
	detect   func(w io.Writer, env []string) colorprofile.Profile
	profiles [2]colorprofile.Profile
	// darkBackground is askBackground, asked at most once.
	darkBackground func() bool
}

func newApp(stdio IO) *app {
	a := &app{io: stdio, detect: detectProfile}
	a.darkBackground = sync.OnceValue(a.askBackground)
	return a
}

func (a *app) getenv(key string) string {
	for i := len(a.io.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(a.io.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// out wraps w so colour is dropped when w is not a colour terminal, when
// NO_COLOR is set, or when --no-color was given.
func (a *app) out(w io.Writer) *colorprofile.Writer {
	cw := &colorprofile.Writer{Forward: w, Profile: a.profile(w)}
	if a.noColor {
		cw.Profile = colorprofile.NoTTY
	}
	return cw
}

// styles is the palette for text on stdout. The command line never asks
// the terminal for its background (only fang's help page does), so it
// uses the colours every terminal theme adapts to its background.
func (a *app) styles() report.Styles { return report.DefaultStyles() }

// width is the terminal's width when w is one, else a readable 100.
func (a *app) width(w io.Writer) int {
	if f, ok := w.(term.File); ok && term.IsTerminal(f.Fd()) {
		if wd, _, err := term.GetSize(f.Fd()); err == nil && wd > 20 {
			return min(wd, 120)
		}
	}
	return 100
}

// overlayDir is the --kb folder, else STACKPICK_KB, else "".
func (a *app) overlayDir() string {
	if a.kbDir != "" {
		return a.kbDir
	}
	return a.getenv(knowledge.EnvKB)
}

// loadKB loads the knowledge base with the --kb overlay (or STACKPICK_KB).
// A broken overlay is the user's to fix; a broken embedded base is ours.
func (a *app) loadKB() (*knowledge.KB, error) {
	dir := a.overlayDir()
	kb, err := knowledge.Load(dir)
	if err != nil {
		if dir != "" {
			return nil, badInput(err)
		}
		return nil, internal(fmt.Errorf("the built-in knowledge base is broken (a bug in stackpick):\n%w", err))
	}
	return kb, nil
}

// Run executes the command line and returns the process exit code.
func Run(ctx context.Context, args []string, stdio IO) int {
	return newApp(stdio).run(ctx, args)
}

func (a *app) run(ctx context.Context, args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(a.io.Stdin)
	root.SetOut(a.io.Stdout)
	root.SetErr(plainStream{a.io.Stderr})
	err := a.execute(ctx, root)
	if code := exitingCode(); code != 0 {
		return code
	}
	if code := signalCode(ctx); code != 0 {
		// A signal ended the run (see signals.go): whatever the command
		// was writing is removed, and the exit code says which signal.
		store.RemovePending()
		return code
	}
	return codeOf(err)
}

// printError writes err to stderr: every line prefixed so it is greppable,
// and a pointer to --help for usage mistakes.
func (a *app) printError(w io.Writer, _ fang.Styles, err error) {
	var sig *signalled
	if errors.Is(err, errUsageShown) || errors.As(err, &sig) || exiting.code.Load() != 0 {
		// A signal is not a failure to report: the exit code says it.
		// Nor is a write it cut short (see exiting).
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "stackpick: %s\n", line)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(w, "stackpick: run 'stackpick --help' (or 'stackpick COMMAND --help') for usage")
	}
}

// memoDate is the date a memo carries: --date, else SOURCE_DATE_EPOCH (for
// reproducible builds), else today. Only the command line reads the clock.
func (a *app) memoDate(flag string) (string, error) {
	if flag != "" {
		if _, err := time.Parse(time.DateOnly, flag); err != nil {
			return "", badInput(&knowledge.Error{File: "--date", Key: flag, Problem: "not a date", Allowed: "YYYY-MM-DD", Hint: "for example --date " + a.clock()().Format(time.DateOnly)})
		}
		return flag, nil
	}
	return a.clock()().Format(time.DateOnly), nil
}

// clock is what dates memos, here and in the interactive app:
// SOURCE_DATE_EPOCH when set (reproducible output), else the system clock.
func (a *app) clock() func() time.Time {
	if epoch := a.getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		if secs, err := strconv.ParseInt(epoch, 10, 64); err == nil {
			return func() time.Time { return time.Unix(secs, 0).UTC() }
		}
	}
	return time.Now
}
