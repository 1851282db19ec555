package drill_test

import (
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
)

var kb = knowledge.MustDefault()

func content(t *testing.T) *drill.Content {
	t.Helper()
	c, err := drill.Load(kb)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTaxonomyGrading(t *testing.T) {
	c := content(t)
	products := c.TaxonomyQuiz(1, nil)
	if len(products) != 9 {
		t.Fatalf("taxonomy asks %d products, want the seed's 8 plus llama.cpp", len(products))
	}
	right := map[string]string{}
	for _, id := range products {
		right[id] = kb.Product(id).Layer
	}
	cases := []struct {
		name   string
		change map[string]string
		points float64
		missed []string
	}{
		{"all right", nil, 9, nil},
		{"Dynamo-Triton as an orchestrator", map[string]string{"dynamo-triton": "orchestrator"}, 8, []string{"taxonomy:dynamo-triton"}},
		{"KServe as an engine and vLLM left out", map[string]string{"kserve": "engine", "vllm": ""}, 7, []string{"taxonomy:vllm", "taxonomy:kserve"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			placed := map[string]string{}
			for k, v := range right {
				placed[k] = v
			}
			for k, v := range tc.change {
				placed[k] = v
			}
			r := c.GradeTaxonomy(kb, c.TaxonomyProducts, placed)
			if r.Score.Points != tc.points || r.Score.Max != 9 {
				t.Errorf("score %v/%v, want %v/9", r.Score.Points, r.Score.Max, tc.points)
			}
			slices.Sort(r.Score.Missed)
			want := slices.Clone(tc.missed)
			slices.Sort(want)
			if !slices.Equal(r.Score.Missed, want) {
				t.Errorf("missed %v, want %v", r.Score.Missed, want)
			}
			for _, p := range r.Placements {
				if p.Right {
					continue
				}
				if p.Why == "" || strings.Contains(p.Why, kb.Product(p.Product).Role) {
					t.Errorf("wrong placement of %s: the reason %q must explain the layers, not restate the product's role", p.Product, p.Why)
				}
			}
		})
	}
}

// The reason for a wrong placement says what the product's layer does,
// which job of the chosen layer it does not do, and who does that job.
func TestAWrongPlacementIsExplainedByTheDistinction(t *testing.T) {
	c := content(t)
	cases := []struct {
		product, chosen string
		want            []string
	}{
		{"dynamo-triton", "orchestrator", []string{"Dynamo-Triton is a model server: it serves many models of many frameworks", "Not an orchestrator: its name says Dynamo, but it is the renamed Triton Inference Server", "NVIDIA Dynamo, a different product, is the orchestrator"}},
		{"dynamo", "model-server", []string{"NVIDIA Dynamo is an orchestrator: it sits above LLM engines", "Not a model server: it does not serve a repository of models", "that is Dynamo-Triton"}},
		{"sglang", "orchestrator", []string{"SGLang is an engine: it runs the model on the accelerator", "which SGLang router does"}},
		{"kserve", "engine", []string{"KServe is an orchestrator: it deploys serving pods on Kubernetes as InferenceService resources", "Not an engine: it runs no model itself"}},
		// The review: the layer's words were false of KServe ("does not
		// wrap engines behind one HTTP/gRPC API") and generic for Ray Serve.
		{"kserve", "model-server", []string{"KServe is an orchestrator: it deploys serving pods on Kubernetes", "it does put models behind one API, which is why it is placed there, but it works a layer up"}},
		{"ray-serve", "model-server", []string{"Ray Serve is an orchestrator: it composes models and logic, in Python on a Ray cluster", "no repository of framework backends"}},
		{"llm-d", "model-server", []string{"llm-d is an orchestrator: it runs on Kubernetes over vLLM", "it serves LLMs, picking for each request the vLLM pod"}},
		{"sgl-router", "engine", []string{"SGLang router is an orchestrator: it balances requests across SGLang workers", "it runs no model"}},
		{"vllm", "", []string{"vLLM is an engine: it runs the model on the accelerator"}},
	}
	// KServe and Ray Serve no longer share one sentence, and none of the
	// products with words of their own is told the layer's false template.
	if a, b := c.Distinguish(kb, "kserve", "model-server"), c.Distinguish(kb, "ray-serve", "model-server"); strings.Contains(a, "does not wrap engines") || strings.Contains(b, "does not wrap engines") {
		t.Errorf("KServe or Ray Serve told the layer template:\n%s\n%s", a, b)
	}
	for _, id := range []string{"kserve", "ray-serve", "dynamo-triton", "dynamo", "sgl-router", "llm-d"} {
		if _, ok := c.ProductDistinctions[id]; !ok {
			t.Errorf("%s has no distinction of its own", id)
		}
	}
	for _, tc := range cases {
		why := c.Distinguish(kb, tc.product, tc.chosen)
		for _, w := range tc.want {
			if !strings.Contains(why, w) {
				t.Errorf("%s placed on %q: %q lacks %q", tc.product, tc.chosen, why, w)
			}
		}
	}
}

func TestMostMissedItemsComeFirst(t *testing.T) {
	c := content(t)
	order := c.TaxonomyQuiz(7, drill.Misses{"taxonomy:kserve": 3, "taxonomy:dynamo-triton": 1})
	if order[0] != "kserve" || order[1] != "dynamo-triton" {
		t.Fatalf("order %v: most-missed should lead", order)
	}
	if !reflect.DeepEqual(c.TaxonomyQuiz(7, nil), c.TaxonomyQuiz(7, nil)) {
		t.Fatal("same seed, different order")
	}
}

func TestScenarioGradingAgainstDecide(t *testing.T) {
	c := content(t)
	all, _ := scenarios.All(kb)
	exit, _ := scenarios.Find(all, "exit-test")
	d := decide.Decide(kb, exit.Answers)
	cases := []struct {
		name       string
		picks      map[string]string
		defense    map[string]string
		rightCount int
		mentioned  []string // rule ids expected among the engine's mentioned
	}{
		{"the seed's answer, well defended",
			map[string]string{"engine": "vllm", "model-server": "none", "orchestrator": "llm-d"},
			map[string]string{"engine": "vLLM: multi-LoRA adapters for the tenants, and llm-d's canonical engine on Kubernetes", "orchestrator": "k8s-native with cache-aware routing; KServe for lifecycle"},
			3, []string{"multi-lora-vllm", "engine-default-vllm"}},
		{"right stack, no defense",
			map[string]string{"engine": "vllm", "model-server": "none", "orchestrator": "llm-d"},
			nil, 3, nil},
		{"Dynamo instead of llm-d",
			map[string]string{"engine": "vllm", "model-server": "none", "orchestrator": "dynamo"},
			nil, 2, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.GradeScenario(kb, d, drill.StackAnswer{Picks: tc.picks, Defense: tc.defense})
			n := 0
			for _, l := range r.Layers {
				if l.Right {
					n++
				}
				if len(l.Rationale) == 0 && l.Want != "none" {
					t.Errorf("%s: no rationale shown", l.Layer)
				}
			}
			if n != tc.rightCount {
				t.Errorf("%d layers right, want %d", n, tc.rightCount)
			}
			for _, id := range tc.mentioned {
				if !slices.Contains(r.Layers[0].Mentioned, id) {
					t.Errorf("engine defense should be credited with %s; mentioned %v", id, r.Layers[0].Mentioned)
				}
			}
		})
	}
	full := c.GradeScenario(kb, d, drill.StackAnswer{Picks: cases[0].picks, Defense: cases[0].defense})
	bare := c.GradeScenario(kb, d, drill.StackAnswer{Picks: cases[1].picks})
	if full.Score.Points <= bare.Score.Points {
		t.Errorf("a defense that names the reasons (%v) should beat none (%v)", full.Score.Points, bare.Score.Points)
	}
}

func TestGeneratedScenarioIsReproducible(t *testing.T) {
	c := content(t)
	a, b := c.GeneratedPrompt(kb, 42), c.GeneratedPrompt(kb, 42)
	if a.Story != b.Story || !reflect.DeepEqual(a.Answers.Values(), b.Answers.Values()) {
		t.Fatal("seed 42 gave two different scenarios")
	}
	if c.GeneratedPrompt(kb, 43).Story == a.Story {
		t.Error("seeds 42 and 43 told the same story")
	}
	if !strings.Contains(a.Story, "The fleet is ") {
		t.Errorf("story lacks the fleet: %q", a.Story)
	}
}

// The generator sets answers without parsing them; every one it draws must
// still be one the questions allow.
func TestGeneratedScenariosHoldOnlyAllowedAnswers(t *testing.T) {
	c := content(t)
	for seed := range uint64(200) {
		if err := kb.Check(c.GeneratedPrompt(kb, seed).Answers); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func TestFlagGrading(t *testing.T) {
	c := content(t)
	q := func(id, mode string) drill.FlagQuestion {
		for seed := range uint64(100) {
			for _, fq := range c.FlagQuiz(kb, seed, nil) {
				if fq.FlagID == id && fq.Mode == mode {
					return fq
				}
			}
		}
		t.Fatalf("no question for %s in mode %s", id, mode)
		return drill.FlagQuestion{}
	}
	gmu := q("vllm-gpu-memory-utilization", drill.ModeDefault)
	if len(gmu.Choices) != 4 || gmu.Choices[gmu.Correct] != kb.Flag("vllm-gpu-memory-utilization").Effect {
		t.Fatalf("effect choices wrong: %+v", gmu)
	}
	cases := []struct {
		name       string
		q          drill.FlagQuestion
		ans        drill.FlagAnswer
		points     float64
		correction string
	}{
		{"current default and effect", gmu, drill.FlagAnswer{Default: "0.92", Choice: gmu.Correct}, 2, ""},
		{"the seed's default earns half and the correction", gmu, drill.FlagAnswer{Default: "0.90", Choice: gmu.Correct}, 1.5, "is the course notes' answer, out of date or only part of it; today: 0.92"},
		{"wrong default, wrong effect", gmu, drill.FlagAnswer{Default: "0.5", Choice: (gmu.Correct + 1) % 4}, 0, ""},
		{"naming the flag", q("vllm-speculative-config", drill.ModeName), drill.FlagAnswer{Name: "--speculative-config"}, 2, ""},
		{"naming it without dashes", q("vllm-enforce-eager", drill.ModeName), drill.FlagAnswer{Name: "enforce-eager"}, 2, ""},
		{"the seed's removed name earns half", q("vllm-speculative-config", drill.ModeName), drill.FlagAnswer{Name: "--speculative-model"}, 1, "--speculative-model is removed"},
		{"a renamed-twice name still counts as the seed's", q("vllm-max-cudagraph-capture-size", drill.ModeName), drill.FlagAnswer{Name: "--max-seq-len-to-capture"}, 1, "today the flag is --max-cudagraph-capture-size"},
		{"an unrelated flag", q("vllm-block-size", drill.ModeName), drill.FlagAnswer{Name: "--max-model-len"}, 0, ""},
		{"92% is 0.92", gmu, drill.FlagAnswer{Default: "92%", Choice: gmu.Correct}, 2, ""},
		{".92 is 0.92", gmu, drill.FlagAnswer{Default: ".92", Choice: gmu.Correct}, 2, ""},
		{"0.920 is 0.92", gmu, drill.FlagAnswer{Default: "0.920.", Choice: gmu.Correct}, 2, ""},
		{"90% is the course notes' 0.9", gmu, drill.FlagAnswer{Default: "90%", Choice: gmu.Correct}, 1.5, "today: 0.92"},
		{"enabled is on", q("vllm-enable-prefix-caching", drill.ModeDefault), drill.FlagAnswer{Default: "Enabled", Choice: -1}, 1, ""},
		{"true is on", q("vllm-enable-chunked-prefill", drill.ModeDefault), drill.FlagAnswer{Default: "true", Choice: -1}, 1, ""},
		{"disabled is off", q("vllm-enforce-eager", drill.ModeDefault), drill.FlagAnswer{Default: "disabled", Choice: -1}, 1, ""},
		{"on is not off", q("vllm-enforce-eager", drill.ModeDefault), drill.FlagAnswer{Default: "on", Choice: -1}, 0, ""},
		{"8k is 8192", q("vllm-max-num-batched-tokens", drill.ModeDefault), drill.FlagAnswer{Default: "2k/8k", Choice: -1}, 1, ""},
		{"a typo of the right flag earns half", q("vllm-max-num-seqs", drill.ModeName), drill.FlagAnswer{Name: "--max-num-seq"}, 1, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := c.GradeFlag(kb, tc.q, tc.ans)
			if g.Points != tc.points {
				t.Errorf("points %v, want %v (%+v)", g.Points, tc.points, g)
			}
			if tc.correction != "" && !strings.Contains(g.Correction, tc.correction) {
				t.Errorf("correction %q lacks %q", g.Correction, tc.correction)
			}
			if g.Default == "" || g.Source == "" {
				t.Error("grading must teach the current default and its source")
			}
			if regexp.MustCompile(`[0-9a-f]{40}`).MatchString(g.Source) {
				t.Errorf("a full commit hash in the feedback: %s", g.Source)
			}
		})
	}
}

func TestANearMissFlagNameSaysDidYouMean(t *testing.T) {
	c := content(t)
	q := drill.FlagQuestion{FlagID: "vllm-max-num-seqs", Mode: drill.ModeName, Flag: "--max-num-seqs"}
	g := c.GradeFlag(kb, q, drill.FlagAnswer{Name: "max-num-seq"})
	if g.DidYouMean != "--max-num-seqs" || g.NameVerdict != "nearly right" {
		t.Errorf("typo: did you mean %q, verdict %q", g.DidYouMean, g.NameVerdict)
	}
	q = drill.FlagQuestion{FlagID: "vllm-block-size", Mode: drill.ModeName, Flag: "--block-size"}
	g = c.GradeFlag(kb, q, drill.FlagAnswer{Name: "--max-num-seqz"})
	if g.DidYouMean != "--max-num-seqs" || g.Points != 0 {
		t.Errorf("near miss of another flag: did you mean %q, %v points", g.DidYouMean, g.Points)
	}
	g = c.GradeFlag(kb, q, drill.FlagAnswer{Name: "--max-model-len"})
	if g.DidYouMean != "" {
		t.Errorf("a real flag, only the wrong one, needs no did-you-mean: %q", g.DidYouMean)
	}
}

// An effect that a later question asks for is never offered as a wrong
// effect before it: that would give the later answer away.
func TestFlagDistractorsDoNotGiveAwayLaterQuestions(t *testing.T) {
	c := content(t)
	for seed := range uint64(200) {
		misses := drill.Misses{}
		if seed%3 == 0 {
			misses["flags:vllm-block-size:name"] = 2
			misses["flags:vllm-enforce-eager:default-and-effect"] = 1
		}
		qs := c.FlagQuiz(kb, seed, misses)
		for i, q := range qs {
			if q.Mode != drill.ModeDefault {
				continue
			}
			if len(q.Choices) != 4 || q.Choices[q.Correct] != q.Effect {
				t.Fatalf("seed %d q%d: %d choices, correct %d", seed, i, len(q.Choices), q.Correct)
			}
			for _, later := range qs[i+1:] {
				if later.Mode == drill.ModeDefault && later.FlagID != q.FlagID && slices.Contains(q.Choices, later.Effect) {
					t.Fatalf("seed %d: question %d (%s) offers the effect of the later %s", seed, i+1, q.Flag, later.Flag)
				}
			}
		}
	}
}

func TestFlagQuizAsksMissedFlagsAgain(t *testing.T) {
	c := content(t)
	plain := c.FlagQuiz(kb, 5, nil)
	if len(plain) != 12 {
		t.Fatalf("%d questions, want 12", len(plain))
	}
	weak := c.FlagQuiz(kb, 5, drill.Misses{"flags:vllm-block-size:name": 2})
	if weak[0].FlagID != "vllm-block-size" || weak[0].Mode != drill.ModeName {
		t.Errorf("the missed flag should come first in its missed mode: %+v", weak[0])
	}
	if len(weak) != 13 || weak[12].FlagID != "vllm-block-size" || weak[12].Mode != drill.ModeDefault {
		t.Errorf("the missed flag should be asked again in the other mode: %d questions", len(weak))
	}
}

func TestExplainGrading(t *testing.T) {
	topic := content(t).Topic()
	good := "Dynamo-Triton is just the renamed Triton Inference Server, a general model server for any model: ONNX, PyTorch, XGBoost. " +
		"Dynamo is an orchestrator that sits above engines like vLLM and does KV-cache-aware routing and prefill/decode disaggregation. They can coexist; it depends on scale."
	cases := []struct {
		name    string
		text    string
		elapsed time.Duration
		points  float64
	}{
		{"all key points in time", good, 80 * time.Second, 6},
		{"all key points, too late", good, 95 * time.Second, 0},
		{"half the points", "Triton was renamed. Dynamo orchestrates the fleet.", 30 * time.Second, 2},
		{"nothing", "", 5 * time.Second, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := drill.GradeExplain(topic, tc.text, tc.elapsed)
			if r.Score.Points != tc.points {
				t.Errorf("points %v, want %v; covered %d, missed %v", r.Score.Points, tc.points, len(r.Covered), r.Score.Missed)
			}
			if r.KeywordList {
				t.Errorf("sentences marked a keyword list: %q", tc.text)
			}
		})
	}
}

// The review's answer: every key point's words are there, but said of the
// other product. It must not pass.
func TestAnExplanationThatSwapsDynamoAndDynamoTritonScoresLow(t *testing.T) {
	c := content(t)
	swapped := "Dynamo is just the renamed Triton Inference Server, a general model server for any model: ONNX, PyTorch, XGBoost. " +
		"Dynamo-Triton is an orchestrator that sits above engines like vLLM and does KV-cache-aware routing and prefill/decode disaggregation. They can coexist; it depends on scale."
	r := drill.GradeExplain(c.Topic(), swapped, 60*time.Second)
	if r.Score.Ratio() >= c.Bar.Explain {
		t.Fatalf("the swapped answer scores %s, at or over the bar", r.Score.Text())
	}
	for _, id := range []string{"triton-renamed", "triton-general-server", "dynamo-orchestrates-engines", "dynamo-fleet-features"} {
		if !slices.Contains(r.Score.Missed, drill.ExplainItem(c.Topic().ID, id)) {
			t.Errorf("%s credited though said of the other product", id)
		}
		if note := r.Note(id); !strings.Contains(note, "but of") && !strings.Contains(note, "which is not so") {
			t.Errorf("%s: note %q should say it was said of the other product, or is false of this one", id, note)
		}
	}
	if n := r.Note("triton-renamed"); !strings.Contains(n, "of NVIDIA Dynamo, not of Dynamo-Triton") {
		t.Errorf("note %q should name both products", n)
	}
}

// The review's answers (issue 11, deliverable 8): every sentence false; a
// period-separated keyword string; the swapped "choose by scope" sentence;
// "hardly". Each must score below the pass bar, while a good answer and
// the reference still score full.
func TestTheReviewersWrongExplanationsScoreBelowTheBar(t *testing.T) {
	c := content(t)
	topic := c.Topic()
	good := "Dynamo-Triton is the renamed Triton Inference Server, a general model server for any model: ONNX, PyTorch, XGBoost, vision or tabular models. " +
		"NVIDIA Dynamo is an orchestrator that sits above engines like vLLM and SGLang and adds KV-cache-aware routing and prefill/decode disaggregation. " +
		"They are different layers and can coexist. Use Dynamo-Triton for general model serving and Dynamo for LLM inference at multi-GPU scale."
	for name, text := range map[string]string{"good": good, "reference": topic.Reference} {
		r := drill.GradeExplain(topic, text, 60*time.Second)
		if r.Score.Points != r.Score.Max || r.KeywordList {
			t.Errorf("%s answer scores %s (keyword list %v); missed %v, notes %v", name, r.Score.Text(), r.KeywordList, r.Score.Missed, r.Notes)
		}
	}
	swappedLast := strings.Replace(good, "Use Dynamo-Triton for general model serving and Dynamo for LLM inference", "Use Dynamo for general model serving and Dynamo-Triton for LLM inference", 1)
	for name, text := range map[string]string{
		"every sentence false": "Dynamo-Triton is a renamed version of vLLM. Dynamo-Triton in general is an engine. Dynamo is an orchestrator of nothing, it is a GPU driver. Dynamo has no cache-aware routing at all, that is SGLang. They coexist as one product. Dynamo is for small scale.",
		"period keywords":      "Dynamo is an orchestrator. Dynamo-Triton is renamed. general. coexist. scale. cache-aware.",
		"swapped scope alone":  "Use Dynamo for general model serving and Dynamo-Triton for LLM inference at multi-GPU scale.",
		"swapped scope":        swappedLast,
		"hardly":               "Dynamo is hardly an orchestrator. Dynamo-Triton was barely renamed. Dynamo-Triton serves neither ONNX nor PyTorch. Dynamo works without KV-aware routing.",
	} {
		r := drill.GradeExplain(topic, text, 60*time.Second)
		if r.Score.Ratio() >= c.Bar.Explain {
			t.Errorf("%s: %s, at or over the bar; covered by %v", name, r.Score.Text(), r.Terms)
		}
		if name == "swapped scope" || name == "swapped scope alone" {
			if !slices.Contains(r.Score.Missed, drill.ExplainItem(topic.ID, "choose-by-scope")) {
				t.Errorf("%s: choose-by-scope credited: %v", name, r.Terms)
			}
		}
		if name == "period keywords" && !r.KeywordList {
			t.Errorf("period-separated keywords not marked a keyword list")
		}
	}
	r := drill.GradeExplain(topic, "Dynamo-Triton is a renamed version of vLLM.", time.Second)
	if n := r.Note("triton-renamed"); !strings.Contains(n, "“of vllm”") || !strings.Contains(n, "not so") {
		t.Errorf("the contradiction's note %q should quote it", n)
	}
}

func TestAKeywordListIsMarkedAndEarnsNoFullMarks(t *testing.T) {
	topic := content(t).Topic()
	for _, list := range []string{
		"renamed, general model server, orchestrator, fleet, KV-aware routing, disaggregation, coexist, depends on scale",
		"Dynamo-Triton renamed Triton general server ONNX. Dynamo orchestrator fleet routing disaggregation coexist scale",
		"Dynamo-Triton: renamed\nmodel server\nDynamo: orchestrator\nKV-aware routing\ncoexist\nscale",
	} {
		r := drill.GradeExplain(topic, list, 30*time.Second)
		if !r.KeywordList {
			t.Errorf("not marked a keyword list: %q", list)
		}
		if r.Score.Points >= r.Score.Max/2+1e-9 || len(r.Feedback) == 0 || !strings.Contains(r.Feedback[0], "list of keywords") {
			t.Errorf("%q: %s with feedback %q; a keyword list earns half at most and says why", list, r.Score.Text(), r.Feedback)
		}
	}
}

func TestANegatedKeyPointIsNotCredited(t *testing.T) {
	topic := content(t).Topic()
	negated := "Dynamo-Triton is not a general model server and it was never renamed. " +
		"NVIDIA Dynamo doesn't orchestrate engines and it has no KV-aware routing. They can coexist."
	r := drill.GradeExplain(topic, negated, 30*time.Second)
	if r.Score.Points != 1 {
		t.Errorf("negated answer scores %s, want only the coexist point; covered %v", r.Score.Text(), r.Terms)
	}
	if n := r.Note("triton-general-server"); !strings.Contains(n, "only in the negative") {
		t.Errorf("note %q should say the point was negated", n)
	}
	// A negation in another clause does not cancel the point.
	r = drill.GradeExplain(topic, "Dynamo-Triton is not an orchestrator; it is a general model server.", 30*time.Second)
	if r.Score.Points != 1 {
		t.Errorf("a negation in the other clause cancelled the point: %s", r.Score.Text())
	}
}

func TestMockExitTestPassesOnlyAtTheBar(t *testing.T) {
	c := content(t)
	tax := drill.TaxonomyResult{Score: drill.Score{Points: 9, Max: 9}}
	sc := drill.ScenarioResult{Layers: []drill.LayerGrade{{Right: true}, {Right: true}, {Right: true}}, Score: drill.Score{Points: 4, Max: 6}}
	fl := drill.FlagsResult{Score: drill.Score{Points: 20, Max: 24, Missed: []string{"flags:vllm-block-size:name"}}}
	ex := drill.ExplainResult{Score: drill.Score{Points: 5, Max: 6}}
	if r := c.GradeMock(tax, sc, fl, ex); !r.Pass {
		t.Fatalf("should pass: %+v", r.Parts)
	}
	sc.Layers[2].Right = false
	sc.Score.Missed = []string{"scenario:orchestrator"}
	r := c.GradeMock(tax, sc, fl, ex)
	if r.Pass || r.Weakest[0] != "scenario:orchestrator" {
		t.Fatalf("a wrong layer fails the mock and leads the weakest items: %+v", r)
	}
}

// Leaving a layer empty can be defended too: a rule that speaks for "none"
// has key terms, so the full score is reachable.
func TestADefenseOfAnEmptyLayerEarnsItsPoint(t *testing.T) {
	c := content(t)
	all, _ := scenarios.All(kb)
	exit, _ := scenarios.Find(all, "exit-test")
	d := decide.Decide(kb, exit.Answers)
	r := c.GradeScenario(kb, d, drill.StackAnswer{
		Picks:   map[string]string{"engine": "vllm", "model-server": "none", "orchestrator": "llm-d"},
		Defense: map[string]string{"model-server": "not needed: only LLMs, the engine's OpenAI-compatible server is enough"},
	})
	if ms := r.Layers[1]; len(ms.Unmentioned) != 0 || len(ms.Mentioned) == 0 {
		t.Fatalf("model-server defense not credited: %+v", ms)
	}
}

func TestGeneratedStoriesReadWell(t *testing.T) {
	c := content(t)
	for seed := range uint64(300) {
		p := c.GeneratedPrompt(kb, seed)
		for _, bad := range []string{"change frozen", "0 × ", "{", "}", "(s)", " 1 nodes", " 1 tenants"} {
			if strings.Contains(p.Story, bad) {
				t.Fatalf("seed %d: story has %q: %s", seed, bad, p.Story)
			}
		}
		if p.Answers.Get("kubernetes").Str == "none" && (p.Answers.Get("gitops").Bool || p.Answers.Get("traffic_splitting").Bool) {
			t.Fatalf("seed %d: GitOps or traffic splitting without Kubernetes: %s", seed, p.Story)
		}
	}
}

// Every generated scenario is one people meet, and has a stack: GPUs per
// node as servers come (never "3 × B200"), fine-tunes with a method (never
// "16 fine-tunes (method: none)"), no batch traffic that puts latency
// first, and a decision with no layer where nothing fits.
func TestEveryGeneratedScenarioIsPlausible(t *testing.T) {
	c := content(t)
	perNode := map[string][]int{"b200": {8}, "b300": {8}, "mi300x": {8}, "mi325x": {8}, "mi355x": {8}, "gaudi3": {8}, "tpu-v6e": {1, 4, 8}, "m3-ultra-512gb": {1}}
	told := map[string]bool{}
	for _, p := range c.Phrases {
		told[p.Key] = true
		for _, q := range kb.Questions {
			if strings.Contains(p.Text, "{"+q.Key+"}") {
				told[q.Key] = true
			}
		}
	}
	defaults := kb.Defaults()
	for seed := range uint64(1000) {
		p := c.GeneratedPrompt(kb, seed)
		a := p.Answers
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d: "+format+"\n%s", append(append([]any{seed}, args...), p.Story)...)
		}
		gpu, gpn := a.Get("gpu").Str, a.Get("gpus_per_node").Int
		want := []int{1, 2, 4, 8}
		if w, ok := perNode[gpu]; ok {
			want = w
		}
		if gpu == "cpu" {
			want = []int{0}
		}
		if !slices.Contains(want, gpn) {
			fail("%d × %s per node", gpn, gpu)
		}
		if fts, m := a.Get("fine_tunes").Int, a.Get("fine_tune_method").Str; (fts > 0) != (m != "none") {
			fail("%d fine-tunes (method: %s)", fts, m)
		}
		if a.Get("workload").Str == "batch" && a.Get("latency_priority").Str == "latency" {
			fail("batch traffic with latency priority")
		}
		if strings.Contains(p.Story, "method: none") {
			fail("the story tells a method of none")
		}
		// The review's cases: models beyond the hardware, P/D on 1-GPU
		// nodes, CNCF with no Kubernetes, canaries of a frozen stack.
		room := a.Get("nodes").Int * max(gpn, 0) * 2
		if gpn == 0 {
			room = a.Get("nodes").Int
		}
		if base := a.Get("base_models").Int; base > max(room, 1) {
			fail("%d base models on %d nodes of %d × %s", base, a.Get("nodes").Int, gpn, gpu)
		}
		if a.Get("disaggregation").Bool && gpn < 2 {
			fail("P/D disaggregation on %d-GPU nodes", gpn)
		}
		if a.Get("kubernetes").Str == "none" && a.Get("governance").Str == "vendor-neutral" {
			fail("a CNCF-governed stack with no Kubernetes")
		}
		if a.Get("change_cadence").Str == "frozen" && a.Get("traffic_splitting").Bool {
			fail("canary rollouts of a frozen deployment")
		}
		if strings.Contains(p.Story, "mostly rag") {
			fail("RAG spelt rag")
		}
		// The expected answer is typeable: the stack's words for each
		// layer, typed at the prompt, read as that pick.
		for _, l := range decide.Decide(kb, a).Layers {
			ids, names := drill.PickChoices(kb, l.Layer)
			typed := l.Pick
			for _, id := range l.Also {
				typed += " + " + kb.Product(id).Name
			}
			if got := drill.ParsePick(typed, ids, names, l.Pick, l.Also); got != l.Pick {
				fail("the %s answer %q typed reads as %q", l.Layer, typed, got)
			}
			if len(l.Also) > 0 {
				rev := kb.Product(l.Also[0]).Name + " + " + l.Pick
				if got := drill.ParsePick(rev, ids, names, l.Pick, l.Also); got != l.Pick {
					fail("the %s answer %q typed reads as %q", l.Layer, rev, got)
				}
			}
		}
		for qi, q := range kb.Questions {
			if !q.Derived && !told[q.Key] && !reflect.DeepEqual(a.Values()[qi], defaults.Values()[qi]) {
				fail("%s is drawn but the story never tells it", q.Key)
			}
		}
		if bad := c.Implausible(kb, a); len(bad) > 0 {
			fail("implausible: %v", bad)
		}
		for _, l := range decide.Decide(kb, a).Layers {
			if len(l.Conflicts) > 0 {
				fail("nothing fits on the %s layer: %+v", l.Layer, l.Conflicts)
			}
		}
	}
}

func TestImplausibleNamesWhatPeopleWouldNotMeet(t *testing.T) {
	c := content(t)
	a := kb.Defaults()
	set := func(key string, v any) {
		if err := a.Set(key, v); err != nil {
			t.Fatal(err)
		}
	}
	set("gpu", "b200")
	set("gpus_per_node", int64(3))
	set("fine_tunes", int64(16))
	set("fine_tune_method", "none")
	set("workload", "batch")
	set("latency_priority", "latency")
	got := strings.Join(c.Implausible(kb, a), "; ")
	for _, want := range []string{"3 × b200 per node", "16 fine-tunes with method none", "batch traffic with latency first"} {
		if !strings.Contains(got, want) {
			t.Errorf("Implausible = %q, lacks %q", got, want)
		}
	}
	if bad := c.Implausible(kb, kb.Defaults()); len(bad) > 0 {
		t.Errorf("the default answers are implausible: %v", bad)
	}
}

func TestAScoreReadsAsPointsOfTheMaximum(t *testing.T) {
	cases := []struct {
		s          drill.Score
		text, frac string
	}{
		{drill.Score{Points: 8, Max: 9}, "8 of 9 (89%)", "8/9"},
		{drill.Score{Points: 16.0 / 3, Max: 6}, "5.33 of 6 (89%)", "5.33/6"},
		{drill.Score{Points: 1.5, Max: 2}, "1.5 of 2 (75%)", "1.5/2"},
		{drill.Score{}, "0 of 0 (0%)", "0/0"},
	}
	for _, c := range cases {
		if got := c.s.Text(); got != c.text {
			t.Errorf("Text() = %q, want %q", got, c.text)
		}
		if got := drill.Fraction(c.s.Points, c.s.Max); got != c.frac {
			t.Errorf("Fraction = %q, want %q", got, c.frac)
		}
	}
}

// The mock exit test is recorded as a point per part, scaled by the part's
// ratio, with the weakest items as the missed ones.
func TestTheMockExitTestScoresAPointPerPart(t *testing.T) {
	r := drill.MockResult{Pass: false, Weakest: []string{"scenario:orchestrator"}, Parts: []drill.MockPart{
		{Ratio: 1}, {Ratio: 2.0 / 3}, {Ratio: 0.75}, {Ratio: 0.5},
	}}
	s := r.Score()
	if s.Max != 4 || math.Abs(s.Points-(1+2.0/3+0.75+0.5)) > 1e-9 || !slices.Equal(s.Missed, r.Weakest) {
		t.Errorf("got %+v", s)
	}
	if r.Verdict() != "FAIL" {
		t.Errorf("verdict %s", r.Verdict())
	}
	r.Pass = true
	if r.Verdict() != "PASS" {
		t.Errorf("verdict %s", r.Verdict())
	}
}

func TestProgressCountsAttemptsInWords(t *testing.T) {
	cases := map[string]string{
		drill.Progress("taxonomy", 1, 1.0/3, 1.0/3, 0): "Taxonomy    1 attempt   last  33%  best  33%",
		drill.Progress("flags", 3, 0.89, 1, 0):         "Flags       3 attempts  last  89%  best 100%",
		drill.Progress("mock", 2, 0.5, 0.75, 1):        "Mock        2 attempts  last  50%  best  75%  1 passed",
	}
	for got, want := range cases {
		if got != want || strings.Contains(got, " ,") {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestATrendShowsTheLastScoresOldestFirst(t *testing.T) {
	if got := drill.Trend([]float64{0.1, 2.0 / 3, 0.889, 1}, 3); got != "67% → 89% → 100%" {
		t.Errorf("got %q", got)
	}
	if got := drill.Trend(nil, 5); got != "" {
		t.Errorf("no attempts: got %q", got)
	}
}

// The explanation and a flag's default are free text: no input may panic
// the grading, and grading stays within its maximum.
func FuzzGradeExplain(f *testing.F) {
	c, err := drill.Load(kb)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "Dynamo-Triton, not Dynamo.", "renamed, , ; but while whereas", "’’’", "no. not. never!", "Triton is v1.6. e.g. dynamo"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := drill.GradeExplain(c.Topic(), text, time.Second)
		if r.Score.Points < 0 || r.Score.Points > r.Score.Max {
			t.Fatalf("score %v of %v", r.Score.Points, r.Score.Max)
		}
		q := drill.FlagQuestion{FlagID: "vllm-gpu-memory-utilization", Mode: drill.ModeDefault, Correct: 0}
		if g := c.GradeFlag(kb, q, drill.FlagAnswer{Default: text, Choice: -1}); g.Points > 1 {
			t.Fatalf("a default alone earned %v", g.Points)
		}
		q = drill.FlagQuestion{FlagID: "vllm-max-num-seqs", Mode: drill.ModeName}
		if g := c.GradeFlag(kb, q, drill.FlagAnswer{Name: text}); g.Points > 2 {
			t.Fatalf("a name earned %v", g.Points)
		}
	})
}

// A generated scenario is drawn again while it is implausible or leaves a
// layer where nothing fits; this is what that costs per scenario.
func BenchmarkGeneratedPrompt(b *testing.B) {
	c, err := drill.Load(kb)
	if err != nil {
		b.Fatal(err)
	}
	var seed uint64
	for b.Loop() {
		c.GeneratedPrompt(kb, seed)
		seed++
	}
}

// No question of the flags drill gives away a later one: its text, its
// wrong effects and its feedback (for a right and for a wrong answer)
// never name a flag a later question asks for by name (the review found
// 12 of 82 name questions over seeds 1-15 answered earlier in the drill).
func TestFlagsDrillGivesNoLaterAnswerAway(t *testing.T) {
	c := content(t)
	for _, misses := range []drill.Misses{nil, {"flags:vllm-max-num-seqs:default-and-effect": 2, "flags:vllm-max-model-len:name": 1}} {
		for seed := uint64(1); seed <= 50; seed++ {
			qs := c.FlagQuiz(kb, seed, misses)
			if len(qs) < 12 {
				t.Fatalf("seed %d: %d questions", seed, len(qs))
			}
			for i, q := range qs {
				shown := []string{q.Effect}
				if q.Mode == drill.ModeDefault {
					shown = append([]string{q.Flag}, q.Choices...)
				}
				right := c.GradeFlagAt(kb, qs, i, drill.FlagAnswer{Default: kb.Flag(q.FlagID).Default, Choice: q.Correct, Name: q.Flag})
				wrong := c.GradeFlagAt(kb, qs, i, drill.FlagAnswer{Default: "xyz", Choice: (q.Correct + 1) % 4, Name: "xyz"})
				shown = append(shown, right.Feedback()...)
				shown = append(shown, wrong.Feedback()...)
				// A near miss of a later answer gets no "did you mean" of it.
				if q.Mode == drill.ModeName {
					for _, later := range qs[i+1:] {
						if later.Mode == drill.ModeName && later.FlagID != q.FlagID {
							near := c.GradeFlagAt(kb, qs, i, drill.FlagAnswer{Name: later.Flag[:len(later.Flag)-1]})
							shown = append(shown, near.Feedback()...)
						}
					}
				}
				text := strings.Join(shown, "\n")
				for j, later := range qs[i+1:] {
					if later.Mode != drill.ModeName {
						continue
					}
					if drill.NamesFlag(text, later.Flag) {
						t.Errorf("seed %d misses %v: question %d (%s, %s) names %s, the answer of question %d", seed, misses != nil, i+1, q.FlagID, q.Mode, later.Flag, i+j+2)
					}
				}
			}
		}
	}
	if !drill.NamesFlag("chunks of --max-num-batched-tokens tokens", "--max-num-batched-tokens") || !drill.NamesFlag("derived from max-num-seqs.", "--max-num-seqs") || drill.NamesFlag("the kv-block-size", "--block-size") {
		t.Error("NamesFlag misreads a flag's name")
	}
}

// The flags drill takes a right default however it is spelt (the review's
// rejected paraphrases), the full GPU rule for full marks, and a flag
// named with the underscores vLLM's parser accepts.
func TestFlagsDrillAcceptsParaphrases(t *testing.T) {
	c := content(t)
	for _, tc := range [][2]string{
		{"vllm-gpu-memory-utilization", "92 %"},
		{"vllm-gpu-memory-utilization", "92 percent"},
		{"vllm-gpu-memory-utilization", "92 per cent"},
		{"vllm-tensor-parallel-size", "one"},
		{"vllm-max-cudagraph-capture-size", "depends on max-num-seqs"},
		{"vllm-max-cudagraph-capture-size", "depends on --max-num-seqs"},
		{"vllm-max-cudagraph-capture-size", "derived from max-num-seqs"},
		{"vllm-max-cudagraph-capture-size", "same as --max-num-seqs"},
		{"vllm-max-num-seqs", "256 elsewhere, 1024 on H100"},
		{"vllm-max-num-batched-tokens", "8192 on H100, 2048 on A100"},
	} {
		g := c.GradeFlag(kb, drill.FlagQuestion{FlagID: tc[0], Mode: drill.ModeDefault}, drill.FlagAnswer{Default: tc[1], Choice: -1})
		if g.DefaultVerdict != "right" || g.Points != 1 {
			t.Errorf("%s: %q graded %s (%v points), want right", tc[0], tc[1], g.DefaultVerdict, g.Points)
		}
	}
	for _, wrong := range [][2]string{{"vllm-gpu-memory-utilization", "90 %"}, {"vllm-tensor-parallel-size", "two"}, {"vllm-max-num-seqs", "256"}} {
		if g := c.GradeFlag(kb, drill.FlagQuestion{FlagID: wrong[0], Mode: drill.ModeDefault}, drill.FlagAnswer{Default: wrong[1], Choice: -1}); g.DefaultVerdict == "right" {
			t.Errorf("%s: %q graded right", wrong[0], wrong[1])
		}
	}
	if g := c.GradeFlag(kb, drill.FlagQuestion{FlagID: "vllm-kv-cache-dtype", Mode: drill.ModeName}, drill.FlagAnswer{Name: "--kv_cache_dtype"}); g.Points != 2 {
		t.Errorf("--kv_cache_dtype: %s (%v)", g.NameVerdict, g.Points)
	}
}
