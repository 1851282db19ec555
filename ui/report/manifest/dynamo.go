package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

var _ = register(ShapeDynamo, writeDynamo)

// DynamoWorkerProgram is how a Dynamo vLLM worker is started: the worker
// parses Dynamo's own flags and hands every other flag to vLLM's engine
// argument parser (components/src/dynamo/vllm/args.py: parse_known_args,
// then vllm_parser.parse_args(unknown)), so the launch command's vLLM
// flags are its arguments as they are. The program words differ from the
// launch command's ("vllm serve MODEL"): the model is vLLM's --model.
var DynamoWorkerProgram = []string{"python3", "-m", "dynamo.vllm"}

// The sources the Dynamo file cites for how Dynamo takes what it takes.
const (
	dynamoExampleSrc = "ai-dynamo/dynamo@14a3b0d9 examples/backends/vllm/deploy/v1beta1/disagg.yaml"
	dynamoRouterSrc  = "ai-dynamo/dynamo@14a3b0d9 examples/backends/vllm/deploy/v1beta1/disagg_router.yaml"
	dynamoArgsSrc    = "ai-dynamo/dynamo@000a36a7 components/src/dynamo/vllm/args.py"
	dynamoTRTArgsSrc = "ai-dynamo/dynamo@0a6a115c components/src/dynamo/trtllm/backend_args.py"
)

// dynamoKVEvents is the KV-event publisher a worker needs for the KV
// router to see its cache: Dynamo's router example passes exactly this.
const dynamoKVEvents = `{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:20080","enable_kv_cache_events":true}`

// writeDynamo writes a DynamoGraphDeployment: the frontend (with the KV
// router when the answers ask for cache-aware routing) and the engine's
// workers, one aggregated kind or prefill and decode.
func writeDynamo(g *gen) error {
	switch g.ec.Engine {
	case knowledge.EngineVLLM:
	case knowledge.EngineTensorRTLLM:
		return &NotCoveredError{Why: fmt.Sprintf("stackpick writes Dynamo's files for vLLM workers only: Dynamo's TensorRT-LLM worker (python3 -m dynamo.trtllm) takes flags of its own (--tensor-parallel-size, --max-seq-len, --free-gpu-memory-fraction where TensorRT-LLM's launch command says --tp_size, --max_seq_len, --free_gpu_memory_fraction; %s), so the launch command cannot be its arguments word for word, and stackpick does not re-word it. Run the launch command, or write the worker's flags by hand from Dynamo's TensorRT-LLM guide", dynamoTRTArgsSrc)}
	default:
		return &NotCoveredError{Why: fmt.Sprintf("stackpick writes Dynamo's files for vLLM workers only, and the picked engine is %s: Dynamo's own worker for it is not written yet. Run the launch command, or write the worker by hand from Dynamo's guide for %s", g.kb.ProductName(g.ec.Engine), g.kb.ProductName(g.ec.Engine))}
	}
	if err := g.needVLLM("Dynamo's vLLM workers"); err != nil {
		return err
	}
	version := g.target("dynamo")
	ref, img := g.image("dynamo", "vllm-runtime")
	ns := g.ph("NAMESPACE", phName, "the Kubernetes namespace to deploy into (it must exist, and for Dynamo it must be one the Dynamo operator watches)")
	secret := g.ph("HF_TOKEN_SECRET", phObject, "the name of a Secret in the namespace whose key HF_TOKEN holds a Hugging Face token, for gated checkpoints (kubectl create secret generic NAME --from-literal=HF_TOKEN=hf_...)")
	kvRouting := g.d.Answers.Get("cache_aware_routing").Bool

	frontend := Map(
		F("name", Str("main")),
		W("image", Str(ref), g.dynamoImageWhy(img)),
	)
	if kvRouting {
		frontend.Add(W("env", List(Map(F("name", Str("DYN_ROUTER_MODE")), F("value", Str("kv")))),
			fmt.Sprintf("KV-aware routing: %s; the frontend takes the router mode from DYN_ROUTER_MODE [source: %s]", g.stated("cache_aware_routing"), dynamoRouterSrc)))
	}
	components := List(Map(
		F("name", Str("Frontend")),
		W("type", Str("frontend"), "the OpenAI-compatible HTTP frontend and the router in front of the workers; the image starts it without a command [source: "+dynamoExampleSrc+"]"),
		F("replicas", Int(1)),
		F("podTemplate", Map(F("spec", Map(F("containers", List(frontend)))))),
	))

	args := map[string][]string{}
	roles := []struct{ role, name, kind string }{{"", "VllmWorker", "worker"}}
	if len(g.ec.Roles) > 0 {
		roles = nil
		for _, r := range g.ec.Roles {
			roles = append(roles, struct{ role, name, kind string }{r.Role, "Vllm" + capital(r.Role) + "Worker", r.Role})
		}
	}
	for _, r := range roles {
		c := g.engineContainer(r.role, ref, img)
		words, extras := g.dynamoWorkerArgs(r.role, kvRouting)
		args[r.role] = append(slices.Clone(DynamoWorkerProgram), words...)
		replicas, replicasWhy := g.ec.Servers, g.ec.ServersWhy
		for _, rc := range g.ec.Roles {
			if rc.Role == r.role {
				replicas, replicasWhy = rc.Instances, rc.Split
			}
		}
		ctr := Map(
			F("name", Str("main")),
			W("image", Str(ref), "the frontend's image: Dynamo's runtime image holds the frontend and the vLLM worker"),
			W("command", Strs(DynamoWorkerProgram...), "Dynamo's vLLM worker, where the launch command says vllm serve: it registers with the frontend and passes every vLLM flag to vLLM's own parser ["+dynamoArgsSrc+"]"),
			W("args", g.dynamoArgsNode(c, words, extras, r.role), g.flagsWhy()+"; the model is vLLM's --model instead of serve's positional argument, and Dynamo's own flags follow the launch command's"),
			W("envFrom", List(Map(F("secretRef", Map(F("name", Str(secret)))))), "HF_TOKEN for gated checkpoints, from a Secret never written into this file"),
		)
		if n := g.gpuCount(); n > 0 {
			ctr.Add(W("resources", Map(F("limits", Map(F("nvidia.com/gpu", Str(strconv.Itoa(n)))))), fmt.Sprintf("%d GPUs per instance: %s", n, g.ec.ServersWhy)))
		}
		why := "an aggregated worker: each instance prefills and decodes"
		if r.role != "" {
			why = fmt.Sprintf("the %s workers of prefill/decode disaggregation: %s", r.role, g.stated("disaggregation"))
		}
		components.items = append(components.items, Map(
			F("name", Str(r.name)),
			W("type", Str(r.kind), why),
			W("replicas", Int(replicas), replicasWhy),
			F("podTemplate", Map(F("spec", Map(F("containers", List(ctr)))))),
		))
	}

	doc := Map(
		F("apiVersion", Str("nvidia.com/v1beta1")),
		F("kind", Str("DynamoGraphDeployment")),
		F("metadata", Map(
			W("name", Str(k8sName(g.ec.Model)), "named after the model it serves"),
			F("namespace", Str(ns)),
		)),
		F("spec", Map(F("components", components))),
	)
	header := []string{}
	if g.answer("kubernetes") == "none" {
		header = append(header, "You answered kubernetes = none: a DynamoGraphDeployment needs Kubernetes with the Dynamo operator installed. Without it, run the same frontend and workers directly (python3 -m dynamo.frontend; the worker commands below).")
	}
	deploys := fmt.Sprintf("Dynamo's frontend and %s, serving %s (kubectl apply -f dynamo.yaml, with the Dynamo platform installed)", workersText(g), g.ec.Model)
	g.finish(File{
		Path:       "dynamo.yaml",
		Kind:       "DynamoGraphDeployment",
		APIVersion: "nvidia.com/v1beta1",
		Deploys:    deploys,
		Format:     FormatKubernetes,
		Targets:    map[string]string{"dynamo": version},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: args,
	}, "#", YAML(header, doc))
	return nil
}

// dynamoWorkerArgs is a worker's arguments after the program: vLLM's
// --model, the launch command's flags for role in order, and Dynamo's own
// flags after them (extras): the disaggregation mode of a prefill or
// decode worker, and the KV-event publisher the KV router needs on a
// worker that publishes events (Dynamo publishes none from decode
// workers, and none unless --kv-events-config asks: args.py,
// create_kv_events_config).
func (g *gen) dynamoWorkerArgs(role string, kvRouting bool) (words, extras []string) {
	argv := g.ec.Argv(role)
	cmd, model := g.ec.Program()
	rest := argv[len(strings.Fields(cmd)):]
	if model != "" {
		words = append(words, "--model", model)
		rest = rest[1:]
	}
	words = append(words, rest...)
	if role != "" {
		extras = append(extras, "--disaggregation-mode", role)
	}
	if kvRouting && role != "decode" && !slices.Contains(rest, "--kv-events-config") {
		extras = append(extras, "--kv-events-config", dynamoKVEvents)
	}
	return append(words, extras...), extras
}

// dynamoArgsNode is the worker's args list: the launch command's flags
// with their defenses (argsNode), then Dynamo's own flags with theirs.
func (g *gen) dynamoArgsNode(c container, words, extras []string, role string) *Node {
	n := c.argsNode(words[:len(words)-len(extras)])
	for i := 0; i < len(extras); i++ {
		item := Str(extras[i])
		switch extras[i] {
		case "--disaggregation-mode":
			item.Because(fmt.Sprintf("--disaggregation-mode: Dynamo's flag, not vLLM's: this worker runs the %s role [source: %s]", role, dynamoExampleSrc))
		case "--kv-events-config":
			item.Because("--kv-events-config: added by stackpick for Dynamo's KV router, which routes on the KV events workers publish; Dynamo publishes none unless this flag asks [source: " + dynamoArgsSrc + " create_kv_events_config; " + dynamoRouterSrc + "]")
		}
		n.items = append(n.items, item)
	}
	if slices.Contains(words, "--kv-transfer-config") {
		// Say who decides the KV transfer: Dynamo requires the flag on a
		// prefill worker and uses the value given, setting no connector of
		// its own.
		for _, it := range n.items {
			if it.scalar == quote("--kv-transfer-config") {
				refused := ""
				if role == "prefill" {
					refused = " (a prefill worker without it is refused)"
				}
				it.why += " Dynamo sets no KV connector itself and uses this value as given" + refused + " [source: " + dynamoArgsSrc + " update_dynamo_config_with_engine]. VLLM_NIXL_SIDE_CHANNEL_HOST needs no setting here: Dynamo sets it to the pod's routable address unless it is set [source: " + dynamoArgsSrc + " ensure_side_channel_host]."
			}
		}
	}
	return n
}

func workersText(g *gen) string {
	if len(g.ec.Roles) == 0 {
		return fmt.Sprintf("%d vLLM workers", g.ec.Servers)
	}
	var parts []string
	for _, r := range g.ec.Roles {
		parts = append(parts, fmt.Sprintf("%d %s", r.Instances, r.Role))
	}
	return strings.Join(parts, " and ") + " vLLM workers"
}

// dynamoImageWhy says where the image's tag comes from, and that it is not
// the release the knowledge base targets when it is not.
func (g *gen) dynamoImageWhy(img *knowledge.Image) string {
	if img.Ref == "" {
		return g.imageWhy(img)
	}
	s := "Dynamo's published vLLM runtime image"
	if img.Release != "" {
		s += " of " + img.Release
	}
	s += " [source: " + uniqueSources(img.Sources) + "]"
	if p := g.kb.Product("dynamo"); p != nil && img.Release != "" && p.Release.Tag != "" && p.Release.Tag != img.Release {
		s += fmt.Sprintf(". Not %s's tag (the knowledge base targets %s): no source read gives %s", p.Release.Tag, p.Release.Tag, img.NotFound)
	}
	return s
}

var notName = regexp.MustCompile(`[^a-z0-9-]+`)

// k8sName turns an id ("llama-3.3-70b") into a Kubernetes name
// ("llama-3-3-70b").
func k8sName(id string) string {
	s := strings.Trim(notName.ReplaceAllString(strings.ToLower(id), "-"), "-")
	if len(s) > 63 {
		s = strings.Trim(s[:63], "-")
	}
	if s == "" {
		return "stackpick"
	}
	return s
}

// uniqueSources cites sources on one line, each place once.
func uniqueSources(ss knowledge.Sources) string { return sourceText(ss) }
