package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// k8sCase is one answer set whose stack is a KServe or llm-d shape.
type k8sCase struct {
	name     string
	scenario string
	// set changes the scenario's answers.
	set   map[string]any
	shape string
}

// k8sCases are the presets of the KServe and llm-d shapes, and the answer
// sets that pick the shapes no preset picks.
var k8sCases = []k8sCase{
	{name: "exit-test", scenario: "exit-test", shape: ShapeLLMISVC},
	{name: "k8s-fleet", scenario: "k8s-fleet", shape: ShapeLLMISVC},
	{name: "gitops-rollouts", scenario: "gitops-rollouts", shape: ShapeISVC},
	// An ops team that cannot own another operator rules KServe out.
	{name: "k8s-fleet-llm-d-alone", scenario: "k8s-fleet", set: map[string]any{"new_operator": false}, shape: ShapeLLMD},
	{name: "k8s-fleet-pd", scenario: "k8s-fleet", set: map[string]any{"disaggregation": true}, shape: ShapeLLMISVC},
}

// testKB is the built-in knowledge base with the vLLM image record the
// writers need, until the engine's [[product.image]] is in its TOML.
func testKB(t testing.TB) *knowledge.KB {
	t.Helper()
	kb := knowledge.MustDefault()
	if p := kb.Product("vllm"); p != nil && p.Image("vllm-openai") == nil {
		p.Images = append(p.Images, knowledge.Image{ID: "vllm-openai", Ref: "vllm/vllm-openai:v0.33.0", Release: "v0.33.0", Runs: "vllm", Entrypoint: []string{"vllm", "serve"}, Port: 8000, Health: "/health", ModelCache: "/root/.cache/huggingface", Probe: []string{"python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=5)"}})
	}
	return kb
}

// decision decides a case's answers.
func (c k8sCase) decision(t testing.TB, kb *knowledge.KB) decide.Decision {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Find(all, c.scenario)
	if err != nil {
		t.Fatal(err)
	}
	a := sc.Answers.Clone()
	keys := make([]string, 0, len(c.set))
	for k := range c.set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := a.Set(k, c.set[k]); err != nil {
			t.Fatal(err)
		}
	}
	return decide.Decide(kb, a)
}

func (c k8sCase) generate(t testing.TB, kb *knowledge.KB, sets map[string]string) (*Set, decide.Decision) {
	t.Helper()
	d := c.decision(t, kb)
	origin := "scenario " + c.scenario
	cmd := "stackpick manifest --scenario " + c.scenario + " --out deploy"
	if len(c.set) > 0 {
		origin = "answers " + c.name + ".toml"
		cmd = "stackpick manifest --answers " + c.name + ".toml --out deploy"
	}
	s, err := Generate(Request{KB: kb, Decision: &d, Origin: origin, Version: "dev", Command: cmd, Sets: sets})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return s, d
}

func TestK8sCasesPickTheirShapes(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases {
		d := c.decision(t, kb)
		g, err := newGen(Request{KB: kb, Decision: &d})
		if err != nil {
			t.Fatal(err)
		}
		if s, why := g.shape(); s != c.shape {
			t.Errorf("%s: shape %q (%s), want %q", c.name, s, why, c.shape)
		}
	}
}

func TestK8sGoldens(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases {
		s, _ := c.generate(t, kb, nil)
		for _, f := range s.Files {
			golden := filepath.Join("testdata", c.name, filepath.FromSlash(f.Path))
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, f.Body, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%s: %v (run go test -update)", c.name, err)
			}
			if !bytes.Equal(f.Body, want) {
				t.Errorf("%s: %s differs from %s (run go test -update and review the diff)", c.name, f.Path, golden)
			}
		}
	}
}
