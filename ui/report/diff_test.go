package report_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

func answersFrom(t testing.TB, kb *knowledge.KB, file, src string) knowledge.Answers {
	t.Helper()
	a, err := kb.ParseAnswers(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Four H200 nodes with Kubernetes (A) and without (B): one answer moves
// the orchestrator from llm-d to NVIDIA Dynamo.
func k8sDiff(t testing.TB) (*knowledge.KB, decide.Decision, decide.Decision, report.DecisionDiff) {
	t.Helper()
	kb := knowledge.MustDefault()
	a := decide.Decide(kb, answersFrom(t, kb, "k8s.toml", "nodes = 4\ngpu = \"h200\"\nkubernetes = \"available\"\n"))
	b := decide.Decide(kb, answersFrom(t, kb, "no-k8s.toml", "nodes = 4\ngpu = \"h200\"\nkubernetes = \"none\"\n"))
	return kb, a, b, report.DiffDecisions(kb, a, b, "k8s.toml", "no-k8s.toml")
}

func TestOneAnswerThatMovesThePickIsTheDiffsWhy(t *testing.T) {
	_, _, _, dd := k8sDiff(t)
	if dd.Schema != "stackpick.diff/v1" || dd.Identical || dd.SameStack {
		t.Fatalf("schema %q, identical %v, same stack %v", dd.Schema, dd.Identical, dd.SameStack)
	}
	if len(dd.Answers) != 1 || dd.Answers[0].Key != "kubernetes" || dd.Answers[0].A != "available" || dd.Answers[0].B != "none" || !dd.Answers[0].AStated || !dd.Answers[0].BStated {
		t.Fatalf("answers that differ: %+v", dd.Answers)
	}
	moved := dd.Moved()
	if len(moved) != 1 || moved[0].Layer != knowledge.LayerOrchestrator || moved[0].A != "llm-d" || moved[0].B != "NVIDIA Dynamo" {
		t.Fatalf("moved: %+v", moved)
	}
	l := moved[0]
	if !slices.Equal(l.Moved, []string{report.MovedPick}) || l.AInB != "excluded" {
		t.Errorf("moved %v, llm-d in B %q", l.Moved, l.AInB)
	}
	// llm-d's Kubernetes case held in A only, and B's trace says why not.
	i := slices.IndexFunc(l.OnlyA, func(it report.WhyItem) bool { return it.Rule == "k8s-fleet-llm-d" })
	if i < 0 || l.OnlyA[i].Kind != report.WhyFor || l.OnlyA[i].Product != "llm-d" {
		t.Fatalf("A's case for llm-d is missing: %+v", l.OnlyA)
	}
	if got := l.OnlyA[i].Other; got != `the answer to "Is Kubernetes part of the platform?" is none, not available` {
		t.Errorf("why it does not hold in B: %q", got)
	}
	// In B llm-d is excluded, and a declared tie-break settled Dynamo.
	if !slices.ContainsFunc(l.OnlyB, func(it report.WhyItem) bool {
		return it.Kind == report.WhyExcluded && it.Product == "llm-d" && strings.Contains(it.Text, "bare-metal")
	}) {
		t.Errorf("B's exclusion of llm-d is missing: %+v", l.OnlyB)
	}
	if !slices.ContainsFunc(l.OnlyB, func(it report.WhyItem) bool { return it.Kind == report.WhyTieBreak }) {
		t.Errorf("B's tie-break is missing: %+v", l.OnlyB)
	}
	for _, other := range dd.Layers {
		if other.Layer != knowledge.LayerOrchestrator && (len(other.Moved) > 0 || len(other.OnlyA)+len(other.OnlyB) > 0) {
			t.Errorf("layer %s did not move but says it did: %+v", other.Layer, other)
		}
	}
}

func TestTheSameAnswersAreTheSameDecision(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		dd := report.DiffDecisions(kb, d, d, s.Name, s.Name)
		if !dd.Identical || len(dd.Answers) != 0 || len(dd.Engine) != 0 || len(dd.Moved()) != 0 {
			t.Errorf("%s against itself: %+v", s.Name, dd)
		}
		if txt := ansi.Strip(report.DiffText(dd, report.NewStyles(true), 80)); !strings.Contains(txt, "same decision") {
			t.Errorf("%s: the text should say the decisions are the same:\n%s", s.Name, txt)
		}
	}
}

// A change of model resizes the engine: the diff says which settings.
func TestEngineSettingsThatChangeAreListed(t *testing.T) {
	kb := knowledge.MustDefault()
	a := decide.Decide(kb, answersFrom(t, kb, "a.toml", "gpu = \"h100\"\nmodel = \"llama-3.1-8b\"\n"))
	b := decide.Decide(kb, answersFrom(t, kb, "b.toml", "gpu = \"h100\"\nmodel = \"llama-3.3-70b\"\n"))
	dd := report.DiffDecisions(kb, a, b, "a", "b")
	if !dd.SameStack {
		t.Fatalf("a model change should not move a pick here: %+v", dd.Moved())
	}
	got := map[string]report.SettingDiff{}
	for _, s := range dd.Engine {
		got[s.Setting] = s
		if s.A == s.B {
			t.Errorf("setting %s listed though it is %q in both", s.Setting, s.A)
		}
	}
	tp, ok := got["tensor parallel size"]
	if !ok || tp.A != "1" {
		t.Fatalf("tensor parallel size should change from 1: %+v", dd.Engine)
	}
	if _, ok := got["model"]; !ok {
		t.Errorf("the model should be listed: %+v", dd.Engine)
	}
	txt := report.DiffText(dd, report.NewStyles(true), 80)
	if !strings.Contains(ansi.Strip(txt), "tensor parallel size: 1 → "+tp.B) {
		t.Errorf("the text should show the TP change:\n%s", ansi.Strip(txt))
	}
}

// The text fits any width: stacked below 100 columns, A and B in two
// columns from there on.
func TestDiffTextFitsAndGoesSideBySideWhenWide(t *testing.T) {
	_, _, _, dd := k8sDiff(t)
	st := report.NewStyles(true)
	for _, w := range []int{40, 60, 80, 99, 100, 120, 200} {
		lines := report.DiffLines(dd, st, w)
		plain := ansi.Strip(strings.Join(lines, "\n"))
		for _, l := range lines {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("at %d columns a line is %d wide: %q", w, n, ansi.Strip(l))
			}
		}
		for _, want := range []string{"llm-d", "NVIDIA Dynamo", "kubernetes", "Held in A only", "Holds in B only", "excluded"} {
			if !strings.Contains(plain, want) {
				t.Errorf("at %d columns the diff does not say %q:\n%s", w, want, plain)
			}
		}
		side := strings.Contains(plain, "│")
		if side != (w >= report.SideBySideWidth) {
			t.Errorf("at %d columns side by side = %v:\n%s", w, side, plain)
		}
		if regexp.MustCompile(`k8s-fleet-llm-d|\(\+\d+\)`).MatchString(plain) {
			t.Errorf("at %d columns the text shows a rule id or a score:\n%s", w, plain)
		}
	}
}

func TestDiffJSONHasItsSchema(t *testing.T) {
	_, _, _, dd := k8sDiff(t)
	var buf bytes.Buffer
	if err := report.DiffJSON(&buf, dd); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Schema  string `json:"schema"`
		Answers []struct {
			Key string `json:"key"`
		} `json:"answers"`
		Layers []struct {
			Layer string   `json:"layer"`
			Moved []string `json:"moved"`
			OnlyA []struct {
				Rule string `json:"rule"`
			} `json:"only_in_a"`
		} `json:"layers"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Schema != report.DiffSchema || len(got.Answers) != 1 || len(got.Layers) != 3 {
		t.Fatalf("json: %s", buf.String())
	}
	if strings.Contains(buf.String(), "null") {
		t.Errorf("a list is null rather than []:\n%s", buf.String())
	}
}

// The diff's Markdown, and the memo's pinned alternative inside a memo's
// options, are goldens that .ci/run lints with markdownlint-cli2.
// Regenerate with: go test ./ui/report -run DiffMarkdown -update
func TestDiffMarkdownGoldens(t *testing.T) {
	kb, a, b, dd := k8sDiff(t)
	pinned := report.PinnedMarkdown(kb, a, b, "Kubernetes available")
	for _, line := range strings.Split(pinned, "\n") {
		if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "### ") {
			t.Errorf("the pinned block's headings are level 3: %q", line)
		}
	}
	for _, want := range []string{"### The pinned alternative: Kubernetes available", "vLLM · no model server · llm-d", "vLLM · no model server · NVIDIA Dynamo", "`kubernetes`", "excluded"} {
		if !strings.Contains(pinned, want) {
			t.Errorf("the pinned block does not say %q:\n%s", want, pinned)
		}
	}
	goldens := map[string]string{
		"k8s-vs-no-k8s.md": report.DiffMarkdown(dd),
		// The block as the memo will hold it, under its options.
		"pinned-in-memo.md": "# Choose the LLM serving stack\n\n## Considered options\n\n" + pinned,
		"identical.md":      report.DiffMarkdown(report.DiffDecisions(kb, a, a, "k8s.toml", "k8s-again.toml")),
	}
	for name, got := range goldens {
		golden(t, filepath.Join("testdata", "diffs", name), got)
	}
}

// Every pair of presets diffs without a line too wide, says "seed"
// nowhere (the source is named 'Engines as Products'), and what moved
// matches the two stacks.
func TestEveryPairOfPresetsDiffs(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	st := report.NewStyles(true)
	seed := regexp.MustCompile(`(?i)\bseed`)
	for _, sa := range all {
		da := decide.Decide(kb, sa.Answers)
		for _, sb := range all {
			if sa.Name == sb.Name {
				continue
			}
			db := decide.Decide(kb, sb.Answers)
			dd := report.DiffDecisions(kb, da, db, sa.Name, sb.Name)
			if dd.SameStack != (report.StackLine(kb, da) == report.StackLine(kb, db) && len(dd.Moved()) == 0) {
				t.Errorf("%s vs %s: same stack %v, but %q and %q", sa.Name, sb.Name, dd.SameStack, dd.A.Stack, dd.B.Stack)
			}
			for _, l := range dd.Moved() {
				if len(l.OnlyA)+len(l.OnlyB) == 0 {
					t.Errorf("%s vs %s: %s moved with no why", sa.Name, sb.Name, l.Layer)
				}
			}
			for _, w := range []int{40, 80, 120} {
				for _, line := range report.DiffLines(dd, st, w) {
					if ansi.StringWidth(line) > w {
						t.Errorf("%s vs %s at %d: %q", sa.Name, sb.Name, w, ansi.Strip(line))
					}
				}
			}
			md := report.DiffMarkdown(dd) + report.PinnedMarkdown(kb, da, db, sa.Name)
			if seed.MatchString(md) || seed.MatchString(report.DiffText(dd, st, 100)) {
				t.Errorf("%s vs %s says seed", sa.Name, sb.Name)
			}
		}
	}
}

// When the engine changes (vLLM → SGLang) the settings compare by what
// they do, and each side shows its own flag: A's vLLM command is not
// "not set" for every SGLang flag.
func TestEngineSettingsCompareByMeaningAcrossEngines(t *testing.T) {
	kb := knowledge.MustDefault()
	const common = "nodes = 2\ngpus_per_node = 8\ngpu = \"h100\"\nmodel = \"llama-3.1-8b\"\nlatency_priority = \"latency\"\ncache_aware_routing = true\n"
	a := decide.Decide(kb, answersFrom(t, kb, "a.toml", common+"kubernetes = \"required\"\n"))
	b := decide.Decide(kb, answersFrom(t, kb, "b.toml", common+"kubernetes = \"none\"\nprefix_reuse = \"high\"\nother_model_types = [\"vision\"]\n"))
	if a.EngineConfig.Engine != knowledge.EngineVLLM || b.EngineConfig.Engine != knowledge.EngineSGLang {
		t.Fatalf("want vLLM → SGLang, got %s → %s", a.EngineConfig.Engine, b.EngineConfig.Engine)
	}
	dd := report.DiffDecisions(kb, a, b, "a", "b")
	got := map[string]report.SettingDiff{}
	for _, s := range dd.Engine {
		got[s.Setting] = s
	}
	for setting, want := range map[string][2]string{
		"tensor parallel size":          {"--tensor-parallel-size 1", "--tp-size 1"},
		"max model length":              {"--max-model-len 8192", "--context-length 8192"},
		"max running requests":          {"--max-num-seqs 64", "--max-running-requests 64"},
		"batched-token budget per step": {"--max-num-batched-tokens 2048", "--chunked-prefill-size 2048"},
	} {
		s, ok := got[setting]
		if !ok || s.A != want[0] || s.B != want[1] {
			t.Errorf("%s: want %q │ %q, got %+v", setting, want[0], want[1], s)
		}
	}
	for _, s := range dd.Engine {
		if strings.HasPrefix(s.Setting, "--") && s.A == "not set" && s.Setting != "--enable-metrics" {
			t.Errorf("A's side of %s reads as not set: %+v", s.Setting, s)
		}
	}
	md := report.PinnedMarkdown(kb, a, b, "a")
	for _, want := range []string{"| max running requests | `--max-num-seqs` 64 | `--max-running-requests` 64 |", "`--max-model-len` 8192"} {
		if !strings.Contains(md, want) {
			t.Errorf("the pinned table lacks %q:\n%s", want, md)
		}
	}
}

// The diff and the pinned text word conditions in words, never in the
// rules' syntax, and write products as they are spelled.
func TestDiffSaysConditionsInWords(t *testing.T) {
	kb := knowledge.MustDefault()
	const common = "nodes = 2\ngpus_per_node = 8\ngpu = \"h100\"\nmodel = \"llama-3.1-8b\"\nlatency_priority = \"latency\"\ncache_aware_routing = true\n"
	a := decide.Decide(kb, answersFrom(t, kb, "a.toml", common+"kubernetes = \"required\"\n"))
	b := decide.Decide(kb, answersFrom(t, kb, "b.toml", common+"kubernetes = \"none\"\nprefix_reuse = \"high\"\nother_model_types = [\"vision\"]\n"))
	dd := report.DiffDecisions(kb, a, b, "a", "b")
	for name, out := range map[string]string{
		"text":     ansi.Strip(report.DiffText(dd, report.NewStyles(true), 100)),
		"markdown": report.DiffMarkdown(dd),
		"pinned":   report.PinnedMarkdown(kb, a, b, "a"),
	} {
		for _, bad := range []string{"∈", "has any of", "does not hold", "|tabular", "VLLM", "Llm-d"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s carries %q:\n%s", name, bad, out)
			}
		}
	}
	if md := report.DiffMarkdown(dd); !strings.Contains(md, `the answer to "Is Kubernetes part of the platform?" is none, not available or required`) {
		t.Errorf("the markdown does not word the failed condition:\n%s", md)
	}
}
