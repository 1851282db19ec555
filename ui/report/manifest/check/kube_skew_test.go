package check

import (
	"slices"
	"strings"
	"testing"
)

// The KServe case: replicas with a bad scaling block passes the
// JSON Schema and fails three CEL rules, each in the CRD's own words.
func TestKServeReplicasWithABadScalingBlockFailsThreeCELRulesAndNoSchemaRule(t *testing.T) {
	body := mutate(t, fixture(t, "llminferenceservice.yaml"), "/spec/scaling", map[string]any{"minReplicas": 3, "maxReplicas": 2})
	for _, v := range []Versions{kserve19, kserve20} {
		ps := Kubernetes("llmisvc.yaml", body, v)
		var cel []string
		for _, p := range ps {
			if !strings.HasSuffix(p.Schema, " CEL") {
				t.Errorf("%s: a JSON Schema problem; the block is structurally fine: %s", v["kserve"], p)
				continue
			}
			cel = append(cel, p.Path+": "+p.Message)
		}
		slices.Sort(cel)
		want := []string{
			"/spec/scaling: minReplicas cannot exceed maxReplicas",
			"/spec/scaling: wva is required when scaling is configured",
			"/spec: replicas and scaling are mutually exclusive",
		}
		if len(cel) != 3 {
			t.Fatalf("%s: want 3 CEL problems, got %d:\n%s", v["kserve"], len(cel), strings.Join(cel, "\n"))
		}
		for i, w := range want {
			if !strings.HasPrefix(cel[i], w) {
				t.Errorf("%s: CEL problem %d = %q, want it to start %q", v["kserve"], i, cel[i], w)
			}
		}
	}
}

// kvCacheOffloading is in LLMInferenceService v1alpha2 from kserve v0.20.0.
func TestKVCacheOffloadingPassesKServe020AndFailsKServe019(t *testing.T) {
	body := mutate(t, fixture(t, "llminferenceservice.yaml"), "/spec/kvCacheOffloading", map[string]any{"cpu": "10Gi", "evictionPolicy": "lru"})
	if ps := Kubernetes("llmisvc.yaml", body, kserve20); len(ps) != 0 {
		t.Errorf("v0.20.0: %v", ps)
	}
	ps := Kubernetes("llmisvc.yaml", body, kserve19)
	if len(ps) != 1 || ps[0].Path != "/spec" || !strings.Contains(ps[0].Message, "'kvCacheOffloading' not allowed") || !strings.Contains(ps[0].Schema, "kserve@v0.19.0") {
		t.Errorf("v0.19.0: want one problem at /spec naming kvCacheOffloading, got %v", ps)
	}
}

// llm-d's own P/D DisaggregatedSet uses groupIdentity, which no LWS
// release has (LWS PR #987): it fails against v0.10.0 with the path named.
func TestLLMDGuideDisaggregatedSetFailsLWS010AtGroupIdentity(t *testing.T) {
	ps := Kubernetes("disaggregatedset.yaml", fixture(t, "llm-d-guide-disaggregatedset.yaml"), lws10)
	for _, role := range []string{"0", "1"} {
		at := "/spec/roles/" + role + "/spec"
		if !slices.ContainsFunc(ps, func(p Problem) bool {
			return p.Path == at && strings.Contains(p.Message, "'groupIdentity' not allowed") && strings.Contains(p.Schema, "lws@v0.10.0")
		}) {
			t.Errorf("no groupIdentity problem at %s; got %v", at, ps)
		}
	}
	// The same file lacks rolloutStrategy.type, which v0.10.0 requires.
	if !slices.ContainsFunc(ps, func(p Problem) bool {
		return p.Path == "/spec/roles/0/spec/rolloutStrategy" && strings.Contains(p.Message, "'type'")
	}) {
		t.Errorf("no missing rolloutStrategy.type; got %v", ps)
	}
	// And v0.9.0 has no spec.slices either.
	old := Kubernetes("disaggregatedset.yaml", fixture(t, "llm-d-guide-disaggregatedset.yaml"), lws09)
	if !slices.ContainsFunc(old, func(p Problem) bool { return p.Path == "/spec" && strings.Contains(p.Message, "'slices'") }) {
		t.Errorf("v0.9.0: no problem naming slices; got %v", old)
	}
}

func TestAKindWithNoVendoredSchemaIsAProblemNeverAPass(t *testing.T) {
	cases := []struct {
		body string
		v    Versions
		want string
	}{
		{"apiVersion: serving.kserve.io/v1alpha3\nkind: LLMInferenceService\n", kserve19, "no schema for serving.kserve.io/v1alpha3 LLMInferenceService in kserve@v0.19.0"},
		{"apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\n", Versions{"kserve": "v0.18.0"}, "no schema for serving.kserve.io/v1alpha2 LLMInferenceService in kserve@v0.18.0: the vendored versions are v0.19.0, v0.20.0"},
		{"apiVersion: example.com/v1\nkind: Widget\n", nil, `API group "example.com" belongs to no vendored target`},
		{"apiVersion: ray.io/v1\nkind: RayJob\n", nil, "no schema for ray.io/v1 RayJob in kuberay@v1.7.0"},
		{"kind: Deployment\n", nil, "needs a string apiVersion and kind"},
		{"- a\n- b\n", nil, "a list where a Kubernetes object belongs"},
		{"spec: [unclosed\n", nil, "not YAML"},
		{"# only a comment\n", nil, "no Kubernetes object in the file"},
		{"", nil, "no Kubernetes object in the file"},
	}
	for _, c := range cases {
		ps := Kubernetes("x.yaml", []byte(c.body), c.v)
		if !slices.ContainsFunc(ps, func(p Problem) bool { return strings.Contains(p.Message, c.want) }) {
			t.Errorf("%q: want a problem saying %q, got %v", c.body, c.want, ps)
		}
	}
}

func TestEveryDocumentOfAFileIsCheckedAndNumbered(t *testing.T) {
	good := string(fixture(t, "inferencepool.yaml"))
	bad := string(mutate(t, fixture(t, "inferenceobjective.yaml"), "/spec/priority", "high"))
	body := "---\n" + good + "\n---\n# a comment-only document is not counted\n---\n" + bad + "\n"
	ps := Kubernetes("router.yaml", []byte(body), Versions{"gaie": "v1.6.0", "llm-d": "v0.10.0"})
	if len(ps) != 1 || ps[0].Doc != 1 || ps[0].Path != "/spec/priority" || ps[0].File != "router.yaml" {
		t.Fatalf("want one problem in document 1 at /spec/priority, got %v", ps)
	}
}

// With no version named for its target, an object is checked at the
// newest vendored one, and the problem says which.
func TestAnUnnamedVersionMeansTheNewestVendored(t *testing.T) {
	body := mutate(t, fixture(t, "rayservice.yaml"), "/spec/suspend", "yes")
	ps := Kubernetes("ray.yaml", body, nil)
	if len(ps) == 0 || !strings.HasPrefix(ps[0].Schema, "kuberay@v1.7.0 ") {
		t.Fatalf("want a problem against kuberay@v1.7.0, got %v", ps)
	}
}

func TestEveryVendoredCELRuleCompiles(t *testing.T) {
	n := 0
	for _, target := range []string{"kserve", "gaie", "llm-d", "lws", "kuberay", "kubernetes", "dynamo"} {
		for _, release := range KubeVersions(target) {
			f, err := folder(kubeFS, target, release)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range f.kinds {
				forEachRule(k.raw, func(rule string) {
					if usesOldSelf.MatchString(rule) {
						return
					}
					n++
					if _, err := program(rule); err != nil {
						t.Errorf("%s: %q: %v", k.schemaName(), rule, err)
					}
				})
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d rules found; the walk misses some", n)
	}
	t.Logf("%d rules compiled", n)
}

func forEachRule(s any, fn func(string)) {
	switch n := s.(type) {
	case map[string]any:
		if rules, ok := n["x-kubernetes-validations"].([]any); ok {
			for _, r := range rules {
				if rm, ok := r.(map[string]any); ok {
					if rule, ok := rm["rule"].(string); ok {
						fn(rule)
					}
				}
			}
		}
		for k, v := range n {
			if k != "x-kubernetes-validations" {
				forEachRule(v, fn)
			}
		}
	case []any:
		for _, v := range n {
			forEachRule(v, fn)
		}
	}
}

func FuzzKubernetesNeverPanics(f *testing.F) {
	f.Add([]byte("apiVersion: inference.networking.k8s.io/v1\nkind: InferencePool\nspec: {targetPorts: [{number: 1}, {number: 1}]}\n"))
	f.Add([]byte("apiVersion: llm-d.ai/v1alpha2\nkind: InferenceObjective\nspec: 7\n---\n[]\n"))
	f.Add([]byte("apiVersion: 3\nkind: {}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = Kubernetes("fuzz.yaml", body, Versions{"gaie": "v1.6.0", "llm-d": "v0.10.0"})
	})
}
