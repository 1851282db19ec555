package report_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

// answersWith is the defaults with some answers set.
func answersWith(t *testing.T, kb *knowledge.KB, set map[string]any) knowledge.Answers {
	t.Helper()
	a := kb.Defaults()
	for k, v := range set {
		if err := a.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// At every width, down to a 40-column terminal's card, each flag of the
// launch command, each default kept and each replaced seed flag appears
// whole on one line: a flag is never broken at its hyphens.
func TestEngineCardKeepsFlagsWhole(t *testing.T) {
	kb := knowledge.MustDefault()
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	st := report.DefaultStyles()
	for _, sc := range list {
		ec := decide.Decide(kb, sc.Answers).EngineConfig
		if ec == nil || !ec.Covered {
			continue
		}
		for _, w := range []int{36, 76, 116} {
			lines := report.EngineCard(ec, st, w)
			text := ansi.Strip(strings.Join(lines, "\n"))
			for i, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Errorf("%s at %d: line %d is %d wide: %q", sc.Name, w, i, lw, ansi.Strip(l))
				}
			}
			var flags []string
			for _, f := range ec.Command {
				flags = append(flags, f.Flag)
			}
			for _, n := range append(ec.Defaults, ec.Replaced...) {
				flags = append(flags, n.Flag)
			}
			for _, f := range flags {
				if !strings.Contains(text, f+" ") && !strings.Contains(text, f+":") && !strings.Contains(text, f+"\n") {
					t.Errorf("%s at %d: flag %s is not shown whole:\n%s", sc.Name, w, f, text)
				}
			}
			for _, fg := range ec.Sizing.Figures {
				// Long names wrap on a narrow card; the value is always there.
				if !strings.Contains(text, fg.Text()) || (w > 60 && !strings.Contains(text, fg.Name+":")) {
					t.Errorf("%s at %d: figure %q missing", sc.Name, w, fg.Name)
				}
			}
		}
	}
}

// When nothing fits, the card says why instead of a command.
func TestEngineCardSaysWhyNothingFits(t *testing.T) {
	kb := knowledge.MustDefault()
	a := answersWith(t, kb, map[string]any{"nodes": int64(1), "gpus_per_node": int64(2), "gpu": "l4", "model": "llama-3.1-405b"})
	ec := decide.Decide(kb, a).EngineConfig
	if ec == nil || ec.Covered {
		t.Fatalf("llama-3.1-405b on two L4s should not fit: %+v", ec)
	}
	text := ansi.Strip(strings.Join(report.EngineCard(ec, report.DefaultStyles(), 76), "\n"))
	if !strings.Contains(text, "does not fit") || strings.Contains(text, "vllm serve") {
		t.Errorf("the card should give the reason and no command:\n%s", text)
	}
}
