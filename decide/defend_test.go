package decide_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// The classes of indefensible decision the expert review found, one table
// each: every case failed before the stack was chosen whole.

func parse(t *testing.T, kb *knowledge.KB, src string) knowledge.Answers {
	t.Helper()
	a, err := kb.ParseAnswers("test.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func placed(d decide.Decision, layer string) []string {
	for _, l := range d.Layers {
		if l.Layer == layer {
			return append([]string{l.Pick}, l.Also...)
		}
	}
	return nil
}

func layerOf(d decide.Decision, layer string) decide.LayerPick {
	for _, l := range d.Layers {
		if l.Layer == layer {
			return l
		}
	}
	return decide.LayerPick{}
}

func TestTheStackIsChosenWhole(t *testing.T) {
	cases := []struct {
		name, answers string
		// never lists engine/orchestrator pairs that must not be printed
		engine, orchestrator string
		trade                string // a product that wins its layer alone and must be said to be traded
	}{
		{"TensorRT-LLM is not put under llm-d + KServe", "nodes = 4\ngpu = \"h100\"\nkubernetes = \"required\"\ncache_aware_routing = true\nteam_familiarity = \"tensorrt-llm\"\nchange_cadence = \"frozen\"\nlatency_priority = \"latency\"\n",
			"tensorrt-llm", "llm-d", "llm-d"},
		{"no engine llm-d cannot run under llm-d", "nodes = 8\nkubernetes = \"required\"\ngovernance = \"vendor-neutral\"\nteam_familiarity = \"tensorrt-llm\"\n", "tensorrt-llm", "llm-d", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := decide.Decide(kb, parse(t, kb, c.answers))
			eng, orch := placed(d, "engine"), placed(d, "orchestrator")
			if slices.Contains(eng, c.engine) && slices.Contains(orch, c.orchestrator) {
				t.Fatalf("printed %v under %v", eng, orch)
			}
			if c.trade == "" {
				return
			}
			for _, alt := range slices.Concat(layerOf(d, "engine").Alternatives, layerOf(d, "orchestrator").Alternatives) {
				if alt.Product == c.trade {
					if !alt.Trade {
						t.Fatalf("%s wins the engine alone and is not said to be traded: %+v", c.trade, alt)
					}
					return
				}
			}
			t.Fatalf("%s is not among the engine's alternatives", c.trade)
		})
	}
}

func TestCapabilityIsNotPreference(t *testing.T) {
	// A multi-node NVIDIA fleet without Kubernetes is no case for Dynamo by
	// itself: with nothing else said, the orchestrators that can route it
	// tie, and the tie is reported with its declared tie-break.
	d := decide.Decide(kb, parse(t, kb, "nodes = 2\ngpu = \"h100\"\nkubernetes = \"none\"\n"))
	o := layerOf(d, "orchestrator")
	if o.CloseCall == nil || !o.CloseCall.Tie || o.CloseCall.TieBreak == nil {
		t.Fatalf("a bare-metal fleet with no stated need picked %s without a reported tie: %+v", o.Pick, o.CloseCall)
	}
	for _, r := range o.Reasons {
		if strings.Contains(strings.ToLower(r.Text), "bare metal") {
			t.Fatalf("a capability given as the reason: %s", r.Text)
		}
	}
	// With a request pipeline, Ray Serve's own case wins.
	d = decide.Decide(kb, parse(t, kb, "nodes = 2\ngpu = \"h100\"\nkubernetes = \"none\"\nrequest_pipeline = true\n"))
	if got := layerOf(d, "orchestrator").Pick; got != "ray-serve" {
		t.Fatalf("request pipeline on bare metal: %s, want ray-serve", got)
	}
}

func TestTiesFollowTheDeclaredOrderNotTheFile(t *testing.T) {
	a := "nodes = 2\ngpu = \"h100\"\nkubernetes = \"none\"\n"
	d := decide.Decide(kb, parse(t, kb, a))
	first := layerOf(d, "orchestrator")
	if first.CloseCall == nil || first.CloseCall.TieBreak == nil || first.CloseCall.TieBreak.ID != "orchestrator-order" {
		t.Fatalf("want a tie settled by orchestrator-order, got %+v", first.CloseCall)
	}
	// Declare the other order: the pick follows the declaration.
	other := first.CloseCall.Other
	order := []string{"none", other}
	for _, id := range []string{"llm-d", "kserve", "dynamo", "ray-serve", "sgl-router"} {
		if id != other {
			order = append(order, id)
		}
	}
	overlay := "[[tiebreak]]\nid = \"orchestrator-order\"\ncriterion = \"order\"\nlayer = \"orchestrator\"\norder = [\"" + strings.Join(order, "\", \"") + "\"]\nargument = \"a\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	kb2, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{{Name: "kb/t.toml", Data: []byte(overlay)}})
	if err != nil {
		t.Fatal(err)
	}
	d2 := decide.Decide(kb2, parse(t, kb2, a))
	if got := layerOf(d2, "orchestrator").Pick; got != other {
		t.Fatalf("declared %v first; picked %s", other, got)
	}
}

func TestCloseCallsAreSaid(t *testing.T) {
	// A one-point margin is a close call with the answer that would tip it.
	d := decide.Decide(kb, parse(t, kb, "prefix_reuse = \"high\"\nworkload = \"agentic\"\n"))
	e := layerOf(d, "engine")
	if e.CloseCall == nil || e.CloseCall.Margin > kb.CloseCallMargin() {
		t.Fatalf("vLLM vs SGLang by a point or none is not reported as close: %+v", e.CloseCall)
	}
	if len(e.CloseCall.PickFor) == 0 || len(e.CloseCall.OtherFor) == 0 {
		t.Fatalf("a close call says what each has for it: %+v", e.CloseCall)
	}
}

func TestEmptyLayersSayWhichKind(t *testing.T) {
	cases := []struct {
		name, answers, layer, state string
		conflicting                 []string
	}{
		{"one node: not needed", "nodes = 1\n", "orchestrator", decide.StateNotNeeded, nil},
		{"LLMs only: not needed", "", "model-server", decide.StateNotNeeded, nil},
		{"traffic splitting without Kubernetes: nothing fits", "nodes = 1\ntraffic_splitting = true\nkubernetes = \"none\"\n", "orchestrator", decide.StateNothingFits, []string{"traffic_splitting = true", "kubernetes = none"}},
		{"GitOps on one node without Kubernetes: nothing fits", "gitops = true\n", "orchestrator", decide.StateNothingFits, []string{"gitops = true", "kubernetes = none"}},
		{"vendor-neutral GitOps without Kubernetes on four nodes: Ray Serve routes, GitOps is said to be unmet", "nodes = 4\ngitops = true\nkubernetes = \"none\"\ngovernance = \"vendor-neutral\"\n", "orchestrator", decide.StatePicked, []string{"gitops = true", "kubernetes = none"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := layerOf(decide.Decide(kb, parse(t, kb, c.answers)), c.layer)
			if l.State != c.state || (l.Pick == knowledge.None) != (c.state != decide.StatePicked) {
				t.Fatalf("state %s pick %s, want %s", l.State, l.Pick, c.state)
			}
			if len(l.Reasons) == 0 {
				t.Fatal("an empty Why")
			}
			var answers []string
			for _, cf := range l.Conflicts {
				answers = append(answers, cf.Answers...)
			}
			for _, want := range c.conflicting {
				if !slices.Contains(answers, want) {
					t.Errorf("conflicting answers %v lack %q", answers, want)
				}
			}
			for _, alt := range l.Alternatives {
				for _, w := range alt.WhyNot {
					if strings.Contains(w, "another rule requires") {
						t.Errorf("%s: %s", alt.Product, w)
					}
				}
			}
		})
	}
}

func TestStatedAndAssumedAreApart(t *testing.T) {
	// mixed-models never states change_cadence: a reason resting on it is
	// an assumption; its stated answers never are.
	a := scenario(t, "mixed-models")
	d := decide.Decide(kb, a)
	var keys []string
	for _, x := range d.Assumptions {
		keys = append(keys, x.Key)
		if a.StatedKey(x.Key) {
			t.Errorf("stated %s listed as an assumption", x.Key)
		}
		if x.Question == "" {
			t.Errorf("assumption %s without the question that confirms it", x.Key)
		}
	}
	if !slices.Contains(keys, "change_cadence") {
		t.Fatalf("change_cadence (defaulted) is not an assumption: %v", keys)
	}
	if a.StatedKey("change_cadence") || !a.StatedKey("other_model_types") {
		t.Fatal("stated marks wrong")
	}
}

func TestExcludedAlternativesCarryNoPenalties(t *testing.T) {
	d := decide.Decide(kb, scenario(t, "single-node"))
	for _, alt := range layerOf(d, "orchestrator").Alternatives {
		if alt.Product == "llm-d" {
			if !alt.Excluded {
				t.Fatalf("llm-d without Kubernetes is not excluded: %+v", alt)
			}
			for _, x := range alt.Against {
				if x.Weight != 0 || x.Kind != decide.KindCapability {
					t.Fatalf("llm-d's exclusion lists %+v", x)
				}
			}
		}
	}
}

func TestFlipsRankNearestFirstHardwareLast(t *testing.T) {
	d := decide.Decide(kb, scenario(t, "exit-test"))
	for _, l := range d.Layers {
		seenHW := false
		for _, f := range l.Flips {
			if f.Hardware {
				seenHW = true
			} else if seenHW {
				t.Fatalf("%s: %s listed after a hardware change", l.Layer, f.Answer)
			}
			if len(f.Stack) != len(kb.Layers) {
				t.Fatalf("%s: flip %s without its whole stack", l.Layer, f.Answer)
			}
		}
	}
}

func TestFlipsNeverContradictAnotherAnswer(t *testing.T) {
	d := decide.Decide(kb, parse(t, kb, "nodes = 4\nkubernetes = \"required\"\nsubstrate = \"openshift\"\ncache_aware_routing = true\n"))
	for _, l := range d.Layers {
		for _, f := range l.Flips {
			if f.Answer == "kubernetes" && f.To == "none" {
				t.Fatalf("%s: flip kubernetes → none while substrate = openshift", l.Layer)
			}
		}
	}
}
