package report_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

var summarySizes = []struct{ w, h int }{{80, 24}, {120, 40}, {40, 12}}

// The summary of every preset, at 80x24, 120x40 and 40x12 in the sixteen
// colours (ANSI profile): it fits the size, names every layer's pick
// beside the layer, and matches its golden. Regenerate with: go test
// ./ui/report -run SummaryGolden -update
func TestSummaryGolden(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		for _, sz := range summarySizes {
			lines := report.Summary(kb, d, report.DefaultStyles(), sz.w, sz.h)
			checkSummary(t, kb, d, fmt.Sprintf("%s at %dx%d", sc.Name, sz.w, sz.h), lines, sz.w, sz.h)
			var b bytes.Buffer
			cw := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI}
			if _, err := cw.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "summary", fmt.Sprintf("%s-%dx%d.golden", sc.Name, sz.w, sz.h)), b.String())
		}
	}
}

// checkSummary: the summary fits w×h and every layer's line names its
// pick (or its state) after the layer's name.
func checkSummary(t *testing.T, kb *knowledge.KB, d decide.Decision, name string, lines []string, w, h int) {
	t.Helper()
	if len(lines) > h {
		t.Errorf("%s: %d lines, more than %d", name, len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s: line %d is %d wide: %q", name, i, lw, ansi.Strip(l))
		}
	}
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, lp := range d.Layers {
		found := false
		for _, l := range strings.Split(text, "\n") {
			found = found || strings.HasPrefix(l, kb.Layer(lp.Layer).Name) && strings.Contains(l, report.SummaryPick(kb, lp))
		}
		if !found {
			t.Errorf("%s: no line names the %s's pick %q:\n%s", name, lp.Layer, report.SummaryPick(kb, lp), text)
		}
	}
}

// Squeezed below its sizes, down to three lines, the summary still names
// every pick; it never grows past the height it is given.
func TestSummaryNeverDropsAPick(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		for _, sz := range []struct{ w, h int }{{40, 3}, {40, 6}, {60, 8}, {80, 10}, {200, 60}} {
			lines := report.Summary(kb, d, report.DefaultStyles(), sz.w, sz.h)
			checkSummary(t, kb, d, fmt.Sprintf("%s at %dx%d", sc.Name, sz.w, sz.h), lines, sz.w, sz.h)
		}
	}
}

// The summary at the sizes a projector shows keeps what it promises: the
// topology, the assumptions, the nearest flips and the course-notes line
// at 120x40; at 80x24 the topology and the flips too.
func TestSummaryKeepsItsPartsWhenThereIsRoom(t *testing.T) {
	kb, d := decideScenario(t, "exit-test")
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}} {
		text := ansi.Strip(strings.Join(report.Summary(kb, d, report.DefaultStyles(), sz.w, sz.h), "\n"))
		for _, want := range []string{"clients ─▶ llm-d + KServe ─▶ vLLM × 16 replicas", "TP 2 · 4 per node · 4 nodes", "Assumed", "replicas = 0", "Nearest flips", "kubernetes: required → available", "6 flags from the course notes are gone or renamed"} {
			if !strings.Contains(text, want) {
				t.Errorf("at %dx%d the summary lacks %q:\n%s", sz.w, sz.h, want, text)
			}
		}
	}
	kb, d = decideScenario(t, "request-pipeline")
	text := ansi.Strip(strings.Join(report.Summary(kb, d, report.DefaultStyles(), 80, 24), "\n"))
	if !strings.Contains(text, "Close call    vLLM or SGLang") || !strings.Contains(text, "prefix_reuse: medium → high") {
		t.Errorf("the close call and what tips it are not in the summary:\n%s", text)
	}
}

// ruleWords matches what only the trace may show: a weight or score in
// parentheses ("(+2)"), the search's raw scores ("stack 10 vs 6") and the
// "trace:" lines.
var ruleWords = regexp.MustCompile(`\([+-]\d+\)|\d+ vs \d+|trace:|\[[a-z0-9-]+ [+-]\d+\]`)

// ids are every rule, need and tie-break id of the knowledge base.
func ids(kb *knowledge.KB) []string {
	var out []string
	for _, r := range kb.Rules {
		out = append(out, r.ID)
	}
	for _, n := range kb.Needs {
		out = append(out, n.ID)
	}
	for _, tb := range kb.TieBreaks {
		out = append(out, tb.ID)
	}
	return out
}

// The default text of every preset (and of the hard cases) names no rule,
// need or tie-break id and shows no score; the trace view does both.
func TestRuleIDsAndScoresOnlyInTheTrace(t *testing.T) {
	kb, all := presets(t)
	type tc struct {
		name string
		d    decide.Decision
	}
	var cases []tc
	for _, sc := range all {
		cases = append(cases, tc{sc.Name, decide.Decide(kb, sc.Answers)})
	}
	for _, src := range []string{"gitops = true\n", "nodes = 4\nkubernetes = \"none\"\n"} {
		_, d := decideTOML(t, src)
		cases = append(cases, tc{strings.TrimSpace(src), d})
	}
	for _, c := range cases {
		text := ansi.Strip(report.Decision(kb, c.d, report.Header{}, report.DefaultStyles(), 100))
		if m := ruleWords.FindString(text); m != "" {
			t.Errorf("%s: the default text shows a score: %q", c.name, m)
		}
		for _, id := range ids(kb) {
			if regexp.MustCompile(`(^|[^a-z0-9_-])` + regexp.QuoteMeta(id) + `($|[^a-z0-9_-])`).MatchString(text) {
				t.Errorf("%s: the default text names the id %q", c.name, id)
			}
		}
		trace := ansi.Strip(report.DecisionText(kb, c.d, report.Header{}, report.DefaultStyles(), 100, report.CardOptions{Trace: true}))
		if !ruleWords.MatchString(trace) {
			t.Errorf("%s: the trace shows no score", c.name)
		}
		for _, lp := range c.d.Layers {
			for _, r := range lp.Reasons {
				if r.Kind == decide.KindRule && !strings.Contains(trace, r.Rule) {
					t.Errorf("%s: the trace does not name rule %s", c.name, r.Rule)
				}
			}
		}
	}
}

// The topology's Mermaid block is a flowchart whose every node label is
// quoted, with the engine's replicas and layout and the model server
// beside it when one serves framework models.
func TestTopologyMermaidIsQuotedAndComplete(t *testing.T) {
	kb, d := decideScenario(t, "mixed-models")
	m := report.TopologyMermaid(kb, d)
	if !strings.HasPrefix(m, "```mermaid\nflowchart LR\n") || !strings.HasSuffix(m, "```\n") {
		t.Fatalf("not a mermaid flowchart block:\n%s", m)
	}
	node := regexp.MustCompile(`^  [a-z_]+\["[^"]*"\]$`)
	edge := regexp.MustCompile(`^  [a-z_]+ -->(\|"[^"]*"\|)? [a-z_]+$`)
	for _, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(m, "```mermaid\nflowchart LR\n"), "```\n"), "\n") {
		if l != "" && !node.MatchString(l) && !edge.MatchString(l) {
			t.Errorf("not a quoted node or an edge: %q", l)
		}
	}
	for _, want := range []string{"vLLM × 1 replica", "TP 4", "Dynamo-Triton", "vision, tabular", "clients --> modelserver"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	kb, d = decideScenario(t, "nvidia-fleet")
	m = report.TopologyMermaid(kb, d)
	for _, want := range []string{"orchestrator --> engine_prefill", `engine_prefill -->|"KV cache"| engine_decode`, "vLLM decode × 5"} {
		if !strings.Contains(m, want) {
			t.Errorf("a disaggregated engine's mermaid lacks %q:\n%s", want, m)
		}
	}
}

// One line of why per layer comes from the reason that weighed most, not
// from the default that always holds; an empty layer says its state.
func TestWhyLineGivesTheDecisiveReason(t *testing.T) {
	kb, d := decideScenario(t, "exit-test")
	if got := report.WhyLine(kb, d, d.Layers[0]); !strings.HasPrefix(got, "Many LoRA fine-tunes on one base model") {
		t.Errorf("engine why: %q", got)
	}
	if got := report.WhyLine(kb, d, d.Layers[1]); !strings.HasPrefix(got, "Not needed. Only LLMs are served") {
		t.Errorf("model server why: %q", got)
	}
	_, d = decideTOML(t, "gitops = true\n")
	for _, lp := range d.Layers {
		if lp.State == decide.StateNothingFits {
			if got := report.WhyLine(kb, d, lp); !strings.HasPrefix(got, "Nothing fits: ") || !strings.Contains(got, "conflicting answers: ") {
				t.Errorf("nothing-fits why: %q", got)
			}
		}
	}
}

// The header's stack line keeps every pick down to 40 columns.
func TestShortStackLineKeepsEveryPick(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		for _, w := range []int{120, 80, 40, 34} {
			s := report.ShortStackLine(kb, d, w)
			if ansi.StringWidth(s) > w {
				t.Errorf("%s at %d: %q is too wide", sc.Name, w, s)
			}
			for _, lp := range d.Layers {
				if lp.Pick != knowledge.None && !strings.Contains(s, kb.ChoiceName(lp.Layer, lp.Pick)) {
					t.Errorf("%s at %d: %q drops %s", sc.Name, w, s, lp.Pick)
				}
			}
		}
	}
}
