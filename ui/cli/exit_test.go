package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// The commands cobra adds itself check their arguments as ours do: a usage
// error, exit 2, with the pointer to --help.
func TestCobrasOwnCommandsReportUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"completion", "bash", "extra"}, {"completion", "zsh", "--nope"}, {"version", "extra"}} {
		var out, errb strings.Builder
		code := Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != ExitBadInput || !strings.HasSuffix(errb.String(), "for usage\n") || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes", args, code, errb.String(), out.Len())
		}
	}
}
