package manifest

import (
	"fmt"
	"strings"
)

// What the Kubernetes writers (KServe, llm-d) share: object names, the
// namespace, the model server's GPU request, its Hugging Face token, and
// the split of the launch command into the program, the model and the
// flags.

// Sources the Kubernetes writers cite in the files' comments, each read at
// the release the file is written for.
const (
	srcLLMDGuide        = "llm-d/llm-d@05b03f75 guides/optimized-baseline/modelserver/gpu/vllm/base/patch-vllm.yaml"
	srcLLMDDeployment   = "llm-d/llm-d@ae9f98f1 guides/optimized-baseline/modelserver/gpu/vllm/vllm-deployment.yaml"
	srcLLMDArtifacts    = "llm-d/llm-d@1128ecf6 docs/api-reference/artifacts.md"
	srcRouterChart      = "llm-d/llm-d-router@71f4f099 (v0.10.0) config/charts/routerlib"
	srcRouterRoles      = "llm-d/llm-d-router@71f4f099 (v0.10.0) pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go"
	srcKServeTemplate   = "kserve/kserve@1fb78105 (v0.20.0) config/llmisvcconfig/config-llm-template.yaml"
	srcKServeDecode     = "kserve/kserve@01b12410 config/llmisvcconfig/config-llm-decode-template.yaml"
	srcKServeSched      = "kserve/kserve@1fb78105 (v0.20.0) pkg/controller/v1alpha2/llmisvc/scheduler.go"
	srcKServeStorage    = "kserve/kserve@1fb78105 (v0.20.0) pkg/controller/v1alpha2/llmisvc/workload_storage.go"
	srcKServeRuntime    = "kserve/kserve@1fb78105 (v0.20.0) config/runtimes/kserve-vllmserver.yaml"
	srcKServeMerge      = "kserve/kserve@1fb78105 (v0.20.0) pkg/controller/v1beta1/inferenceservice/utils/utils.go MergeRuntimeContainers"
	srcKServeMergeSpecs = "kserve/kserve@00bd5d06 pkg/controller/v1alpha2/llmisvc/config_merge.go mergeSpecs"
	srcLWSSkew          = "kubernetes-sigs/lws v0.10.0 config/crd/bases/disaggregatedset.x-k8s.io_disaggregatedsets.yaml (no groupIdentity)"
)

// objectName is the name the files give their objects: the model's id as
// a Kubernetes name (lower case, dots and other marks as '-').
func (g *gen) objectName() string {
	var b strings.Builder
	for _, r := range strings.ToLower(g.ec.Model) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "model"
	}
	return s
}

// namespace is the namespace placeholder every Kubernetes object names.
func (g *gen) namespace() string {
	return g.ph("NAMESPACE", phName, "the Kubernetes namespace the objects go into (it must exist: kubectl create namespace NAME)")
}

// metadata is an object's metadata: its name, the namespace and labels.
func (g *gen) metadata(name string, labels *Node) *Node {
	md := Map(
		W("name", Str(name), "named after the model it serves, "+g.ec.Model),
		F("namespace", Str(g.namespace())),
	)
	if labels != nil {
		md.Add(F("labels", labels))
	}
	return md
}

// gpuResource is the extended resource a pod asks for GPUs by, for the
// answered GPU vendor; "" when stackpick writes no GPU request for it.
func (g *gen) gpuResource() string {
	if g.answer("gpu_vendor") == "nvidia" {
		return "nvidia.com/gpu"
	}
	return ""
}

// needGPUResource fails when the answers name GPUs stackpick cannot ask
// a Kubernetes pod for.
func (g *gen) needGPUResource() error {
	if g.gpuCount() > 0 && g.gpuResource() == "" {
		return &NotCoveredError{Why: fmt.Sprintf("stackpick writes Kubernetes GPU requests for NVIDIA GPUs only (nvidia.com/gpu), and these answers name %s: the memo's launch command is what to run", g.accelerators())}
	}
	return nil
}

// accelerators names the answered accelerators in words: "amd
// accelerators (mi300x)".
func (g *gen) accelerators() string {
	return fmt.Sprintf("%s accelerators (%s)", g.answer("gpu_vendor"), g.answer("gpu"))
}

// needContainerGPU fails when the answers name accelerators a container
// on this host cannot be given: stackpick reserves GPUs for a container
// through the NVIDIA Container Toolkit only, and the published images it
// writes are CUDA builds.
func (g *gen) needContainerGPU() error {
	if g.gpuCount() == 0 || g.answer("gpu_vendor") == "nvidia" {
		return nil
	}
	why := fmt.Sprintf("stackpick writes container GPU access for NVIDIA GPUs only (Compose's nvidia device reservation, docker run --gpus, CUDA images), and these answers name %s, whose container images and device setup the knowledge base has no record of: ", g.accelerators())
	if g.answer("gpu_vendor") == "apple" {
		why += "run the memo's launch command natively on the Mac"
	} else {
		why += "run the memo's launch command on the host, or in the vendor's own image with its devices"
	}
	return &NotCoveredError{Why: why}
}

// gpuResources is a container's resources: the GPUs of one server, asked
// for as both request and limit (a device plugin's resource must be equal
// in both). nil when the server takes no GPU.
func (g *gen) gpuResources() *Node {
	n := g.gpuCount()
	res := g.gpuResource()
	if n == 0 || res == "" {
		return nil
	}
	return Map(
		W("limits", Map(F(res, Int(n))), fmt.Sprintf("%d GPUs for one server: %s", n, g.ec.ServersWhy)),
		F("requests", Map(F(res, Int(n)))),
	)
}

// hfTokenEnv is the environment variable that hands the engine a Hugging
// Face token from a Secret, for gated checkpoints.
func (g *gen) hfTokenEnv() *Node {
	secret := g.hfSecret()
	return Map(
		F("name", Str("HF_TOKEN")),
		F("valueFrom", Map(F("secretKeyRef", Map(
			F("name", Str(secret)),
			F("key", Str("HF_TOKEN")),
		)))),
	).Because("a Hugging Face token for gated checkpoints, read from a Secret, never written here [source: " + srcLLMDGuide + "]")
}

// hfSecret is the placeholder of the Secret holding a Hugging Face token.
func (g *gen) hfSecret() string {
	return g.ph("HF_TOKEN_SECRET", phObject, fmt.Sprintf("the name of a Secret in the namespace whose key HF_TOKEN holds a Hugging Face token that may download %s (kubectl create secret generic NAME --from-literal=HF_TOKEN=...); llm-d's guides call it llm-d-hf-token", g.ec.HFID))
}

// commandHead is how many words of role's Argv come before the flags: the
// program's words and, when the program takes it, the model.
func (g *gen) commandHead() int {
	_, model := g.ec.Program()
	n := commandWords(g.ec)
	if model != "" {
		n++
	}
	return n
}

// roles are the roles the fleet runs, each with its instance count: one
// role "" with every server when prefill and decode are not apart.
type k8sRole struct {
	Name      string
	Instances int
	Why       string
}

func (g *gen) k8sRoles() []k8sRole {
	if len(g.ec.Roles) == 0 {
		return []k8sRole{{Instances: g.ec.Servers, Why: g.ec.ServersWhy}}
	}
	var out []k8sRole
	for _, r := range g.ec.Roles {
		why := r.Split
		if why == "" {
			why = "one instance of this role (stackpick does not size the split)"
		}
		n := r.Instances
		if n == 0 {
			n = 1
		}
		out = append(out, k8sRole{Name: r.Role, Instances: n, Why: why})
	}
	return out
}

// roleLabel is llm-d's label value for a role: what the router's
// prefill-filter and decode-filter select pods by ("decode" for a pod that
// does both when prefill and decode are not apart, as llm-d's guides
// label it).
func roleLabel(role string) string {
	if role == "" {
		return "decode"
	}
	return role
}

// otherModels says, for a fleet of several checkpoints, that these files
// deploy one of them.
func (g *gen) otherModels() string {
	n := g.d.Answers.Get("base_models").Int
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf("; these files deploy %s, one of the %d checkpoints you answered (base_models): write the others' files from their own answers", g.ec.Model, n)
}

// kserveSchemaNote says which KServe release the file is written for when
// the knowledge base targets a newer one than stackpick vendors a schema of.
func (g *gen) kserveSchemaNote(version string) string {
	s := "written for KServe " + version + ", a release whose CRD stackpick vendors and checks against"
	if t := g.kb.Target("kserve"); t != nil && t.Default() == version {
		s = "written for KServe " + version + ", the newest release whose CRD stackpick vendors and checks against"
	}
	if p := g.kb.Product("kserve"); p != nil && p.Release.Tag != "" && p.Release.Tag != version {
		s += fmt.Sprintf("; the knowledge base targets KServe %s, whose CRD is not vendored (its files were not in the sources read), so review the release notes before applying this on %s", p.Release.Tag, p.Release.Tag)
	}
	return s
}

// nixlHostEnv sets VLLM_NIXL_SIDE_CHANNEL_HOST to the pod's IP: the
// address a prefill server's NIXL side channel gives decode servers to
// reach it, "localhost" unless set (vLLM's docs: set it when prefiller and
// decoder are on different machines, as pods of two roles are). how says
// whose layout does the same.
func nixlHostEnv(how string) *Node {
	return Map(
		F("name", Str("VLLM_NIXL_SIDE_CHANNEL_HOST")),
		F("valueFrom", Map(F("fieldRef", Map(F("fieldPath", Str("status.podIP")))))),
	).Because("the address NIXL's side channel gives the other role's servers to reach this one: the pod's own IP, since prefill and decode pods run on different nodes (vLLM defaults it to localhost) [source: " + srcVLLMNixl + "], " + how)
}

// srcVLLMNixl is vLLM's NIXL connector guide.
const srcVLLMNixl = "vllm-project/vllm@026c83f9 docs/features/nixl_connector_usage.md"
