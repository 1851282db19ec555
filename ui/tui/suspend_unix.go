//go:build unix

package tui

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// stopSignals makes a stop signal sent to the full-screen app (kill -TSTP,
// a job-control shell stopping its job) suspend it as a well-behaved
// full-screen program does: the terminal put back (the main screen, the
// cursor shown, the mode the app found), then the process stopped, and on
// SIGCONT (fg, bg, kill -CONT) the terminal taken back and the screen
// repainted. Left to the default, the process stopped with the alternate
// screen on and the cursor hidden: the shell's prompt was drawn inside
// the app's screen, and after fg nothing was repainted.
//
// Bubble Tea's suspend does the work (tea.SuspendMsg: it releases the
// terminal, stops the process group with SIGTSTP, waits for SIGCONT, takes
// the terminal back and repaints). But once a Go program has asked for
// SIGTSTP (signal.Notify), the runtime keeps its handler even after
// signal.Stop, and SIGTSTP no longer stops the process. So the watch keeps
// SIGTSTP for the app's whole run: the first one asks for the suspend, and
// the one Bubble Tea then sends (the terminal released by now) is turned
// into a SIGSTOP, which stops the process group as SIGTSTP would have. A
// SIGTSTP ignored when stackpick started (an orphaned process group)
// stays ignored.
type stopSignals struct {
	ch   chan os.Signal
	done chan struct{}
	// suspending is set from the suspend asked for until the app resumed.
	suspending atomic.Bool
}

func newStopSignals() *stopSignals {
	if signal.Ignored(syscall.SIGTSTP) {
		return nil
	}
	return &stopSignals{ch: make(chan os.Signal, 1), done: make(chan struct{})}
}

// filter is the program's message filter: a resume ends the suspend.
func (s *stopSignals) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	if _, ok := msg.(tea.ResumeMsg); ok && s != nil {
		s.suspending.Store(false)
	}
	return msg
}

// watch turns the stop signals into p's suspends until stop is called.
func (s *stopSignals) watch(p *tea.Program) (stop func()) {
	if s == nil {
		return func() {}
	}
	signal.Notify(s.ch, syscall.SIGTSTP)
	go func() {
		for {
			select {
			case <-s.ch:
				if s.suspending.CompareAndSwap(false, true) {
					go p.Send(tea.SuspendMsg{})
				} else {
					syscall.Kill(0, syscall.SIGSTOP) //nolint:errcheck
				}
			case <-s.done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(s.ch)
		close(s.done)
	}
}
