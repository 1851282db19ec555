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

func presets(t *testing.T) (*knowledge.KB, []scenarios.Scenario) {
	t.Helper()
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	return kb, all
}

// An empty layer is named one way on every surface: the stack line, the
// cards, the command line's text and the memo all say "no model server",
// and none of the old phrasings ("none (not needed)", "⇒ none", …) is left.
func TestAnEmptyLayerReadsTheSameOnEverySurface(t *testing.T) {
	kb, all := presets(t)
	old := []string{"none (", "none:", "⇒ none", "gives none", "picks none", "**none**", "outscored: none", "vs none", "tied with none", "leaving the layer empty"}
	seen := false
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		text := ansi.Strip(report.Decision(kb, d, report.Origin{Scenario: &sc}.Header(), report.DefaultStyles(), 100))
		memo := report.Memo(kb, d, report.Origin{Scenario: &sc}.MemoInput("2026-11-30"))
		for _, lp := range d.Layers {
			if lp.Pick != knowledge.None {
				continue
			}
			seen = true
			empty := report.EmptyLayer(kb, lp.Layer)
			if !strings.Contains(report.StackLine(kb, d), empty) {
				t.Errorf("%s: the stack line %q does not say %q", sc.Name, report.StackLine(kb, d), empty)
			}
			card := ansi.Strip(strings.Join(report.LayerCard(kb, d, lp, report.DefaultStyles(), 80, false), "\n"))
			if first, _, _ := strings.Cut(card, "\n"); first != report.StateText(kb, lp) || !strings.HasPrefix(first, empty+" · ") {
				t.Errorf("%s: the card's pick reads %q, want %q and its state", sc.Name, first, empty)
			}
			if !strings.Contains(memo, "### "+kb.Layer(lp.Layer).Name+": "+empty) {
				t.Errorf("%s: the memo's outcome does not name %q", sc.Name, empty)
			}
		}
		for _, s := range []string{text, memo} {
			for _, o := range old {
				if strings.Contains(s, o) {
					t.Errorf("%s: an old phrasing of an empty layer, %q, is left", sc.Name, o)
				}
			}
		}
	}
	if !seen {
		t.Fatal("no preset leaves a layer empty; pick another example")
	}
}

// `stackpick decide` prints the very sections the app opens: each
// section's lines appear whole in the command line's text, under its title.
func TestDecideTextIsTheAppsSections(t *testing.T) {
	kb, all := presets(t)
	st := report.DefaultStyles()
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		text := report.Decision(kb, d, report.Header{}, st, 100)
		for _, sec := range report.Sections(kb, d, st, 100, report.CardOptions{}) {
			body := strings.Join(sec.Lines, "\n")
			if !strings.Contains(text, report.SectionRule(sec.Title, st, 100)+"\n"+body) {
				t.Errorf("%s: the section %q is not in the text as the app draws it", sc.Name, sec.Title)
			}
		}
	}
}

// The memo's source line says where the answers came from, built in one
// place for the app and the command line; a preset titles the memo, and
// other answers leave the title to the memo (it names the stack, never a
// file), while the cards' header still says where they came from.
func TestOriginTitlesTheMemo(t *testing.T) {
	_, all := presets(t)
	sc := all[0]
	for _, c := range []struct {
		name          string
		o             report.Origin
		title, source string
		header        string
	}{
		{"preset", report.Origin{Scenario: &sc}, sc.Title, "scenario " + sc.Name, sc.Title},
		{"edited preset", report.Origin{Scenario: &sc, Moved: "nodes 4 → 1"}, sc.Title, "scenario " + sc.Name + ", with answers changed in the app", sc.Title},
		{"answers file", report.Origin{File: "fleet.toml"}, "", "answers file fleet.toml", "Answers from fleet.toml"},
		{"questionnaire", report.Origin{}, "", "answers entered in stackpick's interactive app", "Answers from the questionnaire"},
	} {
		in := c.o.MemoInput("2026-11-30")
		if in.Title != c.title || in.Source != c.source || in.Date != "2026-11-30" {
			t.Errorf("%s: title %q source %q, want %q and %q", c.name, in.Title, in.Source, c.title, c.source)
		}
		if h := c.o.Header(); h.Title != c.header || h.Story != in.Story {
			t.Errorf("%s: the cards' header %+v differs from the memo's title and story", c.name, h)
		}
	}
	if in := (report.Origin{Scenario: &sc, Moved: "nodes 4 → 1"}).MemoInput(""); !strings.HasSuffix(in.Story, "the answers differ from the preset: nodes 4 → 1.") {
		t.Errorf("an edited preset's story does not say what moved: %q", in.Story)
	}
}

// A drill's grading names answers the way the decision names picks, in the
// app and the line mode alike: display names, the empty layer in its one
// wording, layers in running text, never an id.
func TestDrillAnswersAreNamedLikePicks(t *testing.T) {
	kb := knowledge.MustDefault()
	for _, c := range []struct{ got, want string }{
		{report.PickedText(kb, knowledge.LayerEngine, "vllm"), "vLLM"},
		{report.PickedText(kb, knowledge.LayerModelServer, knowledge.None), "no model server"},
		{report.PickedText(kb, knowledge.LayerOrchestrator, ""), "nothing"},
		{report.PlacedText(kb, knowledge.LayerModelServer), "model server"},
		{report.PlacedText(kb, ""), "nothing"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// At 80 columns every line of the command line's text fits: the states,
// assumptions, arguments, close calls and flips wrap, none is clipped.
func TestDecideTextFitsEightyColumns(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		text := ansi.Strip(report.Decision(kb, d, report.Origin{Scenario: &sc}.Header(), report.DefaultStyles(), 80))
		for _, l := range strings.Split(text, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("%s: a line is %d cells wide: %q", sc.Name, ansi.StringWidth(l), l)
			}
		}
	}
}

func decideTOML(t *testing.T, src string) (*knowledge.KB, decide.Decision) {
	t.Helper()
	kb := knowledge.MustDefault()
	a, err := kb.ParseAnswers("answers.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return kb, decide.Decide(kb, a)
}

// The three layer states read differently; nothing-fits names the unmet
// need, the conflicting answers and why each product is blocked; a tie
// names its declared tie-break and what would tip it; no alternative is
// argued by scores alone.
func TestStatesTiesAndArgumentsAreWorded(t *testing.T) {
	kb, d := decideTOML(t, "gitops = true\n")
	text := ansi.Strip(report.Decision(kb, d, report.Header{}, report.DefaultStyles(), 80))
	for _, want := range []string{"Orchestrator  nothing fits · ", "Model server  not needed · ", "no orchestrator (nothing fits)", "Orchestrator · why nothing fits", "unmet need: ", "gitops = true ×", "kubernetes = none", "✗ KServe: KServe runs on", "Assumed", "Changing the hardware"} {
		if !strings.Contains(text, want) {
			t.Errorf("nothing-fits text lacks %q", want)
		}
	}
	trace := ansi.Strip(report.DecisionText(kb, d, report.Header{}, report.DefaultStyles(), 80, report.CardOptions{Trace: true}))
	for _, want := range []string{"unmet need gitops-resources", "Assumed ", "Rests on it: "} {
		if !strings.Contains(trace, want) {
			t.Errorf("nothing-fits trace lacks %q", want)
		}
	}
	kb, d = decideTOML(t, "nodes = 4\nkubernetes = \"none\"\n")
	text = ansi.Strip(report.Decision(kb, d, report.Header{}, report.DefaultStyles(), 80))
	memo := report.Memo(kb, d, report.MemoInput{Date: "2026-12-01"})
	for _, s := range []string{text, memo} {
		for _, want := range []string{"Tie: NVIDIA Dynamo or Ray Serve", "tie-break", "request_pipeline", "assumes gpu = h100 (default): Which accelerator?"} {
			if !strings.Contains(strings.ReplaceAll(s, "`", ""), want) && !strings.Contains(s, strings.Replace(want, "assumes", "Assumes", 1)) {
				t.Errorf("tie text lacks %q", want)
			}
		}
		if strings.Contains(s, "outscored") {
			t.Error("an alternative is argued by its score")
		}
	}
	if !strings.Contains(memo, "## Assumptions") {
		t.Error("the memo has no Assumptions section")
	}
}

// A trade says the alternative would win its layer alone and names the
// whole stack it would need.
func TestATradeSaysWhatTheStackWouldNeed(t *testing.T) {
	kb := knowledge.MustDefault()
	alt := decide.Alternative{Product: "tensorrt-llm", Trade: true, Stack: []decide.Placed{
		{Layer: knowledge.LayerEngine, Pick: "tensorrt-llm"},
		{Layer: "model-server", Pick: knowledge.None},
		{Layer: "orchestrator", Pick: "dynamo"},
	}}
	got := report.TradeText(kb, knowledge.LayerEngine, alt)
	for _, want := range []string{"TensorRT-LLM would win the engine alone, but", "TensorRT-LLM · no model server · NVIDIA Dynamo"} {
		if !strings.Contains(got, want) {
			t.Errorf("trade text %q lacks %q", got, want)
		}
	}
}

// The cards of a nothing-fits layer and of a tie fit narrow widths too.
func TestHardCasesFitNarrowCards(t *testing.T) {
	for _, src := range []string{
		"nodes = 4\nkubernetes = \"none\"\ngovernance = \"vendor-neutral\"\ndisaggregation = true\ngitops = true\n",
		"nodes = 4\nkubernetes = \"none\"\ngovernance = \"vendor-neutral\"\ndisaggregation = true\n",
	} {
		kb, d := decideTOML(t, src)
		for _, w := range []int{36, 76} {
			for _, lp := range d.Layers {
				for _, l := range report.LayerCard(kb, d, lp, report.DefaultStyles(), w, false) {
					if ansi.StringWidth(l) > w {
						t.Errorf("%s card at %d: %d cells: %q", lp.Layer, w, ansi.StringWidth(l), ansi.Strip(l))
					}
				}
			}
		}
	}
}

// The launch command pastes into a shell as printed: from its first line
// to its last, every line but the last ends in a backslash and no comment
// or note sits between them.
func TestLaunchCommandPastesAsPrinted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
	}{{"single-node", 100}, {"exit-test", 100}, {"nvidia-fleet", 100}, {"nvidia-fleet", 40}, {"mixed-models", 80}} {
		name := tc.name
		kb, d := decideScenario(t, name)
		text := ansi.Strip(report.Decision(kb, d, report.Header{}, report.DefaultStyles(), tc.width))
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if !strings.HasPrefix(l, "vllm serve ") && !strings.HasPrefix(l, "python -m sglang") && !strings.HasPrefix(l, "sglang serve") {
				continue
			}
			for j := i; j < len(lines) && strings.HasSuffix(lines[j], "\\"); j++ {
				next := strings.TrimSpace(lines[j+1])
				if next == "" || strings.HasPrefix(next, "#") || strings.HasPrefix(next, "Why each flag") || strings.HasPrefix(next, "note") {
					t.Fatalf("%s: the command breaks at line %d: %q follows %q", name, j+2, lines[j+1], lines[j])
				}
			}
		}
	}
}

func decideScenario(t *testing.T, name string) (*knowledge.KB, decide.Decision) {
	t.Helper()
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Find(all, name)
	if err != nil {
		t.Fatal(err)
	}
	return kb, decide.Decide(kb, sc.Answers)
}
