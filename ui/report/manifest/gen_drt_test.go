package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// drtKB is the built-in knowledge base with the targets this helper's
// writers name, added when the knowledge base does not have them yet.
func drtKB(t testing.TB) *knowledge.KB {
	t.Helper()
	kb := knowledge.MustDefault()
	for _, tg := range []knowledge.Target{
		{ID: "dynamo", Name: "NVIDIA Dynamo", Versions: []string{"v1.6.2"}},
		{ID: "kuberay", Name: "KubeRay", Versions: []string{"v1.6.2", "v1.7.0"}},
		{ID: "ray", Name: "Ray Serve", Versions: []string{"2.60.0"}},
		{ID: "triton", Name: "Triton model configuration", Versions: []string{"main@83adf7c"}},
		{ID: "compose", Name: "Compose Specification", Versions: []string{"main@170098b"}},
	} {
		if kb.Target(tg.ID) == nil {
			kb.Targets = append(kb.Targets, &tg)
		}
	}
	return kb
}

// drtCase is one answer set of this helper's shapes: a preset, or a preset
// with answers changed.
type drtCase struct {
	name, scenario string
	change         func(a *knowledge.Answers)
}

var drtCases = []drtCase{
	{name: "nvidia-fleet", scenario: "nvidia-fleet"},
	{name: "request-pipeline", scenario: "request-pipeline"},
	{name: "mixed-models", scenario: "mixed-models"},
	// Ray without Kubernetes: the Serve config file alone.
	{name: "request-pipeline-no-kubernetes", scenario: "request-pipeline", change: func(a *knowledge.Answers) { _ = a.Set("kubernetes", "none") }},
	// Dynamo aggregated, without KV-aware routing.
	{name: "nvidia-fleet-aggregated", scenario: "nvidia-fleet", change: func(a *knowledge.Answers) {
		_ = a.Set("disaggregation", false)
		_ = a.Set("cache_aware_routing", false)
	}},
}

func drtGenerate(t *testing.T, kb *knowledge.KB, c drtCase) (*decide.Decision, *Set) {
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
	if c.change != nil {
		c.change(&a)
	}
	d := decide.Decide(kb, a)
	s, err := Generate(Request{KB: kb, Decision: &d, Origin: "scenario " + c.name, Version: "test", Command: "stackpick manifest --scenario " + c.scenario + " --out deploy"})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return &d, s
}

func TestDRTPrint(t *testing.T) {
	if os.Getenv("DRT_PRINT") == "" {
		t.Skip()
	}
	kb := drtKB(t)
	for _, c := range drtCases {
		if c.name != os.Getenv("DRT_PRINT") {
			continue
		}
		_, s := drtGenerate(t, kb, c)
		for _, f := range s.Files {
			os.Stdout.WriteString("===== " + f.Path + "\n" + string(f.Body))
		}
	}
}

var _ = []any{bytes.Equal, json.Valid, errors.Is, filepath.Join, slices.Equal[[]string], strings.Cut}
