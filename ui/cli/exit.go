// Package cli is stackpick's command line: cobra commands styled by fang,
// the exit-code discipline (0 ok, 1 internal error, 2 bad input, 130
// interrupted) and the choice between the TUI and plain output. It renders
// through ui/report and decides through decide/; it never computes a
// decision itself.
package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitInternal    = 1
	ExitBadInput    = 2
	ExitInterrupted = 130 // ctrl+c in the interactive app
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

// badInputf formats a bad-input error.
func badInputf(format string, args ...any) error {
	return badInput(fmt.Errorf(format, args...))
}

// internal marks err as stackpick's own fault (exit 1).
func internal(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: ExitInternal, err: err}
}

// codeOf maps an error to its exit code. Errors from cobra's flag and
// argument parsing are usage errors.
func codeOf(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var ke *knowledge.Error
	var kes knowledge.Errors
	if errors.As(err, &ke) || errors.As(err, &kes) {
		return ExitBadInput
	}
	msg := err.Error()
	for _, prefix := range []string{"unknown flag", "unknown shorthand flag", "bad flag syntax", "flag needs an argument", "invalid argument", "unknown command", "accepts ", "requires ", "if any flags in the group", "none of the others can be"} {
		if strings.HasPrefix(msg, prefix) || strings.Contains(msg, prefix) {
			return ExitBadInput
		}
	}
	return ExitInternal
}
