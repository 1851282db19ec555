package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/cli"
)

// runBounded is run with stdin given and a bound: a command that hangs (on
// a named pipe with no writer) fails the test after 10 s instead of
// hanging it. The bound is generous; the real figure is milliseconds.
func runBounded(t *testing.T, stdin io.Reader, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		c := cli.Run(context.Background(), args, cli.IO{Stdin: stdin, Stdout: &out, Stderr: &errb, Env: env})
		done <- result{c, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("stackpick %s did not return within 10 s", strings.Join(args, " "))
		return 0, "", ""
	}
}

// 16,000 unknown keys are reported in about a second, not minutes (finding
// each key's line rescanned the file: 84 s), and the report is a page:
// the first MaxShownErrors problems and a count of the rest. The 10 s
// bound is generous on purpose; BenchmarkUnknownKeys has the figures.
func TestSixteenThousandUnknownKeysReportQuickly(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var answers, rules strings.Builder
	for i := range 16000 {
		fmt.Fprintf(&answers, "unknown_%d = %d\n", i, i)
		fmt.Fprintf(&rules, "[[rule]]\nid = \"r%d\"\nbogus_%d = 1\n", i, i)
	}
	write(t, "a.toml", answers.String())
	write(t, "kb/rules.toml", rules.String())
	for _, tc := range []struct {
		args      []string
		first     string
		lastShown string
	}{
		{[]string{"decide", "--answers", "a.toml"}, "stackpick: a.toml:1: unknown_0: unknown answer key", "a.toml:100: unknown_99:"},
		{[]string{"decide", "--scenario", "exit-test", "--kb", "kb"}, "stackpick: kb/rules.toml:3: rule.bogus_0: unknown key", "kb/rules.toml:300: rule.bogus_99:"},
	} {
		code, _, stderr := runBounded(t, strings.NewReader(""), nil, tc.args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 2 || !strings.HasPrefix(stderr, tc.first) {
			t.Fatalf("%v: exit %d, stderr starts:\n%.300s", tc.args, code, stderr)
		}
		if len(lines) != knowledge.MaxShownErrors+1 || !strings.Contains(lines[len(lines)-2], tc.lastShown) || lines[len(lines)-1] != "stackpick: … and 15900 more problems, not shown: fix these and run again" {
			t.Errorf("%v: %d lines, ending:\n%s", tc.args, len(lines), strings.Join(lines[max(0, len(lines)-3):], "\n"))
		}
	}
}
