package manifest

import (
	"fmt"

	"github.com/stackpick/stackpick/knowledge"
)

var _ = register(ShapeLLMD, writeLLMD)

// The ports llm-d's router uses, as its chart at v0.10.0 sets them.
const (
	eppPort = 9002 // the endpoint picker's ext-proc port (router.epp.extProcPort's default)
)

// writeLLMD writes llm-d alone, as its guides lay it out: the model
// servers (a Deployment, or a DisaggregatedSet when prefill and decode run
// apart), the InferencePool that names them, an InferenceObjective, and
// the values for the router chart, which deploys the endpoint picker.
func writeLLMD(g *gen) error {
	if err := g.needGPUResource(); err != nil {
		return err
	}
	name := g.objectName()
	ref, img := g.engineImage()
	if len(g.ec.Roles) > 0 {
		return g.writeLLMDDisaggregated(name, ref, img)
	}
	port := g.writeModelServerDeployment(name, ref, img)
	g.writeInferencePool(name, port)
	g.writeInferenceObjective(name)
	g.writeRouterValues(name, port)
	return nil
}

// poolLabels are the labels the InferencePool selects the model servers
// by: every server of this model, prefill and decode alike.
func (g *gen) poolLabels() *Node {
	return Map(
		W("llm-d.ai/inference-serving", Str("true"), "the label llm-d's guides give every model-server pod"),
		W("llm-d.ai/model", Str(g.objectName()), "this model's servers, so a second model's pool does not select them"),
	)
}

// podLabels are a model-server pod's labels: the pool's and its role,
// each with its reason (the first time a file writes them) or without.
func (g *gen) podLabels(role string, why bool) *Node {
	if !why {
		return Map(
			F("llm-d.ai/inference-serving", Str("true")),
			F("llm-d.ai/model", Str(g.objectName())),
			F("llm-d.ai/role", Str(roleLabel(role))),
		)
	}
	n := g.poolLabels()
	n.Add(W("llm-d.ai/role", Str(roleLabel(role)), "the label the router's prefill-filter and decode-filter read (llm-d.ai/role: prefill or decode) [source: "+srcRouterRoles+"]"))
	return n
}

// writeModelServerDeployment writes the servers as one apps/v1 Deployment,
// and returns the port they serve on.
func (g *gen) writeModelServerDeployment(name, ref string, img *knowledge.Image) int {
	c := g.engineContainer("", ref, img)
	labels := g.podLabels("", true)
	doc := Map(
		F("apiVersion", Str("apps/v1")),
		F("kind", Str("Deployment")),
		F("metadata", g.metadata(name, labels)),
		F("spec", Map(
			W("replicas", Int(g.ec.Servers), g.ec.ServersWhy+g.otherModels()),
			W("selector", Map(F("matchLabels", g.podLabels("", false))), "the Deployment's own pods, by the labels above"),
			F("template", Map(
				W("metadata", Map(F("labels", g.podLabels("", false))), "the same labels on every pod, which the InferencePool selects"),
				F("spec", g.modelServerPod(c, "")),
			)),
		)),
	)
	g.finish(File{
		Path:       "llm-d/modelserver.yaml",
		Kind:       "Deployment",
		APIVersion: "apps/v1",
		Deploys:    fmt.Sprintf("%s for %s, labelled for llm-d's InferencePool (after the router: %s; then kubectl apply -f llm-d/modelserver.yaml)", g.serversText(), g.ec.Model, g.helmInstall(name)),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"kubernetes": g.target("kubernetes")},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": c.Argv},
	}, "#", YAML(nil, doc))
	return c.Port
}

// modelServerPod is a model server's pod spec, as llm-d's guides write it:
// the program as the command, the model and the flags as the arguments.
// For role "prefill" or "decode" (prefill and decode apart) the engine
// learns its pod's address for NIXL, and a decode pod runs llm-d's
// routing sidecar in front of it.
func (g *gen) modelServerPod(c container, role string) *Node {
	head := commandWords(g.ec)
	ctr := Map(
		F("name", Str("modelserver")),
		W("image", Str(c.Image), g.imageWhy(c.img)+"; llm-d recommends the engines' upstream images [source: "+srcLLMDArtifacts+"]"),
		W("command", Strs(c.Argv[:head]...), "the launch command's program, as llm-d's guides set it"),
		W("args", c.argsNode(c.Argv[head:]), g.flagsWhy()),
	)
	if c.Port > 0 {
		ctr.Add(W("ports", List(Map(
			F("name", Str("modelserver")),
			F("containerPort", Int(c.Port)),
			F("protocol", Str("TCP")),
		)), g.serverPortWhy(c, role)))
	}
	env := List()
	if g.usesHF() {
		env.items = append(env.items, g.hfTokenEnv())
	}
	if role != "" {
		env.items = append(env.items, nixlHostEnv("as llm-d's prefill/decode guide sets it [source: "+srcLLMDPDGuide+"]"))
	}
	if role == "prefill" {
		env.items = append(env.items, Map(
			F("name", Str("VLLM_HTTP_TIMEOUT_KEEP_ALIVE")),
			F("value", Str("120")),
		).Because("seconds vLLM keeps an idle HTTP connection open (5 by default): the decode pods' routing sidecars keep theirs to prefill servers for 90 (Go's http.Transport default) and would reuse connections the server had closed; llm-d's prefill/decode guide sets 120 for this [source: "+srcLLMDPDMain+"]"))
	}
	if len(env.items) > 0 {
		ctr.Add(F("env", env))
	}
	if res := g.gpuResources(); res != nil {
		ctr.Add(F("resources", res))
	}
	if c.Port > 0 {
		health := c.Health
		if health == "" {
			health = "/health"
		}
		probe := func(path string, extra ...*Field) *Node {
			fs := append([]*Field{F("httpGet", Map(F("path", Str(path)), F("port", Str("modelserver"))))}, extra...)
			return Map(fs...)
		}
		ctr.Add(
			W("startupProbe", probe("/v1/models", F("initialDelaySeconds", Int(15)), F("periodSeconds", Int(30)), F("timeoutSeconds", Int(5)), F("failureThreshold", Int(120))),
				"up to an hour to download and load the weights before the pod counts as failed; /v1/models answers once the model is loaded [source: "+srcLLMDDeployment+"]"),
			W("readinessProbe", probe("/v1/models", F("periodSeconds", Int(5)), F("timeoutSeconds", Int(2)), F("failureThreshold", Int(3))), "the pool routes to the pod only while the model answers"),
			W("livenessProbe", probe(health, F("periodSeconds", Int(10)), F("timeoutSeconds", Int(5)), F("failureThreshold", Int(3))), "restarted when "+health+" stops answering"),
		)
	}
	mounts := List(Map(F("name", Str("shm")), F("mountPath", Str("/dev/shm"))).Because("shared memory for the engine's worker processes (NCCL between tensor-parallel ranks) [source: " + srcLLMDGuide + "]"))
	vols := List(Map(F("name", Str("shm")), F("emptyDir", Map(F("medium", Str("Memory")), F("sizeLimit", Str("20Gi"))))).Because("the size llm-d's guide gives /dev/shm [source: " + srcLLMDGuide + "]"))
	if c.Cache != "" {
		mounts.items = append(mounts.items, Map(F("name", Str("model-cache")), F("mountPath", Str(c.Cache))).Because("where the engine keeps downloaded weights"))
		vols.items = append(vols.items, Map(F("name", Str("model-cache")), F("emptyDir", Map())).Because("weights download again when a pod moves; make this a PersistentVolumeClaim to keep them"))
	}
	ctr.Add(F("volumeMounts", mounts))
	pod := Map()
	if role == "decode" {
		pod.Add(W("initContainers", List(g.routingSidecar(c.Port)), "llm-d's routing sidecar, as a native sidecar (an init container that keeps running: restartPolicy Always, Kubernetes 1.29 and later), the way llm-d's prefill/decode guide runs it [source: "+srcLLMDPDGuide+"]"))
	}
	pod.Add(F("containers", List(ctr)))
	pod.Add(F("volumes", vols))
	return pod
}

// writeInferencePool writes the pool the router routes over: the servers'
// labels and port, and the endpoint picker the router chart deploys.
func (g *gen) writeInferencePool(name string, port int) {
	version := g.target("gaie")
	doc := Map(
		W("apiVersion", Str("inference.networking.k8s.io/v1"), "the Gateway API Inference Extension's InferencePool, written for "+version),
		F("kind", Str("InferencePool")),
		F("metadata", Map(
			W("name", Str(name), "the router chart's release name: the chart names the pool after its release, and its endpoint picker watches that pool (--pool-name {{ .Release.Name }}) [source: "+srcRouterChart+"/templates/_inferencepool.yaml, _deployment.yaml]"),
			F("namespace", Str(g.namespace())),
		)),
		F("spec", Map(
			W("selector", Map(F("matchLabels", g.poolLabels())), "every server of this model (llm-d/modelserver.yaml labels its pods so)"),
			W("targetPorts", List(Map(F("number", Int(port)))), g.poolPortWhy()),
			W("appProtocol", Str("http"), "HTTP/1.1 to the servers: the chart writes it from router.modelServers.protocol, http by default"),
			W("endpointPickerRef", Map(
				W("name", Str(name+"-epp"), "the Service the router chart names after its release ({{ .Release.Name }}-epp) [source: "+srcRouterChart+"/templates/_helpers.tpl]"),
				W("port", Map(F("number", Int(eppPort))), "the endpoint picker's ext-proc port, the chart's default (router.epp.extProcPort)"),
				W("failureMode", Str("FailOpen"), "the chart's and llm-d's guides' choice: requests still reach a server when the picker is down"),
			), "the llm-d router (endpoint picker) that picks a server for each request"),
		)),
	)
	g.finish(File{
		Path:       "llm-d/rendered-by-the-chart/inferencepool.yaml",
		Kind:       "InferencePool",
		APIVersion: "inference.networking.k8s.io/v1",
		Deploys:    fmt.Sprintf("the pool of %s servers llm-d's router routes over; %s", g.ec.Model, renderedNote),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"gaie": version},
	}, "#", YAML(nil, doc))
}

// writeInferenceObjective writes the objective requests to this model
// name: priority 0, the one every request has without one.
func (g *gen) writeInferenceObjective(name string) {
	version := g.target("llm-d")
	why := "0, the priority a request has when it names no objective: the answers give no tenant precedence over another; raise it (negative values allowed) for traffic to serve first when requests queue"
	if n := g.d.Answers.Get("tenants").Int; n > 1 {
		why += fmt.Sprintf(" (for the %d tenants you answered, write one objective each and have clients send its name)", n)
	}
	doc := Map(
		W("apiVersion", Str("llm-d.ai/v1alpha2"), "InferenceObjective moved from the Gateway API Inference Extension to llm-d's router; written for llm-d "+version),
		F("kind", Str("InferenceObjective")),
		F("metadata", Map(
			W("name", Str(name), "router.inferenceObjectives[0].name in llm-d/router-values.yaml; clients send it in the x-llm-d-inference-objective header to be served under this objective"),
			F("namespace", Str(g.namespace())),
		)),
		F("spec", Map(
			W("priority", Int(0), why+" [source: llm-d/llm-d-router@71f4f099 (v0.10.0) config/crd/bases/llm-d.ai_inferenceobjectives.yaml]"),
			W("poolRef", Map(
				F("group", Str("inference.networking.k8s.io")),
				F("name", Str(name)),
			), "the InferencePool in llm-d/rendered-by-the-chart/inferencepool.yaml"),
		)),
	)
	g.finish(File{
		Path:       "llm-d/rendered-by-the-chart/inferenceobjective.yaml",
		Kind:       "InferenceObjective",
		APIVersion: "llm-d.ai/v1alpha2",
		Deploys:    "the serving objective (priority) of requests to the pool; " + renderedNote,
		Format:     FormatKubernetes,
		Targets:    map[string]string{"llm-d": version},
	}, "#", YAML(nil, doc))
}

// writeRouterValues writes the values file for llm-d's router chart,
// which deploys the endpoint picker and its proxy, and renders the
// InferencePool and InferenceObjective of llm-d/rendered-by-the-chart/inferencepool.yaml and
// llm-d/rendered-by-the-chart/inferenceobjective.yaml from these values.
func (g *gen) writeRouterValues(name string, port int) {
	version := g.target("llm-d")
	servers := Map(
		W("matchLabels", g.poolLabels(), "the labels of the servers in llm-d/modelserver.yaml: the chart's InferencePool selects them (llm-d/rendered-by-the-chart/inferencepool.yaml is the pool it renders)"),
		W("targetPorts", List(Map(F("number", Int(port)))), g.poolPortWhy()),
	)
	if g.ec.Engine == "sglang" {
		servers.Add(W("type", Str("sglang"), "the chart reads each model server's metrics by its type (vllm by default)"))
	}
	router := Map(
		W("modelServers", servers, "the model servers the endpoint picker routes to"),
		W("inferenceObjectives", List(Map(
			F("name", Str(name)),
			F("priority", Int(0)),
		)), "the InferenceObjective the chart renders beside the pool (llm-d/rendered-by-the-chart/inferenceobjective.yaml is that object)"),
	)
	why := "the values of llm-d's llm-d-router-standalone chart (keys under router: are its routerlib values); the endpoint picker keeps the chart's default-plugins.yaml, which scores servers by queue, KV-cache use and prefix-cache hits (prefix-cache-scorer, weight 3)"
	if len(g.ec.Roles) > 0 {
		why = "the values of llm-d's llm-d-router-standalone chart (keys under router: are its routerlib values), with the endpoint picker's prefill/decode configuration"
		router.Add(W("epp", Map(
			W("pluginsConfigFile", Str(eppPDConfigFile), "the configuration the endpoint picker starts with (--config-file /config/"+eppPDConfigFile+"), instead of the chart's default-plugins.yaml [source: "+srcRouterChart+"/templates/_deployment.yaml]"),
			W("pluginsCustomConfig", Map(F(eppPDConfigFile, Block(eppPDConfig))), "added to the chart's ConfigMap beside its own files [source: "+srcRouterChart+"/templates/_config.yaml]. The plugins are those of llm-d-router v0.10.0's own prefill/decode sample (deploy/config/pd-epp-config.yaml, in its apiVersion llm-d.ai/v1alpha1, the one v0.10.0 loads), the producer at its defaults, with always-disagg-pd-decider for the sample's prefix-based-pd-decider: every request is prefilled on a prefill server, then decoded on a decode server, each picked by prefix-cache hits (weight 2) and queue depth (weight 1) among the pods of its llm-d.ai/role, as the decision runs them ("+g.stated("disaggregation")+"). The sample's decider decodes in place a request whose uncached prompt is shorter than its nonCachedTokens (16 there): switch to it when short or well-cached prompts dominate"),
		), "the endpoint picker"))
	}
	if g.answer("cache_aware_routing") == "true" {
		why += ", the cache-aware routing " + g.stated("cache_aware_routing") + " asks for"
	}
	doc := Map(W("router", router, why+" [source: "+srcRouterChart+"/values.yaml, templates/_config.yaml]"))
	g.finish(File{
		Path:    "llm-d/router-values.yaml",
		Kind:    "llm-d router chart values",
		Deploys: fmt.Sprintf("llm-d's router for %s through its Helm chart: the endpoint picker, its Envoy proxy, and the InferencePool and InferenceObjective beside them (%s)", g.ec.Model, g.helmInstall(name)),
		Format:  FormatHelmValues,
		Targets: map[string]string{"llm-d": version},
	}, "#", YAML(g.llmdSteps(name), doc))
}

// llmdSteps are the commands that deploy the llm-d files, in order.
func (g *gen) llmdSteps(name string) []string {
	steps := []string{
		"To deploy, in this order (the first two once per cluster):",
		fmt.Sprintf("  kubectl apply -k 'https://github.com/llm-d/llm-d-router/config/crd?ref=%s'   (llm-d's InferenceObjective and InferenceModelRewrite CRDs, and GAIE's InferencePool CRD at the version that llm-d-router release pins) [source: llm-d/llm-d-router@71f4f099 (v0.10.0) config/crd/kustomization.yaml, deploy/components/crds-gie/kustomization.yaml]", g.target("llm-d")),
		fmt.Sprintf("  kubectl apply -f https://github.com/kubernetes-sigs/gateway-api-inference-extension/releases/download/%s/v1-manifests.yaml   (the InferencePool CRD at %s, the version the pool is written for, applied second so it replaces the one the step before installs)", g.target("gaie"), g.target("gaie")),
	}
	if len(g.ec.Roles) > 0 {
		steps[0] = "To deploy, in this order (the first three once per cluster):"
		steps = append(steps,
			fmt.Sprintf("  kubectl apply --server-side -f https://github.com/kubernetes-sigs/lws/releases/download/%s/manifests.yaml   (LeaderWorkerSet, whose release manifests include the DisaggregatedSet CRD, controller and webhook since v0.9.0) [source: kubernetes-sigs/lws@2161f38f (v0.10.0) site/content/en/docs/installation/_index.md]", g.target("lws")),
			"  kubectl wait deploy/lws-controller-manager -n lws-system --for=condition=available --timeout=5m   (its webhook must answer before a DisaggregatedSet is applied)")
	}
	steps = append(steps, "  kubectl create namespace "+g.namespace()+"   (unless it exists)")
	if g.usesHF() {
		steps = append(steps, "  kubectl create secret generic "+g.hfSecret()+" -n "+g.namespace()+" --from-literal=HF_TOKEN=hf_...   (a Hugging Face token, for gated checkpoints; unless it exists)")
	}
	return append(steps,
		"  "+g.helmInstall(name),
		"  kubectl apply -n "+g.namespace()+" -f llm-d/modelserver.yaml",
		fmt.Sprintf("The release name, %s, is the InferencePool's name: the router's endpoint picker watches the pool named after its release. llm-d's guides install --version v0 (the newest 0.x); %s is the release these values are checked against.", name, g.target("llm-d")),
	)
}

// helmInstall is the command that installs llm-d's router chart with the
// values file: the release name is the pool's name.
func (g *gen) helmInstall(name string) string {
	return fmt.Sprintf("helm install %s oci://ghcr.io/llm-d/charts/llm-d-router-standalone --version %s -n %s -f llm-d/router-values.yaml", name, g.target("llm-d"), g.namespace())
}

// renderedNote says of a file that the router chart creates its object.
const renderedNote = "the router chart creates it from llm-d/router-values.yaml (helm install ... -f llm-d/router-values.yaml), and stackpick writes it out so its schema is checked: applying it with kubectl as well would take it from Helm's ownership"

// writeLLMDDisaggregated writes llm-d alone with prefill and decode
// apart, as llm-d's prefill/decode guide lays it out: both roles in one
// LWS DisaggregatedSet, llm-d's routing sidecar on each decode pod in
// front of the decode server (which the launch command puts on the port
// the sidecar forwards to), the InferencePool over both roles, the
// InferenceObjective, and router values whose endpoint picker sends each
// request to a prefill server and then a decode server.
func (g *gen) writeLLMDDisaggregated(name, ref string, img *knowledge.Image) error {
	roles := g.k8sRoles()
	if len(roles) != 2 || roles[0].Name != "prefill" || roles[1].Name != "decode" {
		missing("prefill and decode roles, not %v", roles)
	}
	_, sidecar := g.image("llm-d", sidecarImage)
	pre := g.engineContainer("prefill", ref, img)
	dec := g.engineContainer("decode", ref, img)
	if dec.Port == sidecar.Port || pre.Port != sidecar.Port {
		return &NotCoveredError{Why: fmt.Sprintf("stackpick writes llm-d's prefill/decode files only when the decode command serves on a port of its own behind llm-d's routing sidecar (which takes the pod's port, %d) and the prefill servers on that port: the %s command here serves decode on %d and prefill on %d (the knowledge base records no port flag of %s for the decode command to take). With KServe in the stack, its LLMInferenceService runs these prefill and decode commands itself", sidecar.Port, g.kb.ProductName(g.ec.Engine), dec.Port, pre.Port, g.kb.ProductName(g.ec.Engine))}
	}
	if err := g.needs("lws", "disaggregatedset"); err != nil {
		return err
	}
	if err := g.needs("llm-d", "disagg-sidecar-model-server-port"); err != nil {
		return err
	}
	lws := g.target("lws")
	role := func(r k8sRole, c container) *Node {
		return Map(
			W("name", Str(r.Name), "the role's name: the DisaggregatedSet labels its pods disaggregatedset.x-k8s.io/role with it"),
			F("spec", Map(
				W("replicas", Int(r.Instances), g.replicasWhy(r)),
				F("leaderWorkerTemplate", Map(
					W("size", Int(1), fmt.Sprintf("one pod per group: a server takes %d GPUs, inside one node", g.gpuCount())),
					F("workerTemplate", Map(
						W("metadata", Map(F("labels", g.podLabels(r.Name, r.Name == "prefill"))), "the labels the InferencePool selects, and llm-d.ai/role, by which the router's prefill-filter and decode-filter tell the roles apart"),
						F("spec", g.modelServerPod(c, r.Name)),
					)),
				)),
			)),
		)
	}
	doc := Map(
		W("apiVersion", Str("disaggregatedset.x-k8s.io/v1"), "LeaderWorkerSet's DisaggregatedSet, written for LWS "+lws+"; llm-d's prefill/decode guide also sets groupIdentity, which no LWS release has yet (its CRD would refuse it), so it is left out [source: "+srcLWSSkew+"]"),
		F("kind", Str("DisaggregatedSet")),
		F("metadata", g.metadata(name, g.poolLabels())),
		W("spec", Map(W("roles", List(role(roles[0], pre), role(roles[1], dec)), "")), "prefill and decode servers as the two roles of one set, rolled out and scaled together; no slices field (LWS v0.10.0 defaults it to one copy of the roles, and v0.9.0 has none)"),
	)
	g.finish(File{
		Path:       "llm-d/modelserver.yaml",
		Kind:       "DisaggregatedSet",
		APIVersion: "disaggregatedset.x-k8s.io/v1",
		Deploys:    fmt.Sprintf("%s for %s as one LWS DisaggregatedSet, a routing sidecar on each decode pod, labelled for llm-d's InferencePool (after LWS and the router: %s; then kubectl apply -f llm-d/modelserver.yaml)", g.serversText(), g.ec.Model, g.helmInstall(name)),
		Format:     FormatKubernetes,
		Targets:    map[string]string{"lws": lws},
		Engine:     g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"prefill": pre.Argv, "decode": dec.Argv},
	}, "#", YAML(nil, doc))
	g.writeInferencePool(name, pre.Port)
	g.writeInferenceObjective(name)
	g.writeRouterValues(name, pre.Port)
	return nil
}

// sidecarImage is llm-d's image record of its P/D routing sidecar.
const sidecarImage = "disagg-sidecar"

// srcLLMDPDGuide is llm-d's prefill/decode guide's model-server manifest;
// srcSidecarOptions the sidecar's flags at the router release written for.
const (
	srcLLMDPDGuide    = "llm-d/llm-d@4e09d808 guides/pd-disaggregation/modelserver/gpu/vllm-ds/disaggregatedset.yaml"
	srcLLMDPDMain     = "llm-d/llm-d@5e758d87 guides/pd-disaggregation/modelserver/gpu/vllm/base/disaggregatedset.yaml"
	srcSidecarOptions = "llm-d/llm-d-router@71f4f099 (v0.10.0) pkg/sidecar/proxy/options.go"
)

// routingSidecar is llm-d's routing sidecar for a decode pod whose server
// listens on serverPort: it takes the pod's serving port, has a prefill
// server (which the endpoint picker names in a header) compute the
// prompt's KV cache, then forwards the request to the decode server.
func (g *gen) routingSidecar(serverPort int) *Node {
	ref, img := g.image("llm-d", sidecarImage)
	return Map(
		F("name", Str("routing-proxy")),
		W("image", Str(ref), g.imageWhy(img)+"; its flags below were read at the same release"),
		W("args", List(
			Str(fmt.Sprintf("--port=%d", img.Port)).Because("the port the sidecar listens on: the pod's serving port, which the InferencePool targets (the prefill servers serve on it too) [source: "+srcSidecarOptions+`: defaultPort = "8000"]`),
			Str(fmt.Sprintf("--model-server-port=%d", serverPort)).Because("where it forwards: the decode server's --port in the launch command"),
			Str("--kv-connector=nixlv2").Because("the sidecar's protocol for NIXL, which the engines' --kv-transfer-config names (NixlConnector); nixlv2 is its default, written so it is read here [source: llm-d/llm-d-router@71f4f099 (v0.10.0) pkg/sidecar/constants/constants.go]"),
			Str("--secure-proxy=false").Because("plain HTTP, which the InferencePool's appProtocol says the pods serve: the sidecar otherwise serves TLS with a self-signed certificate (secure-proxy, default true) [source: "+srcSidecarOptions+"]"),
		), "the sidecar's entrypoint (/app/pd-sidecar) takes these flags"),
		W("ports", List(Map(
			F("name", Str("sidecar")),
			F("containerPort", Int(img.Port)),
			F("protocol", Str("TCP")),
		)), "the port the pool's requests arrive on"),
		W("restartPolicy", Str("Always"), "a native sidecar: started before the server and kept running beside it"),
	)
}

// eppPDConfigFile names the endpoint picker's prefill/decode configuration
// in the router chart's ConfigMap, and eppPDConfig is it: llm-d-router
// v0.10.0's deploy/config/pd-epp-config.yaml plugins, deciding with
// always-disagg-pd-decider (prefill and decode apart for every request,
// as the decision runs them) and without the sample's tuning parameters.
const eppPDConfigFile = "pd-config.yaml"

const eppPDConfig = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: approx-prefix-cache-producer
- type: prefix-cache-scorer
- type: queue-scorer
- type: prefill-filter
- type: decode-filter
- type: max-score-picker
- type: always-disagg-pd-decider
- type: disagg-profile-handler
  parameters:
    deciders:
      prefill: always-disagg-pd-decider
schedulingProfiles:
- name: prefill
  plugins:
  - pluginRef: prefill-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
  - pluginRef: queue-scorer
    weight: 1
- name: decode
  plugins:
  - pluginRef: decode-filter
  - pluginRef: max-score-picker
  - pluginRef: prefix-cache-scorer
    weight: 2
  - pluginRef: queue-scorer
    weight: 1
`

// serverPortWhy says what a model server's port is for: the pool's target,
// or, on a decode pod behind llm-d's routing sidecar, where the sidecar
// forwards.
func (g *gen) serverPortWhy(c container, role string) string {
	if role == "decode" {
		return fmt.Sprintf("the port the server listens on (%s), where the routing sidecar forwards; the InferencePool targets the sidecar's port in front of it", portWhy(c))
	}
	return fmt.Sprintf("the port the server listens on (%s), which the InferencePool's targetPorts name", portWhy(c))
}

// poolPortWhy says what the pool's target port is.
func (g *gen) poolPortWhy() string {
	if len(g.ec.Roles) > 0 {
		return "the port every server pod serves on: the prefill servers' own, and on decode pods the routing sidecar's"
	}
	return "the servers' port"
}
