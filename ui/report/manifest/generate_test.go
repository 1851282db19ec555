package manifest

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// variants are the presets and every preset with one answer changed to
// each other value its question allows (enums, booleans, catalog ids, a
// few numbers): about two thousand decisions across every shape.
func variants(t testing.TB, kb *knowledge.KB) []decide.Decision {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	var out []decide.Decision
	// The defaults on one node with a team that runs SGLang: an SGLang
	// server holding two data-parallel replicas (--dp-size 2).
	sgl := kb.Defaults()
	if sgl.Set("team_familiarity", knowledge.EngineSGLang) != nil || sgl.Set(knowledge.KeyKubernetes, "none") != nil {
		t.Fatal("the SGLang variant's answers are refused")
	}
	out = append(out, decide.Decide(kb, sgl))
	for _, sc := range all {
		out = append(out, decide.Decide(kb, sc.Answers))
		for _, q := range kb.Questions {
			if q.Derived {
				continue
			}
			var vals []any
			switch q.Type {
			case knowledge.TypeBool:
				vals = []any{true, false}
			case knowledge.TypeInt:
				vals = []any{int64(0), int64(1), int64(2), int64(7), int64(64)}
			case knowledge.TypeEnum:
				for _, v := range q.Values {
					vals = append(vals, v)
				}
				switch q.Catalog {
				case knowledge.CatalogGPU:
					for _, g := range kb.GPUs {
						vals = append(vals, g.ID)
					}
				case knowledge.CatalogModel:
					for _, m := range kb.Models {
						vals = append(vals, m.ID)
					}
				}
			}
			for _, v := range vals {
				a := sc.Answers.Clone()
				if a.Set(q.Key, v) != nil {
					continue
				}
				out = append(out, decide.Decide(kb, a))
			}
		}
	}
	return out
}

var anyPlaceholder = regexp.MustCompile(`\$\{([^}]*)\}`)

// gpuAsk is how a file asks for a server's GPUs: a Kubernetes limit, a
// Compose reservation's count, or docker run's device list.
var gpuAsk = regexp.MustCompile(`nvidia\.com/gpu: "?(\d+)"?|count: (\d+)|device=([0-9,]+)`)

// Every decision either gets files or a reason; no decision panics; every
// ${…} a file holds is a placeholder the set names and explains, and every
// placeholder the set names stands in some file; every file says what it
// deploys and carries the launch command it was written from.
func TestEveryDecisionGetsFilesOrAReasonAndNoPlaceholderIsUnnamed(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps about two thousand decisions")
	}
	kb := knowledge.MustDefault()
	shapes := map[string]int{}
	for _, d := range variants(t, kb) {
		s, err := Generate(Request{KB: kb, Decision: &d, Origin: "a variant", Version: "dev"})
		var nc *NotCoveredError
		if errors.As(err, &nc) {
			if nc.Why == "" {
				t.Errorf("a stack without files and without a reason: %+v", d.Layers)
			}
			shapes["not covered"]++
			continue
		}
		if err != nil {
			t.Fatalf("%v", err)
		}
		g, _ := newGen(Request{KB: kb, Decision: &d})
		shape, _ := g.shape()
		shapes[shape]++
		if v := d.Answers.Get("gpu_vendor").Str; v != "nvidia" && d.EngineConfig.GPUsPerServer > 0 && shape != ShapeRayServe {
			// Containers and pods get GPUs as NVIDIA's only (a Serve config
			// leaves devices to the Ray cluster): any other accelerator
			// gets a reason, not a CUDA image without devices.
			t.Errorf("%s: files for a server on %s accelerators (%s)", shape, v, d.Answers.Get("gpu").Str)
		}
		if ec := d.EngineConfig; ec.Engine == knowledge.EngineVLLM || ec.Engine == knowledge.EngineSGLang {
			dp := 1
			for _, l := range ec.Command {
				if l.Flag == "--data-parallel-size" || l.Flag == "--dp-size" {
					dp, _ = strconv.Atoi(l.Value)
				}
			}
			if want := ec.Sizing.TensorParallelSize * ec.Sizing.PipelineParallelSize * dp; ec.GPUsPerServer != want {
				t.Errorf("%s: a server takes %d GPUs; its command says TP × PP × DP = %d (%s)", shape, ec.GPUsPerServer, want, ec.ServersWhy)
			}
		}
		named := map[string]bool{}
		for _, p := range s.Placeholders {
			if p.Explains == "" {
				t.Errorf("%s: ${%s} is not explained", shape, p.Name)
			}
			named[p.Name] = false
		}
		for _, f := range s.Files {
			if f.Deploys == "" || f.Kind == "" || len(f.Body) == 0 {
				t.Errorf("%s: %s says nothing of what it deploys, or is empty", shape, f.Path)
			}
			for _, m := range anyPlaceholder.FindAllSubmatch(f.Body, -1) {
				name := string(m[1])
				if _, ok := named[name]; !ok {
					t.Errorf("%s: %s holds ${%s}, which the set does not name", shape, f.Path, name)
					continue
				}
				named[name] = true
				if !slices.Contains(f.Placeholders, name) {
					t.Errorf("%s: %s holds ${%s} but does not list it", shape, f.Path, name)
				}
			}
			if want := d.EngineConfig.GPUsPerServer; want > 0 && !strings.HasPrefix(f.Path, "ray") && !strings.HasSuffix(f.Path, ".pbtxt") {
				// A server's GPUs are TP × PP × its data-parallel
				// replicas; Ray's worker groups ask by node instead, and a
				// Triton config.pbtxt's count is model instances.
				for _, m := range gpuAsk.FindAllSubmatch(f.Body, -1) {
					n, _ := strconv.Atoi(string(m[1]) + string(m[2]))
					if len(m[3]) > 0 {
						n = strings.Count(string(m[3]), ",") + 1
					}
					if n != want {
						t.Errorf("%s: %s asks for %q GPUs for a server of %d (%s)", shape, f.Path, m[0], want, d.EngineConfig.ServersWhy)
					}
				}
			}
			for role, args := range f.Args {
				flags := commandFlags(d.EngineConfig, role)
				if len(f.Moved) > 0 {
					flags = withoutMoved(flags, f.Moved)
				}
				if !containsRun(args, flags) {
					t.Errorf("%s: %s carries %q for role %q, without the launch command's flags %q in order", shape, f.Path, args, role, flags)
				}
			}
		}
		for name, used := range named {
			if !used {
				t.Errorf("%s: ${%s} is named but stands in no file", shape, name)
			}
		}
	}
	t.Logf("shapes: %v", shapes)
	for _, want := range []string{ShapeSingleNode, ShapeTriton, ShapeLLMISVC, ShapeISVC, ShapeLLMD, ShapeDynamo, ShapeRayService, ShapeRayServe} {
		if shapes[want] == 0 {
			t.Errorf("no variant reaches %s", want)
		}
	}
}

// Generating the files for a decision: the budget is 20 ms of
// process time.
//
//	go test ./ui/report/manifest -run '^$' -bench Generate
func BenchmarkGenerate(b *testing.B) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		b.Fatal(err)
	}
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		b.Run(sc.Name, func(b *testing.B) {
			for b.Loop() {
				_, _ = Generate(Request{KB: kb, Decision: &d, Origin: "scenario " + sc.Name, Version: "dev"})
			}
		})
	}
}

// commandFlags is the launch command of role after its program and model:
// the flags every file must carry unchanged (a file may start them with
// another program, as Dynamo's worker does, or carry only them, as a Serve
// config's engine_kwargs do).
func commandFlags(ec *decide.EngineConfig, role string) []string {
	argv := ec.Argv(role)
	n := commandWords(ec)
	if _, model := ec.Program(); model != "" {
		n++
	}
	return argv[min(n, len(argv)):]
}

// containsRun reports whether run appears in list, contiguous and in order.
// withoutMoved is flags without the moved ones and their values.
func withoutMoved(flags []string, moved map[string]string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		if _, ok := moved[flags[i]]; ok {
			if i+1 < len(flags) && !strings.HasPrefix(flags[i+1], "--") {
				i++
			}
			continue
		}
		out = append(out, flags[i])
	}
	return out
}

func containsRun(list, run []string) bool {
	if len(run) == 0 {
		return true
	}
	for i := 0; i+len(run) <= len(list); i++ {
		if slices.Equal(list[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// What the stack holds that the files do not deploy is said, in the set
// and in every file's header: exit-test's LoRA adapters, and a model
// server's framework models under an orchestrator.
func TestWhatTheFilesLeaveOutIsSaidInEveryHeader(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	exit, _ := scenarios.Find(all, "exit-test")
	mixed, _ := scenarios.Find(all, "mixed-models")
	underOrch := mixed.Answers.Clone()
	for k, v := range map[string]any{"kubernetes": "required", "nodes": int64(4)} {
		if err := underOrch.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]struct {
		a    knowledge.Answers
		want string
	}{
		"exit-test":           {exit.Answers, "LoRA adapters"},
		"mixed-models on k8s": {underOrch, "Dynamo-Triton and vision, tabular"},
	} {
		d := decide.Decide(kb, c.a)
		s, err := Generate(Request{KB: kb, Decision: &d})
		if err != nil {
			t.Fatalf("%s: %v (layers %+v)", name, err, d.Layers)
		}
		found := false
		for _, o := range s.Omits {
			found = found || strings.Contains(o, c.want)
		}
		if !found {
			t.Errorf("%s: omits %q, want one naming %q", name, s.Omits, c.want)
		}
		for _, f := range s.Files {
			if f.Format != FormatEngineJSON && !strings.Contains(string(f.Body), "Not in these files: ") {
				t.Errorf("%s: %s's header does not say what the files leave out", name, f.Path)
			}
		}
	}
}
