package manifest

import (
	"fmt"
	"strconv"

	"github.com/stackpick/stackpick/knowledge"
)

var (
	_ = register(ShapeLLMISVC, writeLLMISVC)
	_ = register(ShapeISVC, writeISVC)
)

// writeLLMISVC writes llm-d under KServe: one LLMInferenceService, whose
// controller deploys the vLLM servers from KServe's presets and llm-d's
// router (the endpoint picker and its InferencePool) beside them.
func writeLLMISVC(g *gen) error {
	if err := g.kserveEngine("LLMInferenceService"); err != nil {
		return err
	}
	version := g.target("kserve")
	ref, img := g.engineImage()
	roles := g.k8sRoles()
	main := roles[len(roles)-1] // decode when prefill is apart, else the one role
	args := map[string][]string{}

	spec := Map(W("model", Map(
		W("uri", Str(g.modelURI()), "KServe's storage initializer fetches the model from here into /mnt/models, the path the preset's command serves (the launch command's model, "+g.ec.HFID+", is this URI) [source: "+srcKServeStorage+"]"),
		W("name", Str(g.servedName()), "the model name clients send and KServe's preset passes as --served-model-name: the launch command's own --served-model-name"),
	), ""))
	spec.Add(W("replicas", Int(main.Instances), g.replicasWhy(main)))
	if tp := g.tensorParallel(); tp > 0 {
		spec.Add(W("parallelism", Map(F("tensor", Int(tp))), fmt.Sprintf("the launch command's --tensor-parallel-size; KServe's preset adds the same flag from this field, so both say %d", tp)))
	}
	spec.Add(W("router", Map(
		W("route", Map(), "KServe writes the HTTPRoute to the gateway"),
		W("gateway", Map(), "the cluster's default inference gateway (KServe's gateway configuration names it)"),
		W("scheduler", Map(), g.schedulerWhy()),
	), "llm-d's router under KServe: the LLMInferenceService deploys the endpoint picker and its InferencePool itself, so llm-d is not installed on the side [source: "+srcKServeSched+"]"))
	c := g.engineContainer(main.Name, ref, img)
	args[main.Name] = c.Argv
	preset := "KServe's preset pod (kserve-config-llm-template)"
	if len(roles) == 2 {
		preset = "KServe's decode preset pod (kserve-config-llm-decode-template, which runs llm-d's routing sidecar in front of the server)"
	}
	spec.Add(W("template", g.llmisvcPod(c, main.Name), "the server's pod, merged with "+preset+" by container name (main, as the presets name it): only what the decision says is written here [source: "+srcKServeTemplate+"]"))
	if len(roles) == 2 {
		p := roles[0]
		pc := g.engineContainer(p.Name, ref, img)
		args[p.Name] = pc.Argv
		pre := Map(W("replicas", Int(p.Instances), g.replicasWhy(p)))
		if tp := g.tensorParallel(); tp > 0 {
			pre.Add(W("parallelism", Map(F("tensor", Int(tp))), "the prefill command's --tensor-parallel-size"))
		}
		pre.Add(W("template", g.llmisvcPod(pc, p.Name), "the prefill servers' pod, merged with KServe's prefill preset (kserve-config-llm-prefill-template)"))
		spec.Add(W("prefill", pre, "prefill and decode run apart: KServe deploys the prefill servers from this block and the decode servers from the fields above, and its scheduler sends each request to a prefill server first"))
	}
	doc := Map(
		W("apiVersion", Str("serving.kserve.io/v1alpha2"), "the stored version of LLMInferenceService"),
		F("kind", Str("LLMInferenceService")),
		F("metadata", g.metadata(g.objectName(), nil)),
		F("spec", spec),
	)
	g.finish(File{
		Path:       "kserve/llminferenceservice.yaml",
		Kind:       "LLMInferenceService",
		APIVersion: "serving.kserve.io/v1alpha2",
		Deploys:    fmt.Sprintf("%s for %s, with llm-d's router (endpoint picker and InferencePool), all made by KServe's controller (kubectl apply -f kserve/llminferenceservice.yaml)", g.serversText(), g.ec.Model),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"kserve": version},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: args,
	}, "#", YAML([]string{capital(g.kserveSchemaNote(version)) + "."}, doc))
	return nil
}

// writeISVC writes KServe alone: an InferenceService on KServe's vLLM
// runtime.
func writeISVC(g *gen) error {
	if err := g.kserveEngine("InferenceService"); err != nil {
		return err
	}
	version := g.target("kserve")
	ref, img := g.engineImage()
	c := g.engineContainer("", ref, img)
	model := Map(
		W("modelFormat", Map(F("name", Str("vLLM"))), "the format KServe's vLLM runtime serves (supportedModelFormats: vLLM) [source: "+srcKServeRuntime+"]"),
		W("runtime", Str("kserve-vllmserver"), "KServe's vLLM runtime by name, rather than whichever runtime auto-selects vLLM"),
		W("storageUri", Str(g.modelURI()), "KServe's storage initializer fetches the model from here into /mnt/models, which the runtime's command serves (--model=/mnt/models): the launch command's model, "+g.ec.HFID+", is this URI"),
		W("image", Str(c.Image), g.imageWhy(c.img)+"; the runtime's own image is vllm/vllm-openai:latest, which does not pin the release the flags were written for"),
		W("args", c.argsNode(c.Argv[g.commandHead():]), g.flagsWhy()+"; KServe appends these to the runtime's own arguments (--port=8080 --served-model-name --model=/mnt/models), and a flag given again wins [source: "+srcKServeMerge+"]"),
	)
	res := g.gpuResources()
	if res == nil {
		res = Map()
	}
	cpu := g.ph("SERVER_CPU", phCPU, "CPU cores for one engine server (a Kubernetes quantity such as 16): stackpick does not size host resources, and KServe's vLLM runtime otherwise limits the container to cpu 1 and memory 2Gi; llm-d's optimized-baseline guide gives a Qwen3-32B server on 2 H100s 8 to 16 cores")
	mem := g.ph("SERVER_MEMORY", phMemory, "memory for one engine server (a Kubernetes quantity such as 128Gi): stackpick does not size host memory; llm-d's optimized-baseline guide gives a Qwen3-32B server on 2 H100s 96Gi to 128Gi")
	res = g.withHostResources(res, cpu, mem)
	model.Add(W("resources", res, "the runtime's defaults (cpu 1, memory 2Gi, as limits) are replaced by these [source: "+srcKServeRuntime+"; "+srcLLMDDeployment+"]"))
	n := g.ec.Servers
	pred := Map(
		W("minReplicas", Int(n), g.ec.ServersWhy+g.otherModels()),
		W("maxReplicas", Int(n), "the same: a fixed count, the servers stackpick sized; raise it to let KServe's autoscaler add servers"),
		F("model", model),
	)
	doc := Map(
		F("apiVersion", Str("serving.kserve.io/v1beta1")),
		F("kind", Str("InferenceService")),
		F("metadata", g.metadata(g.objectName(), nil)),
		F("spec", Map(F("predictor", pred))),
	)
	g.finish(File{
		Path:       "kserve/inferenceservice.yaml",
		Kind:       "InferenceService",
		APIVersion: "serving.kserve.io/v1beta1",
		Deploys:    fmt.Sprintf("%s for %s on KServe's vLLM runtime (kubectl apply -f kserve/inferenceservice.yaml)", g.serversText(), g.ec.Model),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"kserve": version},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": c.Argv},
	}, "#", YAML(g.isvcNotes(version), doc))
	return nil
}

// isvcNotes head the InferenceService: the schema it is written for and,
// when the answers ask for traffic splitting, how to roll out a change.
func (g *gen) isvcNotes(version string) []string {
	notes := []string{capital(g.kserveSchemaNote(version)) + "."}
	if g.answer("traffic_splitting") == "true" {
		notes = append(notes, "Traffic splitting ("+g.stated("traffic_splitting")+"): to roll out a new model or engine release, change this file and set spec.predictor.canaryTrafficPercent to the share of requests the new revision gets (KServe: \"CanaryTrafficPercent defines the traffic split percentage between the candidate revision and the last ready revision\", pkg/apis/serving/v1beta1/component.go at v0.20.0); it is not written now, as there is no earlier revision to split with.")
	}
	return notes
}

// kserveEngine fails when the engine is not one KServe's presets run.
func (g *gen) kserveEngine(kind string) error {
	if g.ec.Engine != knowledge.EngineVLLM {
		return &NotCoveredError{Why: fmt.Sprintf("KServe's %s presets and runtime start vLLM, and the picked engine is %s: stackpick writes no KServe files for it; the memo's launch command is what to run", kind, g.kb.ProductName(g.ec.Engine))}
	}
	return g.needGPUResource()
}

// llmisvcPod is an LLMInferenceService pod template: the engine's
// container, named main as KServe's presets name it, with the launch
// command's flags as its arguments.
func (g *gen) llmisvcPod(c container, role string) *Node {
	runs := "the preset's command runs vllm serve /mnt/models --served-model-name <model.name> --port 8000 [--tensor-parallel-size <parallelism.tensor>] followed by these arguments, so vLLM gets the launch command after its model, and a flag given twice takes the later value [source: " + srcKServeTemplate + "]"
	switch role {
	case "decode":
		runs = "the decode preset's command runs vllm serve /mnt/models --served-model-name <model.name> --port 8001 followed by these arguments, behind llm-d's routing sidecar on 8000 (--vllm-port=8001), so vLLM gets the launch command after its model, and a flag given twice takes the later value [source: " + srcKServeDecode + "]"
	case "prefill":
		runs = "KServe's prefill preset runs vllm serve /mnt/models with these arguments after its own, so vLLM gets the launch command after its model [source: " + srcKServeTemplate + ", whose prefill sibling is config-llm-prefill-template]"
	}
	ctr := Map(
		F("name", Str("main")),
		W("image", Str(c.Image), g.imageWhy(c.img)+"; it replaces the preset's llm-d build, so the flags run on the release they were written for"),
		W("args", c.argsNode(c.Argv[g.commandHead():]), g.flagsWhy()+"; "+runs),
	)
	if len(g.ec.Roles) > 0 {
		ctr.Add(W("env", List(nixlHostEnv("which KServe's prefill and decode presets do not set; KServe merges this list into the preset's by name (a strategic merge), so the preset's own variables stay [source: "+srcKServeMergeSpecs+"]")), ""))
	}
	if res := g.gpuResources(); res != nil {
		ctr.Add(F("resources", res))
	}
	ctr.Add(W("securityContext", Map(F("runAsUser", Int(1000))), "the preset sets runAsNonRoot: true, and vLLM's image sets no USER (no stage of its Dockerfile has one, and vLLM is installed system-wide with uv pip install --system), so it runs as root and the pod would be refused; any UID but 0 will do, and the preset's emptyDirs (HOME=/home, HF_HUB_CACHE=/models) are writable by it [source: "+srcKServeTemplate+"; vllm-project/vllm@dead20ba docker/Dockerfile, a development copy: the v0.33.0 tag's could not be read]"))
	return Map(F("containers", List(ctr)))
}

// withHostResources adds CPU and memory, request and limit alike, to a
// resources map that may already ask for GPUs.
func (g *gen) withHostResources(res *Node, cpu, mem string) *Node {
	limits := Map(F("cpu", Str(cpu)), F("memory", Str(mem)))
	requests := Map(F("cpu", Str(cpu)), F("memory", Str(mem)))
	if n := g.gpuCount(); n > 0 && g.gpuResource() != "" {
		limits.Add(F(g.gpuResource(), Int(n)))
		requests.Add(F(g.gpuResource(), Int(n)))
		return Map(
			W("limits", limits, fmt.Sprintf("%d GPUs for one server: %s", n, g.ec.ServersWhy)),
			F("requests", requests),
		)
	}
	return Map(F("limits", limits), F("requests", requests))
}

// modelURI is where KServe fetches the model from.
func (g *gen) modelURI() string {
	return g.ph("MODEL_URI", phURI, fmt.Sprintf("where KServe's storage initializer fetches the model's weights into /mnt/models: hf://%s downloads them from Hugging Face (a gated checkpoint needs a Secret with key HF_TOKEN that the pod's service account lists, where KServe looks for credentials), or pvc://, s3:// or oci:// for a copy you keep", g.ec.HFID))
}

// servedName is the name the launch command serves the model under.
func (g *gen) servedName() string {
	for _, l := range g.ec.Command {
		if l.FlagID == knowledge.FlagVLLMServedModelName && l.Value != "" {
			return l.Value
		}
	}
	return g.ec.Model
}

// tensorParallel is the launch command's tensor-parallel size, 0 when it
// sets none.
func (g *gen) tensorParallel() int {
	for _, l := range g.ec.Command {
		if l.FlagID == knowledge.FlagVLLMTensorParallelSize {
			if n, err := strconv.Atoi(l.Value); err == nil {
				return n
			}
		}
	}
	return 0
}

func (g *gen) replicasWhy(r k8sRole) string {
	if r.Name == "" {
		return r.Why + g.otherModels()
	}
	return r.Name + " servers: " + r.Why + g.otherModels()
}

// schedulerWhy says what the default scheduler does, and why it is the
// one to run.
func (g *gen) schedulerWhy() string {
	s := "KServe's default llm-d scheduler configuration: it scores pods by queue, KV-cache use and prefix-cache hits (prefix-cache-scorer, weight 3)"
	if len(g.ec.Roles) > 0 {
		s = "KServe's default llm-d scheduler configuration for prefill and decode apart: it picks a prefill and a decode pod for each request, scoring both by prefix-cache hits (prefix-cache-scorer, weight 3)"
	}
	if g.answer("cache_aware_routing") == "true" {
		s += ", which is the cache-aware routing " + g.stated("cache_aware_routing") + " asks for"
	}
	return s + " [source: " + srcKServeSched + " schedulerConfigText]"
}

// serversText counts the servers: "16 vLLM servers", "4 prefill and 4
// decode vLLM servers".
func (g *gen) serversText() string {
	name := g.kb.ProductName(g.ec.Engine)
	roles := g.k8sRoles()
	if len(roles) == 2 {
		return fmt.Sprintf("%d %s and %d %s %s servers", roles[0].Instances, roles[0].Name, roles[1].Instances, roles[1].Name, name)
	}
	if roles[0].Instances == 1 {
		return "one " + name + " server"
	}
	return fmt.Sprintf("%d %s servers", roles[0].Instances, name)
}
