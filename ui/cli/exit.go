package cli

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/store"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitInternal = 1
	ExitBadInput = 2
	// ExitNoFiles: stackpick manifest writes no files for the stack (a
	// known limit, with the reason): not a bug, not the user's mistake.
	ExitNoFiles     = 3
	ExitEnvironment = 74  // sysexits' EX_IOERR: the disk is full, read-only or failing
	ExitInterrupted = 130 // ctrl+c in the interactive app
	ExitHangup      = 129 // SIGHUP: the terminal went away (128+1)
	ExitTerminated  = 143 // SIGTERM (128+15)
)

// exitError carries the exit code an error should end the process with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as the user's to fix (exit 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitBadInput, err: err}
}

// environmentFault marks err as the machine's, not stackpick's nor the
// input's: a disk that is full, read-only or failing (exit 74).
func environmentFault(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitEnvironment, err: err}
}

// fileError marks an error about a file the user named (--out, the drill
// history): the environment's when the file system failed, else the
// user's to fix.
func fileError(err error) error {
	if isEnvironment(err) {
		return environmentFault(err)
	}
	return badInput(err)
}

// environmentErrors are what the file system says when it, not the path
// or the input, is the trouble.
var environmentErrors = []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO, store.ErrLocked}

// isEnvironment says whether err is the environment's fault.
func isEnvironment(err error) bool {
	for _, e := range environmentErrors {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// badInputf formats a bad-input error.
func badInputf(format string, args ...any) error {
	return badInput(fmt.Errorf(format, args...))
}

// usageError is a mistake in how stackpick was called: an unknown command
// or flag, a flag without its value, an argument a command does not take.
// It exits 2 and the message points at --help. cobra's flag and argument
// errors are wrapped in it where cobra reports them (flagError, noArgs,
// usageArgs), so no one has to recognise them by their wording.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usage marks err as a usage mistake (exit 2, with the pointer to --help).
func usage(err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return &usageError{err: err}
}

// noArgs is cobra.NoArgs with its error a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return usage(fmt.Errorf("%s takes no arguments, and %q is one: every value goes after its flag (see '%s --help')", cmd.CommandPath(), args[0], cmd.CommandPath()))
}

// usageArgs makes the argument checks of cmd and its sub-commands report
// usage errors: for the commands cobra adds itself (completion and its
// shells), whose checks are cobra's own. Ours say so where they are written.
func usageArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error { return usage(check(c, args)) }
	}
	for _, sub := range cmd.Commands() {
		usageArgs(sub)
	}
}

// noFiles marks err as a stack stackpick writes no files for (exit 3).
func noFiles(err error) error { return &exitError{code: ExitNoFiles, err: err} }

// internal marks err as stackpick's own fault (exit 1).
func internal(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitInternal, err: err}
}

// codeOf maps an error to its exit code.
func codeOf(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if isEnvironment(err) { // a write to stdout on a full disk, say
		return ExitEnvironment
	}
	var ue *usageError
	var ke *knowledge.Error
	var kes knowledge.Errors
	if errors.As(err, &ue) || errors.As(err, &ke) || errors.As(err, &kes) {
		return ExitBadInput
	}
	return ExitInternal
}
