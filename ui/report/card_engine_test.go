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
// launch command, each default kept and each replaced course-notes flag appears
// whole on one line: a flag is never broken at its hyphens.
func TestEngineCardKeepsFlagsWhole(t *testing.T) {
	kb := knowledge.MustDefault()
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	st := report.DefaultStyles()
	for _, sc := range list {
		d := decide.Decide(kb, sc.Answers)
		ec := d.EngineConfig
		if ec == nil || !ec.Covered {
			continue
		}
		for _, w := range []int{36, 76, 116} {
			// The replaced flags are listed on the course-notes page.
			lines := report.EngineCard(ec, st, w)
			changes, err := report.CourseNoteChanges(kb, ec.Engine)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, report.CourseNoteLines(changes, st, w)...)
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

// With prefill and decode apart, the card and the memo print one command
// per role, each copy-pasteable, each role's flag in its own command only,
// and say how the instances split (finding 7: one command held
// --kv-transfer-config twice).
func TestDisaggregationPrintsOneCommandPerRole(t *testing.T) {
	for _, tc := range []struct{ src, flag string }{
		{"nodes = 4\nkubernetes = \"required\"\ndisaggregation = true\n", "--kv-transfer-config"},
		{"nodes = 4\ndisaggregation = true\nteam_familiarity = \"sglang\"\ncache_aware_routing = true\n", "--disaggregation-mode"},
	} {
		kb, d := decideTOML(t, tc.src)
		ec := d.EngineConfig
		if ec == nil || len(ec.Roles) != 2 {
			t.Fatalf("%q: want two roles, got %+v", tc.src, ec)
		}
		if !strings.Contains(strings.Join(func() []string {
			var f []string
			for _, l := range ec.Command {
				f = append(f, l.Flag)
			}
			return f
		}(), " "), tc.flag) {
			t.Fatalf("%q: engine %s has no %s", tc.src, ec.Engine, tc.flag)
		}
		card := ansi.Strip(strings.Join(report.EngineCard(ec, report.DefaultStyles(), 200), "\n"))
		memo := report.Memo(kb, d, report.MemoInput{Date: "2026-12-01"})
		for name, text := range map[string]string{"card": card, "memo": memo} {
			// Each command runs from its head to the first line that does
			// not continue it.
			var cmds []string
			lines := strings.Split(text, "\n")
			for i := 0; i < len(lines); i++ {
				if !strings.HasPrefix(lines[i], "vllm serve") && !strings.HasPrefix(lines[i], "sglang serve") {
					continue
				}
				cmd := lines[i]
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") {
					i++
					cmd += "\n" + lines[i]
				}
				cmds = append(cmds, cmd)
			}
			if len(cmds) != 2 {
				t.Errorf("%s %s: want 2 commands, got %d:\n%s", ec.Engine, name, len(cmds), text)
				continue
			}
			for _, c := range cmds {
				if n := strings.Count(c, tc.flag+" "); n != 1 {
					t.Errorf("%s %s: %s %d times in one command:\n%s", ec.Engine, name, tc.flag, n, c)
				}
			}
			if !strings.Contains(text, "start with ") || !strings.Contains(text, "not sized") {
				t.Errorf("%s %s: the prefill/decode split is not said", ec.Engine, name)
			}
		}
	}
}
