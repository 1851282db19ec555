package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui"
)

// Who owns the signals. stackpick does, for the whole process, not Bubble
// Tea: Bubble Tea's handler listens only while its program runs, only for
// SIGINT and SIGTERM, and only once. SIGTERM became a normal quit (exit 0),
// SIGINT an error ("the interactive app failed", exit 1), SIGHUP killed the
// process with the terminal raw, and a second SIGTERM, arriving after its
// handler had stopped listening, did the same. It also knows nothing of
// the commands that write files. So the app runs with its handler off
// (tea.WithoutSignalHandler) and this one, installed by main before any
// command runs, decides:
//
//   - The first SIGINT, SIGTERM or SIGHUP while the full-screen app has the
//     terminal cancels the app's context with the signal as its cause: the
//     app quits as when killed, Bubble Tea puts the terminal back, and the
//     process exits 128+n once it has.
//   - The first one at any other time (a command writing a file or a
//     pipe, the plain prompts of --accessible, the line-by-line drills)
//     removes the temporary files of writes in progress, ends the line on
//     a terminal's stderr (endLine), and exits 128+n at once: nothing is
//     left half-done, and a command blocked on a pipe or on stdin does
//     not wait.
//   - A second one, whatever the first was doing, puts the terminal back
//     itself (the state the app found, the screen modes the app sets
//     turned off), removes the temporary files and exits at once, with the
//     first signal's code.
//
// A terminal can also go away with no SIGHUP reaching stackpick (the
// kernel signals only the session's leader, and a wrapper shell that traps
// SIGHUP does not pass it on): its input ends. Every interactive mode
// takes that for a hang-up and exits 129 (tui.ErrHangup, tui.HungUp,
// hungUp below). SIGTSTP suspends the full-screen app through Bubble Tea
// (ui/tui/suspend_unix.go) and is left to the default elsewhere. SIGQUIT
// is left to Go's default, a stack dump, which is what a developer who
// sends it wants.

// interrupts is the process's signal handler.
type interrupts struct {
	mu sync.Mutex
	// first is the first signal received, 0 before any.
	first syscall.Signal
	// restore puts the terminal back while the full-screen app holds it;
	// nil at other times.
	restore func()
	cancel  context.CancelCauseFunc
	// stderr is where a line cut short by a signal is ended (endLine).
	stderr *os.File
	// exit ends the process: os.Exit, or a test's stand-in.
	exit func(code int)
}

// signalled is the cause of the context's end when a signal arrived.
type signalled struct{ sig syscall.Signal }

func (s *signalled) Error() string { return "stopped by " + signalName(s.sig) }

// code is the conventional exit code for a process ended by sig.
func (s *signalled) code() int { return 128 + int(s.sig) }

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// handledSignals are the signals stackpick turns into an orderly exit.
var handledSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// WithSignals routes SIGINT, SIGTERM and SIGHUP through the returned
// context until stop is called (see interrupts): main calls it before Run.
// The context's cause is the signal; Run exits 130, 143 or 129 for it.
func WithSignals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	in := &interrupts{cancel: cancel, stderr: os.Stderr, exit: os.Exit}
	ch := make(chan os.Signal, 2)
	for _, sig := range handledSignals {
		// A signal ignored when the process started stays ignored: nohup
		// (SIGHUP), a background job of a script (SIGINT). Notify would
		// turn it back on.
		if !signal.Ignored(sig) {
			signal.Notify(ch, sig)
		}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				if sig, ok := s.(syscall.Signal); ok {
					in.receive(sig)
				}
			case <-done:
				return
			}
		}
	}()
	ctx = tui.WithTerminalGuard(ctx, in.guard)
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(nil)
		})
	}
}

// receive acts on one signal (see interrupts).
func (in *interrupts) receive(sig syscall.Signal) {
	in.mu.Lock()
	defer in.mu.Unlock()
	fullScreen := in.restore != nil
	if in.first == 0 {
		in.first = sig
		if fullScreen {
			in.cancel(&signalled{sig: sig})
			return
		}
	} else if fullScreen {
		in.restore()
		in.restore = nil
	}
	code := (&signalled{sig: in.first}).code()
	exiting.Lock() // held until the exit: see exiting
	defer exiting.Unlock()
	exiting.code.Store(int32(code))
	store.RemovePending()
	if !fullScreen {
		in.endLine()
	}
	in.exit(code)
}

// exiting is held by the signal handler from the moment it begins to
// remove the files of writes in progress until the process exits, and
// carries the exit code it exits with. A write the handler interrupts
// fails at once (store.ErrStopping, or its temporary file gone before the
// rename), and the command would report that failure and exit 2 before
// the handler's own exit: the run ends by the signal instead, with its
// code and nothing printed (exitingCode).
var exiting struct {
	sync.Mutex
	code atomic.Int32
}

// exitingCode is 0 while no signal handler is exiting the process. Once
// one is, it waits for that exit (which ends the process, so in practice
// it never returns) and otherwise returns the handler's code.
func exitingCode() int {
	if exiting.code.Load() == 0 {
		return 0
	}
	exiting.Lock()
	defer exiting.Unlock()
	return int(exiting.code.Load())
}

// endLine ends the line a signal cut short: a prompt of --accessible or of
// a line-mode drill, or a command's output, waits on the terminal without
// its newline, and the shell's prompt would be drawn after it on the same
// line ("Enter a number between 1 and 10: $"). Where the cursor is cannot
// be asked without reading the terminal's answer, so on a terminal the
// newline is always written; off one (a pipe, a file) nothing is.
func (in *interrupts) endLine() {
	if in.stderr != nil && term.IsTerminal(in.stderr.Fd()) {
		in.stderr.WriteString("\n") //nolint:errcheck
	}
}

// guard is handed, by the full-screen app before it takes the terminal,
// what puts the terminal back; the app calls release once it has put the
// terminal back itself.
func (in *interrupts) guard(restore func()) (release func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.restore = restore
	return func() {
		in.mu.Lock()
		defer in.mu.Unlock()
		in.restore = nil
	}
}

// hungUp is the error of a run whose terminal went away without a SIGHUP
// reaching stackpick (its input ended: see tui.ErrHangup): exit 129, as
// for the signal, and nothing to report (there is no terminal to read it).
func hungUp() error {
	return &exitError{code: ExitHangup, err: &signalled{sig: syscall.SIGHUP}}
}

// signalCode is the exit code for a run ended by a signal (ctx's cause),
// 0 when no signal ended it.
func signalCode(ctx context.Context) int {
	var s *signalled
	if errors.As(context.Cause(ctx), &s) {
		return s.code()
	}
	return 0
}
