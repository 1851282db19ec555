package manifest

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

var _ = register(ShapeTriton, writeTriton)

// The sources the Triton files cite.
const (
	tritonSampleSrc   = "triton-inference-server/vllm_backend@8de0c148 samples/model_repository/vllm_model/config.pbtxt"
	tritonReadmeSrc   = "triton-inference-server/vllm_backend@8de0c148 README.md"
	tritonModelPySrc  = "triton-inference-server/vllm_backend@8de0c148 src/model.py"
	hfConstantsSrc    = "huggingface/huggingface_hub@03333b68 src/huggingface_hub/constants.py (default_cache_path = os.path.join(HF_HOME, \"hub\"))"
	tritonHFHome      = "/hf-home"
	tritonConfigDoc   = "triton-inference-server/server@e1db8a60 docs/user_guide/model_configuration.md"
	tritonQuickstart  = "triton-inference-server/server@e1db8a60 docs/getting_started/quickstart.md"
	tritonModelRepo   = "model_repository"
	tritonServerImage = "tritonserver-vllm"
)

// TritonModelJSON is the path, under the LLM's model folder, of the file
// the vLLM backend reads its engine arguments from.
const TritonModelJSON = "1/model.json"

// writeTriton writes a Triton model repository: the LLM as a vLLM-backend
// model (config.pbtxt and the engine arguments in model.json), a
// config.pbtxt with named placeholders for each framework model the model
// server serves beside it, and a Compose file running tritonserver on the
// repository.
func writeTriton(g *gen) error {
	if err := g.needContainerGPU(); err != nil {
		return err
	}
	if err := g.needVLLM("a Triton model repository"); err != nil {
		return err
	}
	kwargs, err := g.engineKwargs("")
	if err != nil {
		return err
	}
	version := g.target("triton")
	llm := g.ec.Model
	dir := tritonModelRepo + "/" + llm + "/"

	// config.pbtxt of the LLM. model.json cannot hold comments, so the
	// reasons for its keys are written here.
	lines := []string{
		fmt.Sprintf("%s is served by Triton's vLLM backend. Its engine arguments are in %s: the launch command stackpick wrote, word for word, each flag as vLLM's engine-argument keyword (dashes to underscores, values typed); the backend passes them to vLLM's AsyncEngineArgs [source: %s].", llm, TritonModelJSON, tritonModelPySrc),
		"JSON has no comments, so each key's reason is here:",
	}
	for _, k := range kwargs {
		lines = append(lines, "  "+k.Key+": "+k.why())
	}
	var b strings.Builder
	writeComments(&b, lines, 0)
	b.WriteString("\n")
	writeComments(&b, []string{"The vLLM backend [source: " + tritonSampleSrc + "]."}, 0)
	b.WriteString("backend: \"vllm\"\n\n")
	writeComments(&b, []string{"One instance; vLLM places it on the GPUs itself (KIND_MODEL), tensor_parallel_size of them [source: " + tritonSampleSrc + "; " + tritonReadmeSrc + "]."}, 0)
	b.WriteString("instance_group [\n  {\n    count: 1\n    kind: KIND_MODEL\n  }\n]\n")
	g.finish(File{
		Path:    dir + "config.pbtxt",
		Kind:    "Triton model configuration",
		Deploys: fmt.Sprintf("%s as a model of Triton's vLLM backend, loaded when tritonserver starts on the repository", llm),
		Format:  FormatTriton,
		Targets: map[string]string{"triton": version},
		Engine:  g.ec.Engine, EngineRelease: g.ec.Release,
	}, "#", []byte(b.String()))

	// model.json: no header (JSON has no comments; the index and the
	// config.pbtxt above carry it).
	var j strings.Builder
	j.WriteString("{\n")
	for i, k := range kwargs {
		sep := ","
		if i == len(kwargs)-1 {
			sep = ""
		}
		fmt.Fprintf(&j, "  %s: %s%s\n", jsonString(k.Key), k.Raw, sep)
	}
	j.WriteString("}\n")
	g.finish(File{
		Path:    dir + TritonModelJSON,
		Kind:    "vLLM engine arguments (model.json)",
		Deploys: fmt.Sprintf("the engine arguments of %s: the launch command's flags as JSON keywords (their reasons are in %sconfig.pbtxt)", llm, dir),
		Format:  FormatEngineJSON,
		Targets: map[string]string{},
		Engine:  g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": kwargArgv(kwargs)},
	}, "", []byte(j.String()))

	for _, m := range g.frameworkModels() {
		g.writeFrameworkModel(m, version)
	}
	return g.writeTritonCompose()
}

// frameworkModels are the models the model server serves besides the LLM
// (decision.Serves): vision, tabular.
func (g *gen) frameworkModels() []string {
	for _, s := range g.d.Serves {
		if s.Layer == knowledge.LayerModelServer && s.Product == "dynamo-triton" {
			return s.Models
		}
	}
	return nil
}

// writeFrameworkModel writes a framework model's config.pbtxt: valid
// protobuf text whose backend is a named placeholder, with what stackpick
// cannot know (the framework, the tensors) said in comments.
func (g *gen) writeFrameworkModel(model, version string) {
	name := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(model)) + "_BACKEND"
	backend := g.ph(name, phBackend, fmt.Sprintf("the Triton backend that runs the %s model, by the backend's name: it depends on the framework the model was exported from, which stackpick does not know (Triton runs TensorRT, PyTorch, ONNX, OpenVINO, Python, RAPIDS FIL and more, through one backend each); put the model file in %s/%s/1/. The image compose.yaml runs is Triton's vLLM flavour (%s): check that it ships the backend named here, or run an image that does", model, tritonModelRepo, model, g.tritonImageRef()))
	var b strings.Builder
	writeComments(&b, []string{
		fmt.Sprintf("The %s model: the model server serves it beside the LLM (%s).", model, g.stated("other_model_types")),
		fmt.Sprintf("stackpick cannot know its framework, file or tensors. Fill the backend, put the model file in %s/%s/1/, and either let Triton complete the inputs, outputs and batch size from the model (by default it tries, for the backends that can) or add input [...] and output [...] blocks [source: %s, Auto-Generated Model Configuration].", tritonModelRepo, model, tritonConfigDoc),
	}, 0)
	b.WriteString("backend: \"" + backend + "\"\n")
	g.finish(File{
		Path:    tritonModelRepo + "/" + model + "/config.pbtxt",
		Kind:    "Triton model configuration",
		Deploys: fmt.Sprintf("the %s model in Triton, once its backend and model file are filled in", model),
		Format:  FormatTriton,
		Targets: map[string]string{"triton": version},
	}, "#", []byte(b.String()))
}

// tritonImageRef is the tritonserver image's reference as compose.yaml
// writes it (a placeholder when no source gives its tag).
func (g *gen) tritonImageRef() string {
	p := g.kb.Product("dynamo-triton")
	if p == nil {
		return "tritonserver"
	}
	if img := p.Image(tritonServerImage); img != nil && img.Ref != "" {
		return img.Ref
	}
	return "tritonserver"
}

// vllmMemoryShare is the launch command's --gpu-memory-utilization, or
// vLLM's default when the command leaves it out.
func (g *gen) vllmMemoryShare() string {
	for _, l := range g.ec.Command {
		if l.FlagID == knowledge.FlagVLLMGPUMemoryUtilization {
			return l.Value
		}
	}
	return "vLLM's default share"
}

// writeTritonCompose writes the Compose file that runs tritonserver on the
// model repository.
func (g *gen) writeTritonCompose() error {
	ref, img := g.image("dynamo-triton", tritonServerImage)
	port := img.Port
	svc := Map(
		W("image", Str(ref), g.imageWhy(img)+". Not found: "+img.NotFound),
		W("command", Strs("tritonserver", "--model-repository=/models"), "Triton loads every model in the mounted repository at start, and stops if one fails to load: fill the framework models' backends and model files first, or remove their folders [source: "+tritonQuickstart+"]"),
		W("ports", Strs(fmt.Sprintf("%d:%d", port, port), "8001:8001", "8002:8002"), "HTTP, gRPC and metrics, as Triton's quick start publishes them [source: "+tritonQuickstart+"]"),
		W("volumes", Strs("./"+tritonModelRepo+":/models:ro", "model-cache:"+tritonHFHome), "the model repository stackpick wrote beside this file, and a named volume for the weights the vLLM backend downloads, so a restart does not download them again"),
		W("environment", Strs("HF_TOKEN", "HF_HOME="+tritonHFHome), "HF_TOKEN: a Hugging Face token for gated checkpoints, passed from the shell that runs docker compose (export HF_TOKEN=...), never written into this file; HF_HOME: where Hugging Face's library keeps its downloads (the hub cache under it), set to the volume [source: "+hfConstantsSrc+"]"),
		W("shm_size", Str("1G"), "shared memory and limits as the vLLM backend's README runs the container [source: "+tritonReadmeSrc+"]"),
		F("ulimits", Map(F("memlock", Int(-1)), F("stack", Int(67108864)))),
	)
	if n := g.gpuCount(); n > 0 && g.answer("gpu_vendor") == "nvidia" {
		svc.Add(W("deploy", Map(F("resources", Map(F("reservations", Map(F("devices", List(Map(
			F("driver", Str("nvidia")),
			W("count", Int(n), g.ec.ServersWhy),
			F("capabilities", Strs("gpu")),
		)))))))), fmt.Sprintf("%d NVIDIA GPUs reserved for the server: the LLM's tensor-parallel GPUs, which the framework models share; vLLM takes %s of each GPU's memory (model.json's gpu_memory_utilization), so the framework models fit in what is left or that fraction must come down", n, g.vllmMemoryShare())))
	}
	doc := Map(
		W("name", Str(k8sName("stackpick-"+g.ec.Model)), "the Compose project: named after the model it serves"),
		F("services", Map(F("tritonserver", svc))),
		F("volumes", Map(F("model-cache", Map(W("name", Str("stackpick-model-cache"), "named outright: the same download as a single-node engine's Compose file and docker run line"))))),
	)
	g.finish(File{
		Path:    "compose.yaml",
		Kind:    "Compose file",
		Deploys: fmt.Sprintf("tritonserver on this host with the model repository mounted: %s and the framework models (docker compose up -d; ready when http://localhost:%d%s answers 200)", g.ec.Model, port, img.Health),
		Format:  FormatCompose,
		Targets: map[string]string{"compose": g.target("compose")},
	}, "#", YAML(nil, doc))
	return nil
}
