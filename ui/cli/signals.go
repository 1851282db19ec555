package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"

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
//     removes the temporary files of writes in progress and exits 128+n
//     at once: nothing is left half-done, and a command blocked on a pipe
//     or on stdin does not wait.
//   - A second one, whatever the first was doing, puts the terminal back
//     itself (the state the app found, the screen modes the app sets
//     turned off), removes the temporary files and exits at once, with the
//     first signal's code.

// interrupts is the process's signal handler.
type interrupts struct {
	mu sync.Mutex
	// first is the first signal received, 0 before any.
	first syscall.Signal
	// restore puts the terminal back while the full-screen app holds it;
	// nil at other times.
	restore func()
	cancel  context.CancelCauseFunc
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
	in := &interrupts{cancel: cancel}
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
	if in.first == 0 {
		in.first = sig
		if in.restore != nil {
			in.cancel(&signalled{sig: sig})
			return
		}
	} else if in.restore != nil {
		in.restore()
		in.restore = nil
	}
	store.RemovePending()
	os.Exit((&signalled{sig: in.first}).code())
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

// signalCode is the exit code for a run ended by a signal (ctx's cause),
// 0 when no signal ended it.
func signalCode(ctx context.Context) int {
	var s *signalled
	if errors.As(context.Cause(ctx), &s) {
		return s.code()
	}
	return 0
}
