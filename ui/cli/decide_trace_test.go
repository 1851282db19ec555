package cli_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// `stackpick decide` opens on the summary and words the details for a
// reader: no rule id and no "(+N)" score in its text; --trace adds both,
// and JSON carries them as before.
func TestDecideTextHasNoRuleIDsUnlessTraced(t *testing.T) {
	kb := knowledge.MustDefault()
	score := regexp.MustCompile(`\([+-]\d+\)`)
	for _, name := range []string{"exit-test", "request-pipeline", "gitops-rollouts"} {
		code, out, errs := run(t, nil, "decide", "--scenario", name)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		if i, j := strings.Index(out, "Stack: "), strings.Index(out, "── "); i < 0 || j < i || !strings.Contains(out[i:j], "Nearest flips") {
			t.Errorf("%s: the text does not open on the summary:\n%s", name, out[:min(len(out), 800)])
		}
		if m := score.FindString(out); m != "" {
			t.Errorf("%s: the default text shows a score %q", name, m)
		}
		for _, r := range kb.Rules {
			if strings.Contains(out, " "+r.ID+" ") || strings.Contains(out, " "+r.ID+"\n") {
				t.Errorf("%s: the default text names rule %s", name, r.ID)
			}
		}
		code, traced, errs := run(t, nil, "decide", "--scenario", name, "--trace")
		if code != 0 {
			t.Fatalf("%s --trace: exit %d: %s", name, code, errs)
		}
		if !score.MatchString(traced) || !strings.Contains(traced, "engine-default-vllm") || !strings.Contains(traced, "Trace: stacks scored and rules") {
			t.Errorf("%s --trace: no rule ids or scores:\n%s", name, traced[:min(len(traced), 800)])
		}
		code, js, _ := run(t, nil, "decide", "--scenario", name, "--format", "json")
		if code != 0 || !strings.Contains(js, `"rule": "engine-default-vllm"`) || !strings.Contains(js, `"score":`) {
			t.Errorf("%s: JSON lost its rule ids or scores", name)
		}
	}
}

// --trace with the memo or JSON is a usage error that says why: JSON
// always carries the ids, the memo never does.
func TestDecideTraceOnlyWithText(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		{"json", "JSON always carries the rule ids"},
		{"markdown", "the memo is for readers"},
	} {
		code, out, errs := run(t, nil, "decide", "--scenario", "exit-test", "--trace", "--format", c.format)
		if code != 2 || out != "" || !strings.Contains(errs, "--trace is for the text output only") || !strings.Contains(errs, c.want) {
			t.Errorf("--trace --format %s: exit %d, out %q, stderr %q; want exit 2 and a message with %q", c.format, code, out[:min(len(out), 200)], errs, c.want)
		}
	}
}

// The text's body does not list the course-notes points: the summary's
// one line counts them over every placed product (KServe, a complement,
// included) and points at `kb changes` for those products, whose list
// has exactly that many entries. --trace says the assumptions once.
func TestDecideTextPointsAtKBChanges(t *testing.T) {
	code, out, errs := run(t, nil, "decide", "--scenario", "exit-test")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "Course-notes flags gone") || strings.Contains(out, "Flags not emitted") {
		t.Errorf("the text still lists the course-notes flags in its body")
	}
	line := regexp.MustCompile(`(\d+) flags from the course notes are gone or renamed, (\d+) other points changed: run 'stackpick kb\s+changes vllm llm-d kserve'`).FindStringSubmatch(out)
	if line == nil {
		t.Fatalf("no course-notes count line pointing at kb changes:\n%s", out[:min(len(out), 3000)])
	}
	code, js, errs := run(t, nil, "kb", "changes", "vllm", "llm-d", "kserve", "--format", "json")
	if code != 0 {
		t.Fatalf("kb changes vllm llm-d kserve: exit %d: %s", code, errs)
	}
	flags, claims := strings.Count(js, `"flag_id"`), strings.Count(js, `"course_notes"`)
	if line[1] != fmt.Sprint(flags) || line[2] != fmt.Sprint(claims) {
		t.Errorf("the summary counts %s flags and %s points; kb changes lists %d and %d", line[1], line[2], flags, claims)
	}
	_, traced, _ := run(t, nil, "decide", "--scenario", "exit-test", "--trace")
	if n := strings.Count(traced, "Assumed"); n != 1 {
		t.Errorf("--trace says Assumed %d times, want once", n)
	}
}

// Piped, the text wraps at a valid COLUMNS; without one, or with one that
// is not a width, at the readable 100.
func TestDecidePipedHonoursColumns(t *testing.T) {
	widest := func(out string) int {
		n := 0
		for _, l := range strings.Split(out, "\n") {
			n = max(n, len([]rune(l)))
		}
		return n
	}
	for _, c := range []struct {
		env  []string
		want int
	}{{[]string{"COLUMNS=80"}, 80}, {[]string{"COLUMNS=60"}, 60}, {nil, 100}, {[]string{"COLUMNS=wide"}, 100}, {[]string{"COLUMNS=5"}, 100}} {
		code, out, errs := run(t, append(c.env, "NO_COLOR=1"), "decide", "--scenario", "exit-test")
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.env, code, errs)
		}
		if w := widest(out); w > c.want || w < c.want-8 {
			t.Errorf("%v: the widest line is %d, want about %d", c.env, w, c.want)
		}
	}
}

// Answers from a file with a [memo] title are titled by it; the file is
// still named under it. Without one, the file names them.
func TestDecideTextTitledByTheMemo(t *testing.T) {
	// Paths relative to a temp dir: the text is the same whatever the temp
	// dir's length (a long path would wrap).
	t.Chdir(t.TempDir())
	with, without := "memo.toml", "plain.toml"
	if err := os.WriteFile(with, []byte("nodes = 4\n\n[memo]\ntitle = \"Serving stack for the tenant fleet\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(without, []byte("nodes = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errs := run(t, []string{"NO_COLOR=1"}, "decide", "--answers", with)
	if !strings.HasPrefix(out, "Serving stack for the tenant fleet\nAnswers from "+with+".\n") {
		t.Errorf("the text is not titled by the [memo] title (%s):\n%s", errs, out[:min(len(out), 300)])
	}
	_, out, _ = run(t, []string{"NO_COLOR=1"}, "decide", "--answers", without)
	if !strings.HasPrefix(out, "Answers from "+without+"\n") {
		t.Errorf("a file without a memo title is not named:\n%s", out[:min(len(out), 300)])
	}
}
