package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// An exit code comes from the error's type, never from its wording: an
// internal error that happens to read like cobra's is still internal.
func TestTheExitCodeComesFromTheErrorsType(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"no error", nil, ExitOK},
		{"usage, wrapped further", fmt.Errorf("while parsing: %w", usage(errors.New("unknown flag: --x"))), ExitBadInput},
		{"bad input", badInputf("give --answers or --scenario, not both"), ExitBadInput},
		{"a knowledge base error", &knowledge.Error{File: "a.toml", Key: "nodes", Problem: "too small"}, ExitBadInput},
		{"internal, worded like a usage error", errors.New("unknown flag in the cache: requires a rebuild"), ExitInternal},
		{"interrupted", &exitError{code: ExitInterrupted, err: errUsageShown}, ExitInterrupted},
	}
	for _, c := range cases {
		if got := codeOf(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
	if u := usage(usage(errors.New("x"))); errors.Unwrap(u).Error() != "x" {
		t.Error("usage wraps a usage error twice")
	}
}
