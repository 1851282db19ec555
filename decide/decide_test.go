package decide_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

var kb = knowledge.MustDefault()

func scenario(t testing.TB, name string) knowledge.Answers {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Find(all, name)
	if err != nil {
		t.Fatal(err)
	}
	return s.Answers
}

func layer(d decide.Decision, id string) decide.LayerPick {
	for _, l := range d.Layers {
		if l.Layer == id {
			return l
		}
	}
	panic("no layer " + id)
}

// Each line of the seed's decision tree, as a preset, yields the seed's stack.
func TestDecisionTreeLinesYieldTheSeedsStacks(t *testing.T) {
	cases := []struct {
		scenario     string
		engine       []string // any of
		modelServer  string
		orchestrator string
		also         []string
	}{
		{"single-node", []string{"vllm"}, "none", "none", nil},
		{"mixed-models", []string{"vllm"}, "dynamo-triton", "none", nil},
		{"nvidia-fleet", []string{"vllm", "tensorrt-llm"}, "none", "dynamo", nil},
		{"k8s-fleet", []string{"vllm"}, "none", "llm-d", []string{"kserve"}},
		{"gitops-rollouts", []string{"vllm"}, "none", "kserve", nil},
		{"request-pipeline", []string{"vllm"}, "none", "ray-serve", nil},
		{"last-15-percent", []string{"tensorrt-llm"}, "none", "dynamo", nil},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			d := decide.Decide(kb, scenario(t, c.scenario))
			if got := layer(d, "engine").Pick; !slices.Contains(c.engine, got) {
				t.Errorf("engine = %s, want one of %v", got, c.engine)
			}
			if got := layer(d, "model-server").Pick; got != c.modelServer {
				t.Errorf("model server = %s, want %s", got, c.modelServer)
			}
			orch := layer(d, "orchestrator")
			if orch.Pick != c.orchestrator {
				t.Errorf("orchestrator = %s, want %s", orch.Pick, c.orchestrator)
			}
			if !slices.Equal(orch.Also, nonNil(c.also)) {
				t.Errorf("orchestrator also = %v, want %v", orch.Also, c.also)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// The seed's exit-test scenario: vLLM + llm-d (+ KServe), with TensorRT-LLM
// and Dynamo among the alternatives, each with a reason.
func TestExitTestPicksVLLMAndLLMDWithKServe(t *testing.T) {
	d := decide.Decide(kb, scenario(t, "exit-test"))
	eng, orch := layer(d, "engine"), layer(d, "orchestrator")
	if eng.Pick != "vllm" {
		t.Fatalf("engine = %s, want vllm", eng.Pick)
	}
	if orch.Pick != "llm-d" || !slices.Equal(orch.Also, []string{"kserve"}) {
		t.Fatalf("orchestrator = %s + %v, want llm-d + [kserve]", orch.Pick, orch.Also)
	}
	for _, want := range []struct {
		lp      decide.LayerPick
		product string
	}{{eng, "tensorrt-llm"}, {orch, "dynamo"}} {
		found := false
		for _, alt := range want.lp.Alternatives {
			if alt.Product != want.product {
				continue
			}
			found = true
			if len(alt.WhyNot) == 0 || len(alt.Against) == 0 {
				t.Errorf("%s is an alternative without a rule against it: %+v", want.product, alt)
			}
		}
		if !found {
			t.Errorf("%s is not among the %s alternatives", want.product, want.lp.Layer)
		}
	}
	for _, lp := range d.Layers {
		if lp.Pick != knowledge.None && len(lp.Reasons) == 0 {
			t.Errorf("%s pick %s has no reason", lp.Layer, lp.Pick)
		}
		for _, r := range lp.Reasons {
			if r.Source == "" || r.Text == "" {
				t.Errorf("reason %s lacks text or source", r.Rule)
			}
		}
	}
	// The flips name real single-answer changes: dropping to one node
	// removes the orchestrator.
	if !hasFlip(orch.Flips, "nodes", "1", "none") {
		t.Errorf("orchestrator flips lack nodes → 1 ⇒ none: %+v", orch.Flips)
	}
}

func hasFlip(fs []decide.Flip, answer, to, pick string) bool {
	for _, f := range fs {
		if f.Answer == answer && f.To == to && f.Pick == pick {
			return true
		}
	}
	return false
}

// Every flip, when applied, really changes the layer's outcome; and the
// decision it describes is the one decide gives for the changed answers.
func TestFlipsAreTrueWhenApplied(t *testing.T) {
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		for li, lp := range d.Layers {
			for _, f := range lp.Flips {
				changed := s.Answers.Clone()
				q := kb.Question(f.Answer)
				if err := changed.Set(f.Answer, rawOf(q, f.To)); err != nil {
					t.Fatalf("%s: flip %+v: %v", s.Name, f, err)
				}
				got := decide.Decide(kb, changed).Layers[li]
				if got.Pick != f.Pick || !slices.Equal(got.Also, f.Also) {
					t.Errorf("%s: flip %s → %s says %s %v, decide says %s %v", s.Name, f.Answer, f.To, f.Pick, f.Also, got.Pick, got.Also)
				}
			}
		}
	}
}

// rawOf turns a flip's plain "to" text back into a raw TOML value.
func rawOf(q *knowledge.Question, s string) any {
	switch q.Type {
	case knowledge.TypeInt:
		var n int64
		for _, r := range s {
			n = n*10 + int64(r-'0')
		}
		return n
	case knowledge.TypeBool:
		return s == "true"
	case knowledge.TypeList:
		items := []any{}
		if s != "(none)" {
			for _, x := range strings.Split(s, ", ") {
				items = append(items, x)
			}
		}
		return items
	}
	return s
}

func TestDecideIsDeterministicToTheByte(t *testing.T) {
	a := scenario(t, "exit-test")
	first, _ := json.Marshal(decide.Decide(kb, a))
	for range 5 {
		again, _ := json.Marshal(decide.Decide(kb, a.Clone()))
		if !bytes.Equal(first, again) {
			t.Fatal("two runs gave different bytes")
		}
	}
}

// The JSON keeps the shape the issue fixed: extend, never rename.
func TestJSONShape(t *testing.T) {
	raw, err := json.Marshal(decide.Decide(kb, scenario(t, "exit-test")))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Schema  string         `json:"schema"`
		Answers map[string]any `json:"answers"`
		Layers  []struct {
			Layer        string   `json:"layer"`
			Pick         string   `json:"pick"`
			Also         []string `json:"also"`
			Reasons      []struct{ Rule, Text, Source string }
			Alternatives []struct {
				Product string   `json:"product"`
				WhyNot  []string `json:"why_not"`
			} `json:"alternatives"`
			Flips []struct{ Answer, To, Pick string } `json:"flips"`
		} `json:"layers"`
		Risks []map[string]any `json:"risks"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	nodes, _ := v.Answers["nodes"].(map[string]any)
	if v.Schema != "stackpick.decision/v3" || len(v.Layers) != 3 || v.Layers[0].Layer != "engine" || nodes["value"] != float64(4) || nodes["stated"] != true {
		t.Fatalf("unexpected JSON: %s", raw[:200])
	}
	for _, key := range []string{`"also":[`, `"why_not":[`, `"flips":[`, `"risks":[`, `"reasons":[`, `"state":"`, `"assumptions":[`, `"conflicts":[`, `"decisive":[`, `"stated":false`} {
		if !bytes.Contains(raw, []byte(key)) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

// A rule added through an overlay changes decisions without code: the
// knowledge base is data.
func TestOverlayRuleChangesThePick(t *testing.T) {
	overlay := []knowledge.SourceFile{{Name: "team.toml", Data: []byte(`
[[rule]]
id = "house-standard-sglang"
layer = "engine"
effect = "require"
product = "sglang"
reason = "Our platform team standardised on SGLang."
[[rule.source]]
kind = "docs"
url = "https://wiki.example.org/adr/12"
quote = "We standardise on SGLang."
checked_on = "2026-12-01"
`)}}
	kb2, err := knowledge.Build(knowledge.Embedded(), overlay)
	if err != nil {
		t.Fatal(err)
	}
	a, err := kb2.ParseAnswers("a.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := layer(decide.Decide(kb2, a), "engine"); got.Pick != "sglang" || got.Reasons[0].Rule != "house-standard-sglang" {
		t.Fatalf("engine = %s (%+v), want sglang by house-standard-sglang", got.Pick, got.Reasons)
	}
}

func BenchmarkDecideExitTestWithFlips(b *testing.B) {
	a := scenario(b, "exit-test")
	c := decide.Compile(kb)
	for b.Loop() {
		c.Decide(a)
	}
}

// BenchmarkCompile is what a one-off decide.Decide pays on top of a
// compiled decision.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		decide.Compile(kb)
	}
}

func TestACompiledKnowledgeBaseDecidesAsDecideDoes(t *testing.T) {
	c := decide.Compile(kb)
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		once, _ := json.Marshal(decide.Decide(kb, s.Answers))
		compiled, _ := json.Marshal(c.Decide(s.Answers))
		if !bytes.Equal(once, compiled) {
			t.Errorf("%s: the compiled decision differs", s.Name)
		}
		if !reflect.DeepEqual(decide.Changes(kb, s.Answers), c.Changes(s.Answers)) {
			t.Errorf("%s: the compiled changes differ", s.Name)
		}
	}
}
