package manifest

import (
	"fmt"
	"strconv"
	"strings"
)

var (
	_ = register(ShapeRayService, writeRayService)
	_ = register(ShapeRayServe, writeRayServe)
)

// The sources the Ray files cite.
const (
	kuberaySampleSrc = "ray-project/kuberay@59d663ae ray-operator/config/samples/ray-service.llm-serve.yaml (v1.7.0)"
	rayAccelSrc      = "ray-project/ray@00501e2b python/ray/util/accelerators/accelerators.py"
	rayVLLMModelsSrc = "ray-project/ray@0206cc45 python/ray/llm/_internal/serve/engines/vllm/vllm_models.py"
)

// RayServeApp is the Serve application stackpick writes: Ray Serve LLM's
// OpenAI-compatible app builder.
const RayServeApp = "ray.serve.llm:build_openai_app"

// rayAccelerators are Ray's accelerator_type names (accelerators.py) for
// the GPUs Ray Serve LLM also counts as GPUs (vllm_models.py's use_gpu
// list; B200 and the AMD, Gaudi and TPU names are not in it at the commit
// read, so naming them would run vLLM as on a CPU). A100 is the label
// Ray puts on nodes; A100-40G and A100-80G are added only by hand. Another
// GPU gets no accelerator_type (the field is optional): no constraint.
var rayAccelerators = map[string]string{"h100": "H100", "h200": "H200", "a100-80gb": "A100", "a100-40gb": "A100", "l40s": "L40S", "l4": "L4"}

// writeRayService writes a KubeRay RayService: the Serve config, with one
// LLM config built from the launch command, and a Ray cluster of one head
// and a worker group with the command's GPUs.
func writeRayService(g *gen) error {
	if err := g.needVLLM("Ray Serve LLM configs"); err != nil {
		return err
	}
	if err := g.needGPUResource(); err != nil {
		return err
	}
	serve, kwargs, moved, err := g.rayServeConfig()
	if err != nil {
		return err
	}
	kuberay, ray := g.target("kuberay"), g.target("ray")
	if err := g.needs("kuberay", "rayservice-v1"); err != nil {
		return err
	}
	ref, img := g.image("ray-serve", "ray-llm")
	ns := g.ph("NAMESPACE", phName, "the Kubernetes namespace to deploy into (it must exist, and the KubeRay operator must watch it)")
	secret := g.ph("HF_TOKEN_SECRET", phObject, "the name of a Secret in the namespace whose key HF_TOKEN holds a Hugging Face token, for gated checkpoints (kubectl create secret generic NAME --from-literal=HF_TOKEN=hf_...)")
	gpus := strconv.Itoa(g.gpuCount())
	release := g.kb.Product("ray-serve").Release.Tag

	head := Map(
		F("name", Str("ray-head")),
		W("image", Str(ref), g.imageWhy(img)),
		W("ports", List(
			Map(F("containerPort", Int(8000)), F("name", Str("serve")), F("protocol", Str("TCP"))),
			Map(F("containerPort", Int(6379)), F("name", Str("gcs")), F("protocol", Str("TCP"))),
			Map(F("containerPort", Int(8265)), F("name", Str("dashboard")), F("protocol", Str("TCP"))),
			Map(F("containerPort", Int(10001)), F("name", Str("client")), F("protocol", Str("TCP"))),
		), "Serve's HTTP port and Ray's own ports, as KubeRay's LLM sample opens them [source: "+kuberaySampleSrc+"]"),
		W("resources", Map(
			F("limits", Map(F("cpu", Str("2")), F("memory", Str("5Gi")))),
			F("requests", Map(F("cpu", Str("2")), F("memory", Str("4Gi")))),
		), "the head runs Ray's control plane and no model replica: KubeRay's LLM sample's sizes [source: "+kuberaySampleSrc+"]"),
	)
	worker := Map(
		F("name", Str("ray-worker")),
		W("image", Str(ref), "the head's image: head and workers must run the same Ray"),
		W("envFrom", List(Map(F("secretRef", Map(F("name", Str(secret)))))), "HF_TOKEN for gated checkpoints, from a Secret never written into this file"),
		W("resources", Map(
			F("limits", Map(F("nvidia.com/gpu", Str(gpus)))),
			F("requests", Map(F("nvidia.com/gpu", Str(gpus)))),
		), fmt.Sprintf("%s GPUs per worker pod, one replica of the model each: %s. CPU and memory are left to the cluster's defaults: stackpick does not size them", gpus, g.ec.ServersWhy)),
	)
	cluster := Map(
		W("rayVersion", Str(release), "the Ray release the knowledge base targets; it must match the image's Ray"),
		F("headGroupSpec", Map(
			W("rayStartParams", Map(F("num-cpus", Str("0")), F("num-gpus", Str("0"))), "no replica is scheduled on the head [source: "+kuberaySampleSrc+"]"),
			F("template", Map(F("spec", Map(F("containers", List(head)))))),
		)),
		F("workerGroupSpecs", List(Map(
			F("groupName", Str("gpu-group")),
			W("replicas", Int(g.ec.Servers), g.ec.ServersWhy),
			F("minReplicas", Int(g.ec.Servers)),
			F("maxReplicas", Int(g.ec.Servers)),
			W("numOfHosts", Int(1), "one pod per worker: a replica's GPUs sit on one node"),
			W("rayStartParams", Map(F("num-gpus", Str(gpus))), "the GPUs Ray may place replicas on in each worker pod"),
			F("template", Map(F("spec", Map(F("containers", List(worker)))))),
		))),
	)
	doc := Map(
		F("apiVersion", Str("ray.io/v1")),
		F("kind", Str("RayService")),
		F("metadata", Map(
			W("name", Str(k8sName(g.ec.Model)), "named after the model it serves"),
			F("namespace", Str(ns)),
		)),
		F("spec", Map(
			W("serveConfigV2", Block(Document(serve)), "the Serve config, as a YAML document inside the RayService: the same text as serve-config.yaml would hold without Kubernetes"),
			F("rayClusterConfig", cluster),
		)),
	)
	g.finish(File{
		Path:       "rayservice.yaml",
		Kind:       "RayService",
		APIVersion: "ray.io/v1",
		Deploys:    fmt.Sprintf("a Ray cluster on Kubernetes (one head and %s of %s GPUs) running Ray Serve LLM's OpenAI app for %s (kubectl apply -f rayservice.yaml, with the KubeRay operator installed)", workersOf(g.ec.Servers), gpus, g.ec.Model),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"kuberay": kuberay, "ray": ray},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": kwargArgv(kwargs)}, Moved: moved,
	}, "#", YAML(nil, doc))
	return nil
}

// workersOf is n worker pods in words.
func workersOf(n int) string {
	if n == 1 {
		return "one worker"
	}
	return fmt.Sprintf("%d workers", n)
}

// writeRayServe writes the Serve config file alone, for Ray without
// Kubernetes.
func writeRayServe(g *gen) error {
	if err := g.needVLLM("Ray Serve LLM configs"); err != nil {
		return err
	}
	serve, kwargs, moved, err := g.rayServeConfig()
	if err != nil {
		return err
	}
	g.finish(File{
		Path:    "serve-config.yaml",
		Kind:    "Ray Serve config",
		Deploys: fmt.Sprintf("Ray Serve LLM's OpenAI app for %s on a running Ray cluster (serve deploy serve-config.yaml; or serve run serve-config.yaml on this machine)", g.ec.Model),
		Format:  FormatServeConfig,
		Targets: map[string]string{"ray": g.target("ray")},
		Engine:  g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": kwargArgv(kwargs)}, Moved: moved,
	}, "#", YAML(nil, serve))
	return nil
}

// rayServeConfig is the Serve config: one application, Ray Serve LLM's
// OpenAI app, with one LLM config whose engine_kwargs are the launch
// command's flags as vLLM's engine-argument keywords, one for one.
func (g *gen) rayServeConfig() (*Node, []engineKwarg, map[string]string, error) {
	kwargs, err := g.engineKwargs("")
	if err != nil {
		return nil, nil, nil, err
	}
	var moved map[string]string
	_, model := g.ec.Program()
	modelID, idWhy := model, "the name OpenAI clients send: the checkpoint's, as the launch command gives no --served-model-name"
	engine := Map()
	var written []engineKwarg
	for _, k := range kwargs {
		switch k.Key {
		case "model":
			// Ray Serve LLM takes the checkpoint from model_source.
			continue
		case "served_model_name":
			// Ray Serve LLM refuses both keys in engine_kwargs and
			// passes model_id to vLLM as served_model_name itself.
			modelID = strings.Trim(k.Raw, `"`)
			moved = map[string]string{k.Flag.Flag: "model_loading_config.model_id"}
			idWhy = "the name OpenAI clients send: the launch command's --served-model-name, which Ray Serve LLM hands vLLM as served_model_name from here and refuses in engine_kwargs [source: " + rayVLLMModelsSrc + " get_initialization_kwargs]"
			continue
		}
		written = append(written, k)
		engine.Add(W(k.Key, k.yamlNode(), k.why()))
	}
	sourceWhy := "the checkpoint the launch command serves"
	if shape, _ := g.shape(); shape == ShapeRayServe && g.usesHF() {
		sourceWhy += "; a gated checkpoint downloads only with a Hugging Face token: set HF_TOKEN in the environment of every Ray node before it starts (export HF_TOKEN=hf_... then ray start), never written into this file"
	}
	llm := Map(
		W("model_loading_config", Map(
			W("model_id", Str(modelID), idWhy),
			W("model_source", Str(model), sourceWhy),
		), "the model: what clients call it and where its weights come from"),
	)
	if acc, ok := rayAccelerators[g.ec.GPU]; ok {
		llm.Add(W("accelerator_type", Str(acc), fmt.Sprintf("%s: Ray's name for the %s, one Ray Serve LLM runs vLLM on as a GPU [source: %s; %s VLLMEngineConfig.use_gpu]", g.stated("gpu"), g.ec.GPU, rayAccelSrc, rayVLLMModelsSrc)))
	}
	llm.Add(
		W("deployment_config", Map(F("autoscaling_config", Map(
			W("min_replicas", Int(1), "one replica stays up when idle"),
			W("max_replicas", Int(g.ec.Servers), "at most the replicas the fleet holds: "+g.ec.ServersWhy),
		))), "Serve scales the replicas between these bounds on ongoing requests"),
		W("engine_kwargs", engine, g.flagsWhy()+", each flag as vLLM's engine-argument keyword (dashes to underscores) with its value typed"),
	)
	app := Map(
		F("name", Str("llms")),
		W("import_path", Str(RayServeApp), "Ray Serve LLM's OpenAI-compatible app, built from the LLM configs below [source: "+kuberaySampleSrc+"]"),
		F("route_prefix", Str("/")),
		F("args", Map(F("llm_configs", List(llm)))),
	)
	return Map(F("applications", List(app))), written, moved, nil
}

// kwargArgv is the keywords as the argument list they stand for
// (--key value), for the test that compares them with the launch command.
func kwargArgv(kwargs []engineKwarg) []string {
	var out []string
	for _, k := range kwargs {
		if k.Flag.Flag == "" {
			continue
		}
		out = append(out, k.Flag.Flag)
		if k.Flag.Value != "" {
			out = append(out, shellValue(k.Flag.Value))
		}
	}
	return out
}
