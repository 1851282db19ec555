package manifest

import (
	"bytes"
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
	// llm-d alone with prefill and decode apart: a DisaggregatedSet.
	{name: "k8s-fleet-llm-d-alone-pd", scenario: "k8s-fleet", set: map[string]any{"new_operator": false, "disaggregation": true}, shape: ShapeLLMD},
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

func TestK8sPlaceholdersAreDeclaredAndExplained(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases {
		s, _ := c.generate(t, kb, nil)
		declared := map[string]string{}
		for _, p := range s.Placeholders {
			if strings.TrimSpace(p.Explains) == "" {
				t.Errorf("%s: placeholder %s is not explained", c.name, p.Name)
			}
			declared[p.Name] = p.Explains
		}
		used := map[string]bool{}
		for _, f := range s.Files {
			var inBody []string
			for _, m := range placeholderUse().FindAllStringSubmatch(string(f.Body), -1) {
				name := m[1]
				if _, ok := declared[name]; !ok {
					t.Errorf("%s: %s holds ${%s}, which no placeholder declares", c.name, f.Path, name)
				}
				if !slices.Contains(inBody, name) {
					inBody = append(inBody, name)
				}
				used[name] = true
			}
			if !slices.Equal(inBody, f.Placeholders) {
				t.Errorf("%s: %s lists placeholders %q, its text holds %q", c.name, f.Path, f.Placeholders, inBody)
			}
			for _, name := range f.Placeholders {
				if !strings.Contains(string(f.Body), "#   ${"+name+"}: ") {
					t.Errorf("%s: %s: the header does not explain ${%s}", c.name, f.Path, name)
				}
			}
			if strings.Contains(string(f.Body), "${") && len(inBody) == 0 {
				t.Errorf("%s: %s holds a ${ that is not a placeholder", c.name, f.Path)
			}
		}
		for name := range declared {
			if !used[name] {
				t.Errorf("%s: placeholder %s is declared but no file holds it", c.name, name)
			}
		}
	}
}

func TestK8sSetFillsEveryPlaceholder(t *testing.T) {
	kb := testKB(t)
	sets := map[string]string{"NAMESPACE": "llm-serving", "HF_TOKEN_SECRET": "hf-token", "MODEL_URI": "hf://meta-llama/Llama-3.3-70B-Instruct", "SERVER_CPU": "16", "SERVER_MEMORY": "128Gi"}
	for _, c := range k8sCases {
		bare, _ := c.generate(t, kb, nil)
		mine := map[string]string{}
		for _, p := range bare.Placeholders {
			mine[p.Name] = sets[p.Name]
		}
		s, _ := c.generate(t, kb, mine)
		if u := s.Unfilled(); len(u) > 0 {
			t.Errorf("%s: unfilled after --set: %v", c.name, u)
		}
		for _, f := range s.Files {
			if placeholderUse().Match(f.Body) {
				t.Errorf("%s: %s still holds a placeholder after --set", c.name, f.Path)
			}
			if _, ok := mine["NAMESPACE"]; ok && f.Format == FormatKubernetes && !strings.Contains(string(f.Body), "namespace: llm-serving") {
				t.Errorf("%s: %s: --set NAMESPACE did not reach metadata.namespace", c.name, f.Path)
			}
		}
	}
}

func TestK8sSetRefusesANamespaceThatIsNoKubernetesName(t *testing.T) {
	kb := testKB(t)
	c := k8sCases[0]
	d := c.decision(t, kb)
	_, err := Generate(Request{KB: kb, Decision: &d, Sets: map[string]string{"NAMESPACE": "LLM_Serving"}})
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(u.Problem, "must be a Kubernetes name") {
		t.Fatalf("err = %v, want a usage error naming the rule", err)
	}
}

// llm-d alone with prefill and decode apart: one DisaggregatedSet whose
// roles run the launch command's two role commands word for word, the
// decode command on the port llm-d's routing sidecar forwards to (the
// knowledge base's [[product.role_port]]), the sidecar on the pod's port,
// which is the prefill servers' port and the pool's target. An engine
// whose decode command has no port flag gets the reason, not files.
func TestLLMDAloneWithPrefillAndDecodeApartIsADisaggregatedSet(t *testing.T) {
	kb := testKB(t)
	c := k8sCase{name: "k8s-fleet-llm-d-pd", scenario: "k8s-fleet", set: map[string]any{"new_operator": false, "disaggregation": true}}
	d := c.decision(t, kb)
	ec := d.EngineConfig
	if len(ec.Roles) != 2 {
		t.Fatalf("the answers give %d roles, want prefill and decode", len(ec.Roles))
	}
	decode := strings.Join(ec.Argv("decode"), " ")
	if !strings.Contains(decode, "--port 8200") || strings.Contains(strings.Join(ec.Argv("prefill"), " "), "--port") {
		t.Fatalf("the decode command should serve on 8200 behind the sidecar and the prefill command on its default:\ndecode: %s\nprefill: %v", decode, ec.Argv("prefill"))
	}
	s, err := Generate(Request{KB: kb, Decision: &d})
	if err != nil {
		t.Fatal(err)
	}
	var ms *File
	for i := range s.Files {
		if s.Files[i].Path == "llm-d/modelserver.yaml" {
			ms = &s.Files[i]
		}
	}
	if ms == nil || ms.Kind != "DisaggregatedSet" {
		t.Fatalf("no DisaggregatedSet in %v", s.Files)
	}
	for _, role := range []string{"prefill", "decode"} {
		if !slices.Equal(ms.Args[role], ec.Argv(role)) {
			t.Errorf("the %s servers' arguments are not the %s launch command:\n%v\n%v", role, role, ms.Args[role], ec.Argv(role))
		}
	}
	body := string(ms.Body)
	for _, want := range []string{"--model-server-port=8200", "--port=8000", "--secure-proxy=false", "restartPolicy: Always", "VLLM_NIXL_SIDE_CHANNEL_HOST", "llm-d.ai/role: decode", "llm-d.ai/role: prefill"} {
		if !strings.Contains(body, want) {
			t.Errorf("llm-d/modelserver.yaml does not hold %q", want)
		}
	}
	if strings.Contains(body, "groupIdentity:") || strings.Contains(body, "slices:") {
		t.Error("the DisaggregatedSet holds a field LWS v0.9.0 or v0.10.0 lacks")
	}
	noPort := *ec
	noPort.Command = slices.DeleteFunc(slices.Clone(ec.Command), func(l decide.LaunchFlag) bool { return l.FlagID == knowledge.FlagVLLMPort })
	d.EngineConfig = &noPort
	_, err = Generate(Request{KB: kb, Decision: &d})
	var nc *NotCoveredError
	if !errors.As(err, &nc) || !strings.Contains(nc.Why, "routing sidecar") || !strings.Contains(nc.Why, "LLMInferenceService") {
		t.Errorf("without the decode port: err = %v, want the reason", err)
	}
}

func TestKServeFilesAreNotWrittenForAnEngineItsPresetsDoNotRun(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases[:3] {
		d := c.decision(t, kb)
		ec := *d.EngineConfig
		ec.Engine = knowledge.EngineSGLang
		d.EngineConfig = &ec
		_, err := Generate(Request{KB: kb, Decision: &d})
		var nc *NotCoveredError
		if !errors.As(err, &nc) || !strings.Contains(nc.Why, "start vLLM") {
			t.Errorf("%s with SGLang: err = %v, want NotCoveredError saying KServe's presets start vLLM", c.name, err)
		}
	}
}

func TestK8sTargetsAnOlderVendoredVersion(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases {
		d := c.decision(t, kb)
		first, err := Generate(Request{KB: kb, Decision: &d})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// Only the targets these files are written for: a --target for
		// another project is refused (TestATargetNoFileIsWrittenForIsRefused).
		targets := map[string]string{}
		for id, v := range map[string]string{"kserve": "v0.19", "gaie": "v1.5", "llm-d": "v0.9"} {
			if _, ok := first.Targets[id]; ok {
				targets[id] = v
			}
		}
		s, err := Generate(Request{KB: kb, Decision: &d, Targets: targets})
		// llm-d's prefill/decode files give the routing sidecar a flag
		// llm-d v0.9.0 lacks: refused, naming the release that has it.
		var ue *UsageError
		if c.name == "k8s-fleet-llm-d-alone-pd" {
			if !errors.As(err, &ue) || !strings.Contains(ue.Problem, "first appears in llm-d v0.10.0") || !strings.Contains(ue.Hint, "--target llm-d@v0.10.0") {
				t.Fatalf("%s at llm-d v0.9: err = %v, want the version that has the sidecar's flag", c.name, err)
			}
			delete(targets, "llm-d")
			s, err = Generate(Request{KB: kb, Decision: &d, Targets: targets})
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, f := range s.Files {
			for id, v := range f.Targets {
				want := map[string]string{"kserve": "v0.19.0", "gaie": "v1.5.0", "llm-d": "v0.9.0"}[id]
				if _, ok := targets[id]; !ok {
					want = "" // written for the newest: the case above
				}
				if want != "" && v != want {
					t.Errorf("%s: %s written for %s %s, want %s", c.name, f.Path, id, v, want)
				}
				if want != "" && !strings.Contains(string(f.Body), want) {
					t.Errorf("%s: %s does not name %s in its text", c.name, f.Path, want)
				}
			}
		}
	}
}

func TestK8sGenerateDoesNotPanicOnOddDecisions(t *testing.T) {
	kb := testKB(t)
	for _, c := range k8sCases {
		for _, mutate := range []func(ec *decide.EngineConfig){
			func(ec *decide.EngineConfig) { ec.Servers, ec.GPUsPerServer = 0, 0 },
			func(ec *decide.EngineConfig) { ec.Model = "" },
			func(ec *decide.EngineConfig) { ec.Model = strings.Repeat("Ω.", 80) },
			func(ec *decide.EngineConfig) { ec.Command = nil },
			func(ec *decide.EngineConfig) { ec.Roles = ec.Roles[:0] },
			func(ec *decide.EngineConfig) { ec.Roles = []decide.RoleCommand{{Role: "prefill"}, {Role: "decode"}} },
		} {
			d := c.decision(t, kb)
			ec := *d.EngineConfig
			mutate(&ec)
			d.EngineConfig = &ec
			s, err := Generate(Request{KB: kb, Decision: &d})
			if err != nil {
				continue
			}
			for _, f := range s.Files {
				if strings.Contains(f.Path, "..") || len(f.Body) == 0 {
					t.Errorf("%s: file %q", c.name, f.Path)
				}
			}
		}
	}
}

// BenchmarkGenerateK8s is the cost of writing each KServe and llm-d set
// (the budget: under 20 ms of process time for a decision).
func BenchmarkGenerateK8s(b *testing.B) {
	kb := testKB(b)
	for _, c := range k8sCases {
		d := c.decision(b, kb)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(Request{KB: kb, Decision: &d, Origin: "scenario " + c.scenario}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
