package manifest

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// How each file is checked by the tests (manifest/check).
const (
	FormatKubernetes  = "kubernetes"   // YAML, one or more objects, each by apiVersion and kind
	FormatCompose     = "compose"      // a Compose file
	FormatTriton      = "triton-pbtxt" // a Triton model's config.pbtxt
	FormatServeConfig = "ray-serve"    // a Ray Serve config file
	FormatEngineJSON  = "engine-json"  // Triton vLLM backend model.json: vLLM engine arguments
	FormatHelmValues  = "helm-values"  // a chart's values file
	FormatShell       = "shell"        // a docker run line
)

// Request is what a manifest set is written from.
type Request struct {
	KB       *knowledge.KB
	Decision *decide.Decision
	// Origin names the answers in each file's header: "scenario
	// exit-test", "answers team.toml".
	Origin string
	// Version is stackpick's version, for the header.
	Version string
	// Targets are the --target choices, target id to version as typed
	// ("kserve": "v0.20"); a target not named gets its newest version.
	Targets map[string]string
	// Sets are the --set values, placeholder name to value.
	Sets map[string]string
	// Command is the command line that writes these files again, for
	// the header ("" leaves it out).
	Command string
}

// File is one file of a manifest set.
type File struct {
	// Path is the file's slash-separated path under the output folder.
	Path string `json:"path"`
	// Kind names what the file is: "LLMInferenceService", "Compose
	// file", "docker run line".
	Kind string `json:"kind"`
	// APIVersion is a Kubernetes object's apiVersion ("" otherwise).
	APIVersion string `json:"api_version,omitempty"`
	// Deploys says in one sentence what applying the file deploys.
	Deploys string `json:"deploys"`
	// Format is how the tests check it (Format* constants).
	Format string `json:"format"`
	// Targets are the schema versions it is written for, target id to
	// version ("kserve": "v0.20.0").
	Targets map[string]string `json:"targets"`
	// Engine and EngineRelease name the engine whose arguments the file
	// carries, and the release they are written for.
	Engine        string `json:"engine,omitempty"`
	EngineRelease string `json:"engine_release,omitempty"`
	// Args are the engine arguments the file gives each role ("" when
	// every instance runs the same command), the program's words
	// included: decide.EngineConfig.Argv's list.
	Args map[string][]string `json:"-"`
	// Moved are the launch flags the file carries somewhere other than
	// its arguments (flag → the field), where the project refuses them
	// as arguments: Ray Serve LLM's --served-model-name is model_id.
	Moved map[string]string `json:"-"`
	// Placeholders are the names of the placeholders the file holds,
	// unfilled, in first-use order.
	Placeholders []string `json:"placeholders"`
	// Checked says what stackpick's tests check files of this shape
	// against; Unchecked what only the place it runs can check.
	Checked   string `json:"checked"`
	Unchecked string `json:"unchecked"`
	Body      []byte `json:"-"`
}

// Placeholder is one value stackpick cannot know.
type Placeholder struct {
	Name string `json:"name"`
	// Explains says what to put there and where it comes from.
	Explains string `json:"explains"`
	// Value is the --set value, "" while it is unfilled.
	Value string `json:"value,omitempty"`
	// Example is a value of the shape --set takes for it ("" when any
	// one line of text will do).
	Example string `json:"example,omitempty"`
}

// Set is the files that deploy one decision.
type Set struct {
	// Stack names the stack the files deploy: "vLLM + llm-d (with KServe)".
	Stack string `json:"stack"`
	Files []File `json:"files"`
	// Placeholders are every placeholder the files use, filled or not,
	// in first-use order.
	Placeholders []Placeholder `json:"placeholders"`
	// Targets are the schema versions written for, target id to version.
	Targets map[string]string `json:"targets"`
	// Omits says what the stack holds that these files do not deploy
	// (framework models of a model server under an orchestrator, LoRA
	// adapters to load), each a sentence; every header repeats it.
	Omits []string `json:"omits,omitempty"`
	// Checked and Unchecked say what stackpick's tests check files of
	// this shape against, and what only a cluster can check.
	Checked   string `json:"checked"`
	Unchecked string `json:"unchecked"`
	// Earlier are files of a set written before in the folder this one is
	// written to that this one does not replace (slash paths, relative to
	// the folder): they stay, and the index names them, so that a later
	// write there names them too. Set by whoever writes the set.
	Earlier []string `json:"-"`
}

// Unfilled lists the placeholders no --set filled.
func (s *Set) Unfilled() []string {
	var out []string
	for _, p := range s.Placeholders {
		if p.Value == "" {
			out = append(out, p.Name)
		}
	}
	return out
}

// NotCoveredError says a stack has no files stackpick can write, and why.
type NotCoveredError struct{ Why string }

func (e *NotCoveredError) Error() string { return e.Why }

// MissingError says the knowledge base lacks a record the files need (an
// overlay that replaced a product without its images, say).
type MissingError struct{ What string }

func (e *MissingError) Error() string {
	return "stackpick cannot write the files for this stack: the knowledge base has " + e.What + " (kb check names what each product and target needs)"
}

// missingKnowledge is what missing panics with, deep in a writer, for
// Generate to return as a MissingError.
type missingKnowledge string

func missing(format string, args ...any) {
	panic(missingKnowledge(fmt.Sprintf(format, args...)))
}

// UsageError is a --target or --set that cannot be used: what was wrong
// and what to type instead.
type UsageError struct{ Problem, Hint string }

func (e *UsageError) Error() string {
	if e.Hint == "" {
		return e.Problem
	}
	return e.Problem + " (" + e.Hint + ")"
}

// Generate writes the files that deploy the decision's stack.
func Generate(req Request) (set *Set, err error) {
	if req.KB == nil || req.Decision == nil {
		return nil, errors.New("manifest: no decision")
	}
	defer func() {
		if r := recover(); r != nil {
			m, ok := r.(missingKnowledge)
			if !ok {
				panic(r)
			}
			set, err = nil, &MissingError{What: string(m)}
		}
	}()
	g, err := newGen(req)
	if err != nil {
		return nil, err
	}
	w := g.writer()
	if w == nil {
		return nil, &NotCoveredError{Why: g.notCovered()}
	}
	if err := w(g); err != nil {
		return nil, err
	}
	if err := g.checkSets(); err != nil {
		return nil, err
	}
	if err := g.checkTargetsUsed(); err != nil {
		return nil, err
	}
	if g.badTarget != nil {
		return nil, g.badTarget
	}
	return g.set(), nil
}

// gen is one Generate call's state: the decision, the resolved targets,
// the placeholders met so far and the files written.
type gen struct {
	req     Request
	kb      *knowledge.KB
	d       *decide.Decision
	ec      *decide.EngineConfig
	picks   map[string]decide.LayerPick
	targets map[string]string
	used    []string
	// explains and kinds hold, per placeholder used, what it explains and
	// what a --set value for it must look like.
	explains map[string]string
	kinds    map[string]phKind
	files    []File
	omits    []string
	// badTarget is the first --target whose version is not vendored,
	// refused once the files show the target is one they use.
	badTarget *UsageError
}

func newGen(req Request) (*gen, error) {
	g := &gen{req: req, kb: req.KB, d: req.Decision, ec: req.Decision.EngineConfig, picks: map[string]decide.LayerPick{}, targets: map[string]string{}, explains: map[string]string{}, kinds: map[string]phKind{}}
	for _, l := range g.d.Layers {
		g.picks[l.Layer] = l
	}
	g.omits = g.leftOut()
	for id, v := range req.Targets {
		t := g.kb.Target(id)
		if t == nil {
			hint := "targets: " + strings.Join(targetIDs(g.kb), ", ")
			if near := knowledge.Nearest(id, targetIDs(g.kb)); near != "" {
				hint = "did you mean " + near + "? " + hint
			}
			return nil, &UsageError{Problem: fmt.Sprintf("--target %s@%s: stackpick writes for no target %q", id, v, id), Hint: hint}
		}
		got, ok := resolveVersion(t, v)
		if !ok {
			// Said after the files are written: a --target no file uses is
			// the more useful refusal, whatever its version.
			if g.badTarget == nil {
				g.badTarget = &UsageError{Problem: fmt.Sprintf("--target %s@%s: no schema of %s %s is vendored", id, v, t.Name, v), Hint: "versions of " + id + ": " + strings.Join(t.Versions, ", ") + " (type one of them, or its leading part: " + id + "@" + shortVersion(t.Default()) + ")"}
			}
			continue
		}
		g.targets[id] = got
	}
	return g, nil
}

func targetIDs(kb *knowledge.KB) []string {
	var ids []string
	for _, t := range kb.Targets {
		ids = append(ids, t.ID)
	}
	return ids
}

// checkTargetsUsed fails on a --target for a project none of the files
// is written for: it would change nothing, and a user who typed it expects
// it to.
func (g *gen) checkTargetsUsed() error {
	var ids []string
	for id := range g.req.Targets {
		ids = append(ids, strings.ToLower(id))
	}
	slices.Sort(ids)
	for _, id := range ids {
		used := false
		for _, f := range g.files {
			if _, ok := f.Targets[id]; ok {
				used = true
			}
		}
		if !used {
			var have []string
			for _, f := range g.files {
				for t := range f.Targets {
					if !slices.Contains(have, t) {
						have = append(have, t)
					}
				}
			}
			slices.Sort(have)
			hint := "these files are written for no target"
			if len(have) > 0 {
				hint = "these files are written for " + strings.Join(have, ", ")
			}
			return &UsageError{Problem: fmt.Sprintf("--target %s: none of the files for this stack is written for %s", id, id), Hint: hint + "; drop --target " + id}
		}
	}
	return nil
}

// shortVersion is a version without its last part: "v0.20" of "v0.20.0",
// "main" of "main@0fddc01".
func shortVersion(v string) string {
	if i := strings.Index(v, "@"); i > 0 {
		return v[:i]
	}
	if i := strings.LastIndex(v, "."); i > 0 {
		return v[:i]
	}
	return v
}

// resolveVersion finds the vendored version v names: exactly, with or
// without a leading "v", or as a prefix ending at a dot ("v0.20" is
// v0.20.0; "1.3" is the newest 1.3.x).
func resolveVersion(t *knowledge.Target, v string) (string, bool) {
	norm := func(s string) string { return strings.TrimPrefix(s, "v") }
	var found string
	for _, have := range t.Versions {
		if norm(have) == norm(v) {
			return have, true
		}
		if strings.HasPrefix(norm(have), norm(v)+".") || strings.HasPrefix(have, v+"@") {
			found = have
		}
	}
	return found, found != ""
}

// target is the version of target id the files are written for: the one
// --target named, else the newest vendored. It records it for the set.
func (g *gen) target(id string) string {
	if v, ok := g.targets[id]; ok {
		return v
	}
	t := g.kb.Target(id)
	if t == nil {
		missing("no deployment target %q", id)
	}
	g.targets[id] = t.Default()
	return g.targets[id]
}

// needs fails when the version written for lacks a feature, naming the
// version that has it.
func (g *gen) needs(targetID, featureID string) error {
	t := g.kb.Target(targetID)
	if t == nil {
		missing("no deployment target %q", targetID)
	}
	f := t.Feature(featureID)
	if f == nil {
		missing("no feature %q of the deployment target %q", featureID, targetID)
	}
	have := g.target(targetID)
	if slices.Index(t.Versions, have) < slices.Index(t.Versions, f.Since) {
		return &UsageError{
			Problem: fmt.Sprintf("this stack's files need %s, which %s %s does not have: it first appears in %s %s", f.What, t.Name, have, t.Name, f.Since),
			Hint:    fmt.Sprintf("type --target %s@%s, or drop --target %s@%s", targetID, f.Since, targetID, have),
		}
	}
	return nil
}

// pick is the product picked on layer ("none" or "" when none).
func (g *gen) pick(layer string) string { return g.picks[layer].Pick }

// also reports whether product sits beside the pick on layer.
func (g *gen) also(layer, product string) bool {
	return slices.Contains(g.picks[layer].Also, product)
}

// answer is the answer to key as plain text.
func (g *gen) answer(key string) string {
	q := g.kb.Question(key)
	if q == nil {
		return ""
	}
	return g.d.Answers.Get(key).Plain(q.Type)
}

// stated says "you answered" or "defaulted" for key, so a reason that
// rests on an assumption says so.
func (g *gen) stated(key string) string {
	if g.d.Answers.StatedKey(key) {
		return "you answered " + key + " = " + g.answer(key)
	}
	return key + " = " + g.answer(key) + " (defaulted, not stated)"
}

func (g *gen) add(f File) {
	g.files = append(g.files, f)
}

func (g *gen) set() *Set {
	s := &Set{Stack: g.stackName(), Files: g.files, Targets: g.targets, Omits: g.omits, Checked: Checked, Unchecked: Unchecked}
	for _, name := range g.used {
		s.Placeholders = append(s.Placeholders, Placeholder{Name: name, Explains: g.explains[name], Value: g.req.Sets[name], Example: kindShapes[g.kinds[name]].example})
	}
	sort.SliceStable(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	return s
}

// leftOut lists what the decision's stack holds that no writer deploys,
// so a set never looks whole when it is not.
func (g *gen) leftOut() []string {
	var out []string
	ms := g.pick(knowledge.LayerModelServer)
	orch := g.pick(knowledge.LayerOrchestrator)
	if ms != "" && ms != knowledge.None && orch != "" && orch != knowledge.None {
		var models []string
		for _, sv := range g.d.Serves {
			if sv.Product == ms {
				models = append(models, sv.Models...)
			}
		}
		what := "the models it serves"
		if len(models) > 0 {
			what = strings.Join(models, ", ")
		}
		out = append(out, fmt.Sprintf("%s and %s: stackpick writes a model server's files only when no orchestrator is picked, so these files deploy the LLM alone under %s; deploy %s with files of their own", g.kb.ProductName(ms), what, g.kb.ProductName(orch), what))
	}
	if n := g.d.Answers.Get("base_models").Int; n > 1 && g.ec != nil {
		others := fmt.Sprintf("the other %d base models", n-1)
		if n == 2 {
			others = "the other base model"
		}
		apart := "for hosts of its own: files written that way take the same port and the same GPU numbers as these"
		if shape, _ := g.shape(); shape == ShapeLLMISVC || shape == ShapeISVC || shape == ShapeLLMD || shape == ShapeDynamo || shape == ShapeRayService {
			apart = "whose objects are named after its model, so they sit beside these in one namespace"
		}
		out = append(out, fmt.Sprintf("%s (base_models = %d): these files deploy %s on its share of the fleet (%s); write each other model's files from answers that name it (model = ...) with base_models = 1 and its own share of the fleet, %s", others, n, g.ec.Model, g.ec.ServersWhy, apart))
	}
	if shape, _ := g.shape(); g.ec != nil && len(g.ec.Roles) > 0 && (shape == ShapeLLMISVC || shape == ShapeLLMD || shape == ShapeDynamo) {
		out = append(out, "the RDMA network the KV cache crosses between prefill and decode pods (InfiniBand or RoCE, as the memo says): these pods ask for GPUs only; add your cluster's RDMA device resource and network attachment to them, names only your cluster's device plugin and network setup know")
	}
	if shape, _ := g.shape(); (shape == ShapeSingleNode || shape == ShapeTriton) && g.ec != nil && g.ec.Servers > 1 {
		more := fmt.Sprintf("%d more servers", g.ec.Servers-1)
		if g.ec.Servers == 2 {
			more = "one more server"
		}
		out = append(out, fmt.Sprintf("%s of the fleet (%s): these files start one, on this host; run them on each other host as well, behind a load balancer they do not write", more, g.ec.ServersWhy))
	}
	if g.ec != nil && g.d.Answers.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA {
		if n := g.d.Answers.Get(knowledge.KeyFineTunes).Int; n > 0 {
			for _, l := range g.ec.Command {
				if l.FlagID == knowledge.FlagVLLMEnableLoRA {
					out = append(out, fmt.Sprintf("the %d LoRA adapters (fine_tunes): the launch command makes room for them (%s), but where they are is not written; load them at start by adding vLLM's --lora-modules NAME=PATH (the adapter's folder in the container) to the arguments, or at run time by POST /v1/load_lora_adapter once VLLM_ALLOW_RUNTIME_LORA_UPDATING=True is in the server's environment, which vLLM calls risky in production as API clients then manage adapters [source: %s]", n, l.Flag, vllmLoRADocSrc))
					break
				}
			}
		}
	}
	return out
}

// stackName names the picked stack, layer by layer.
func (g *gen) stackName() string {
	var parts []string
	for _, l := range g.d.Layers {
		if l.Pick == "" || l.Pick == knowledge.None {
			continue
		}
		s := g.kb.ProductName(l.Pick)
		if len(l.Also) > 0 {
			var also []string
			for _, a := range l.Also {
				also = append(also, g.kb.ProductName(a))
			}
			s += " (with " + strings.Join(also, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " + ")
}

// vllmLoRADocSrc is vLLM's guide to serving LoRA adapters.
const vllmLoRADocSrc = "vllm-project/vllm@05863f17 docs/features/lora.md"

// Checked and Unchecked are what the set says of the checks as a whole;
// each file's own, by its format, are in checks.
const (
	Checked   = "Each file below says what stackpick's tests check files of its shape against, for every preset and each vendored version of its project; the files written here were not checked as they were written"
	Unchecked = "what only the place a file runs can check (a cluster, a Docker host, a Triton or Ray server) is said for each file"
)

// checks says, by file format, what stackpick's tests check files of
// that shape against, and what only the place the file runs can check.
var checks = map[string][2]string{
	FormatKubernetes: {
		"stackpick's tests check files of this shape, for every preset, against the schema of the version named here (the project's CRD, or Kubernetes' OpenAPI, vendored at that release): structure with unknown fields rejected, the CRD's CEL rules, and the engine's flag names against the knowledge base; this file itself was not checked when it was written",
		"only a cluster can check admission webhooks, that referenced Secrets, runtimes, classes and images exist, API-server defaulting, and that the hardware named is there",
	},
	FormatHelmValues: {
		"stackpick's tests check files of this shape, for every preset, against the chart's default values at the version named here (the chart has no values schema): every key one the chart has, with its type; this file itself was not checked when it was written",
		"only helm install checks that the chart renders with these values, and only a cluster what the rendered objects need",
	},
	FormatCompose: {
		"stackpick's tests check files of this shape, for every preset, against compose-spec's JSON Schema at the commit named here, unknown keys rejected, and the engine's flag names against the knowledge base; this file itself was not checked when it was written",
		"only the Docker host can check that the NVIDIA Container Toolkit and the GPUs are there, that the image pulls, that the port is free and the folders exist",
	},
	FormatShell: {
		"no schema exists for a docker run line, so stackpick checks none: the line runs the same image, arguments, port, volume and GPUs as compose.yaml, which is checked",
		"only the Docker host can check that the NVIDIA Container Toolkit and the GPUs are there, that the image pulls, that the port is free and the folders exist",
	},
	FormatTriton: {
		"stackpick's tests check files of this shape, for every preset, as protobuf text against Triton's model_config.proto at the release named here; this file itself was not checked when it was written",
		"only tritonserver can check that the backend is in its image and the model's files load",
	},
	FormatEngineJSON: {
		"stackpick's tests check files of this shape, for every preset, key by key against the knowledge base's vLLM engine arguments (name, type, range) at the release the launch command targets",
		"only the vLLM backend can check, as it loads the model, that the vLLM its image bundles takes every key",
	},
	FormatServeConfig: {
		"stackpick's tests check files of this shape, for every preset, against a schema derived from Ray's pydantic models (ServeDeploySchema, LLMConfig) at the version named here, unknown keys rejected, and engine_kwargs against the knowledge base's vLLM engine arguments; this file itself was not checked when it was written",
		"only a Ray cluster can check that its Ray and vLLM take the config, and that the GPUs named are there",
	},
}

// checksOf is what is checked of a file of format, and what is not.
func checksOf(format string) (checked, unchecked string) {
	c, ok := checks[format]
	if !ok {
		panic("manifest: no checks are said for the format " + format)
	}
	return c[0], c[1]
}
