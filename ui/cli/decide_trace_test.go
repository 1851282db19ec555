package cli_test

import (
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
