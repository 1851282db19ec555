package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// The KServe and llm-d files stackpick writes, for every preset of their
// shapes and the answer sets that pick the shapes no preset picks, run
// through the validators of this package.

type k8sGenCase struct {
	name, scenario string
	set            map[string]any
}

var k8sGenCases = []k8sGenCase{
	{name: "exit-test", scenario: "exit-test"},
	{name: "k8s-fleet", scenario: "k8s-fleet"},
	{name: "gitops-rollouts", scenario: "gitops-rollouts"},
	{name: "k8s-fleet-llm-d-alone", scenario: "k8s-fleet", set: map[string]any{"new_operator": false}},
	{name: "k8s-fleet-pd", scenario: "k8s-fleet", set: map[string]any{"disaggregation": true}},
	{name: "k8s-fleet-llm-d-alone-pd", scenario: "k8s-fleet", set: map[string]any{"new_operator": false, "disaggregation": true}},
}

// k8sKB is the built-in knowledge base with the vLLM image record the
// writers need, until the engine's [[product.image]] is in its TOML.
func k8sKB(t testing.TB) *knowledge.KB {
	t.Helper()
	kb := knowledge.MustDefault()
	if p := kb.Product("vllm"); p != nil && p.Image("vllm-openai") == nil {
		p.Images = append(p.Images, knowledge.Image{ID: "vllm-openai", Ref: "vllm/vllm-openai:v0.33.0", Release: "v0.33.0", Runs: "vllm", Entrypoint: []string{"vllm", "serve"}, Port: 8000, Health: "/health", ModelCache: "/root/.cache/huggingface"})
	}
	return kb
}

func (c k8sGenCase) decide(t testing.TB, kb *knowledge.KB) decide.Decision {
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
	sort.Strings(keys)
	for _, k := range keys {
		if err := a.Set(k, c.set[k]); err != nil {
			t.Fatal(err)
		}
	}
	return decide.Decide(kb, a)
}

func (c k8sGenCase) generate(t testing.TB, kb *knowledge.KB, d *decide.Decision, sets map[string]string) *manifest.Set {
	t.Helper()
	s, err := manifest.Generate(manifest.Request{KB: kb, Decision: d, Origin: "scenario " + c.scenario, Version: "dev", Sets: sets})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return s
}

// checkFile runs a file through the validator of its format.
func checkFile(kb *knowledge.KB, f manifest.File) []Problem {
	v := Versions(f.Targets)
	switch f.Format {
	case manifest.FormatKubernetes:
		return Kubernetes(f.Path, f.Body, v)
	case manifest.FormatHelmValues:
		return HelmValues(f.Path, f.Body, v)
	}
	return []Problem{{File: f.Path, Message: "no validator for format " + f.Format}}
}

// samples are values of each placeholder's kind, as a user fills them.
var samples = map[string]string{
	"NAMESPACE":       "llm-serving",
	"HF_TOKEN_SECRET": "hf-token",
	"MODEL_URI":       "hf://meta-llama/Llama-3.3-70B-Instruct",
	"SERVER_CPU":      "16",
	"SERVER_MEMORY":   "128Gi",
}

// skipKubernetesCore says whether apps/v1 objects cannot be checked: no
// schema of target kubernetes is vendored. When the knowledge base names a
// kubernetes version that is not the vendored one (targets.toml and the
// schemas folder are written by two changes), the file is checked against
// the newest vendored schema and the mismatch logged for the lead.
func skipKubernetesCore(t *testing.T, f *manifest.File) bool {
	v, ok := f.Targets["kubernetes"]
	if !ok {
		return false
	}
	have := KubeVersions("kubernetes")
	if len(have) == 0 {
		t.Logf("%s: not checked: no schema of target kubernetes (apps/v1 Deployment) is vendored yet", f.Path)
		return true
	}
	if !slices.Contains(have, v) {
		t.Logf("%s: the knowledge base names kubernetes %s, the vendored schemas are %v: checked against %s", f.Path, v, have, have[len(have)-1])
		targets := map[string]string{}
		for id, tv := range f.Targets {
			targets[id] = tv
		}
		targets["kubernetes"] = have[len(have)-1]
		f.Targets = targets
	}
	return false
}

func TestKServeAndLLMDFilesPassTheirSchemasOnceFilled(t *testing.T) {
	kb := k8sKB(t)
	for _, c := range k8sGenCases {
		d := c.decide(t, kb)
		s := c.generate(t, kb, &d, nil)
		sets := map[string]string{}
		for _, p := range s.Placeholders {
			v, ok := samples[p.Name]
			if !ok {
				t.Fatalf("%s: placeholder %s has no sample value in this test", c.name, p.Name)
			}
			sets[p.Name] = v
		}
		filled := c.generate(t, kb, &d, sets)
		if len(filled.Files) == 0 {
			t.Fatalf("%s: no files", c.name)
		}
		for _, f := range filled.Files {
			if skipKubernetesCore(t, &f) {
				continue
			}
			for _, p := range checkFile(kb, f) {
				t.Errorf("%s: %s", c.name, p)
			}
		}
	}
}

// TestUnfilledPlaceholdersFailOnlyWhereTheyStand: the files as written,
// with ${NAME} left in, break no rule except at a value that holds a
// placeholder (a Kubernetes quantity cannot be "${SERVER_CPU}").
func TestUnfilledPlaceholdersFailOnlyWhereTheyStand(t *testing.T) {
	kb := k8sKB(t)
	for _, c := range k8sGenCases {
		d := c.decide(t, kb)
		for _, f := range c.generate(t, kb, &d, nil).Files {
			if skipKubernetesCore(t, &f) {
				continue
			}
			docs := jsonDocs(t, f)
			for _, p := range checkFile(kb, f) {
				v, ok := pointerValue(docs[p.Doc], p.Path)
				if s, isStr := v.(string); !ok || !isStr || !strings.Contains(s, "${") {
					t.Errorf("%s: %s (the value there holds no placeholder)", c.name, p)
				}
			}
		}
	}
}

// TestContainerArgumentsAreTheLaunchCommand: in every file, each
// container's command and arguments are decide.EngineConfig.Argv of its
// role, word for word; where KServe's preset or runtime supplies the
// program and the model (vllm serve /mnt/models, from the model URI), the
// arguments are the rest of Argv. Every role's command appears, and its
// flags are the engine's flags at the release.
func TestContainerArgumentsAreTheLaunchCommand(t *testing.T) {
	kb := k8sKB(t)
	for _, c := range k8sGenCases {
		d := c.decide(t, kb)
		ec := d.EngineConfig
		_, model := ec.Program()
		head := len(ec.Argv("")) - len(flagWords(ec, ""))
		if model == "" && head == 0 {
			t.Fatalf("%s: no program words", c.name)
		}
		for _, f := range c.generate(t, kb, &d, nil).Files {
			if f.Format != manifest.FormatKubernetes || len(f.Args) == 0 {
				continue
			}
			seen := map[string]bool{}
			for _, doc := range jsonDocs(t, f) {
				for _, ctr := range argLists(doc) {
					// Without a command, KServe's preset or runtime runs the
					// program on the model it fetched: Argv's head.
					prefix := ec.Argv("")[:head]
					if len(ctr.command) > 0 {
						prefix = ctr.command
					}
					full := append(slices.Clone(prefix), ctr.args...)
					role, ok := matchRole(f.Args, full)
					if !ok {
						t.Errorf("%s: %s at %s: command %q is no role's launch command %q", c.name, f.Path, ctr.at, full, f.Args)
						continue
					}
					seen[role] = true
					for _, p := range EngineArgs(kb, f.Engine, f.EngineRelease, full) {
						t.Errorf("%s: %s at %s: %s", c.name, f.Path, ctr.at, p)
					}
				}
			}
			for role := range f.Args {
				if !seen[role] {
					t.Errorf("%s: %s: no container runs the %q command", c.name, f.Path, role)
				}
			}
			for role, argv := range f.Args {
				if !slices.Equal(argv, ec.Argv(role)) {
					t.Errorf("%s: %s: File.Args[%q] = %q, not Argv(%q) = %q", c.name, f.Path, role, argv, role, ec.Argv(role))
				}
			}
		}
	}
}

// TestTheArgumentTestCatchesAChangedFlag: the comparison above fails on a
// file whose arguments were changed.
func TestTheArgumentTestCatchesAChangedFlag(t *testing.T) {
	kb := k8sKB(t)
	c := k8sGenCases[0]
	d := c.decide(t, kb)
	s := c.generate(t, kb, &d, nil)
	f := s.Files[0]
	f.Body = []byte(strings.Replace(string(f.Body), `- "--max-model-len"`, `- "--max-model-length"`, 1))
	var docs []map[string]any
	for _, part := range strings.Split(string(f.Body), "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(part), &m); err == nil && m != nil {
			docs = append(docs, m)
		}
	}
	for _, doc := range docs {
		for _, ctr := range argLists(doc) {
			full := append(slices.Clone(d.EngineConfig.Argv("")[:3]), ctr.args...)
			if _, ok := matchRole(f.Args, full); ok {
				t.Fatalf("a changed flag still matched the launch command")
			}
		}
	}
}

func flagWords(ec *decide.EngineConfig, role string) []string {
	var out []string
	for _, l := range ec.Command {
		if l.Role != "" && l.Role != role {
			continue
		}
		out = append(out, l.Flag)
		if l.Value != "" {
			out = append(out, l.Value)
		}
	}
	return out
}

func matchRole(args map[string][]string, full []string) (string, bool) {
	for role, argv := range args {
		if slices.Equal(argv, full) {
			return role, true
		}
	}
	return "", false
}

type argList struct {
	at            string
	command, args []string
}

// argLists finds every map with an args list under doc: the containers
// and KServe's predictor model.
func argLists(doc any) []argList {
	var out []argList
	var walk func(at string, n any)
	walk = func(at string, n any) {
		switch n := n.(type) {
		case map[string]any:
			if a, ok := n["args"].([]any); ok {
				out = append(out, argList{at: at, command: strs(n["command"]), args: strs(a)})
			}
			keys := make([]string, 0, len(n))
			for k := range n {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				// An init container is never the engine: llm-d's routing
				// sidecar on a decode pod has arguments of its own.
				if k != "args" && k != "command" && k != "initContainers" {
					walk(at+"/"+k, n[k])
				}
			}
		case []any:
			for i, v := range n {
				walk(at+"/"+strconv.Itoa(i), v)
			}
		}
	}
	walk("", doc)
	return out
}

func strs(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// jsonDocs are a file's YAML documents as JSON values, in the order the
// validators count them (documents of comments only left out).
func jsonDocs(t *testing.T, f manifest.File) []any {
	t.Helper()
	var out []any
	for _, d := range splitYAML(f.Body) {
		j, err := yaml.YAMLToJSON(d.body)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			t.Fatal(err)
		}
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// pointerValue is the value at a JSON pointer.
func pointerValue(doc any, ptr string) (any, bool) {
	if ptr == "" || ptr == "/" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch n := cur.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, false
			}
			cur = n[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// TestKServeAndLLMDFilesPassTheOlderVendoredSchemas: --target
// kserve@v0.19 gaie@v1.5 llm-d@v0.9 writes files those releases accept.
func TestKServeAndLLMDFilesPassTheOlderVendoredSchemas(t *testing.T) {
	kb := k8sKB(t)
	for _, c := range k8sGenCases {
		d := c.decide(t, kb)
		sets := map[string]string{}
		first := c.generate(t, kb, &d, nil)
		for _, p := range first.Placeholders {
			sets[p.Name] = samples[p.Name]
		}
		// The older versions of the targets these files are written for
		// (a --target of another project is refused).
		targets := map[string]string{}
		for id, v := range map[string]string{"kserve": "v0.19.0", "gaie": "v1.5.0", "llm-d": "v0.9.0"} {
			if _, ok := first.Targets[id]; ok {
				targets[id] = v
			}
		}
		s, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d, Sets: sets, Targets: targets})
		// llm-d's prefill/decode files need llm-d v0.10.0 (the routing
		// sidecar's --model-server-port): refused at v0.9.0, naming it.
		var ue *manifest.UsageError
		if errors.As(err, &ue) && c.name == "k8s-fleet-llm-d-alone-pd" && strings.Contains(ue.Problem, "first appears in llm-d v0.10.0") {
			delete(targets, "llm-d")
			s, err = manifest.Generate(manifest.Request{KB: kb, Decision: &d, Sets: sets, Targets: targets})
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, f := range s.Files {
			if skipKubernetesCore(t, &f) {
				continue
			}
			for _, p := range checkFile(kb, f) {
				t.Errorf("%s: %s", c.name, p)
			}
		}
	}
}
