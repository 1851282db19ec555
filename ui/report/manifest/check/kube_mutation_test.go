package check

import (
	"strings"
	"testing"
)

// mutations break a good fixture in one place each; every one must be
// rejected with a Problem at (or under) the path, whose message names
// what is wrong. Per kind: an unknown key, a wrong type, a bad enum, an
// out-of-range value, and a CEL violation where the CRD has CEL rules
// (InferenceService, InferenceObjective and LeaderWorkerSet have none;
// InferenceObjective has no enum either, so a pattern stands in).
var mutations = []struct {
	name     string
	file     string
	v        Versions
	path     string // where to change the fixture
	value    any    // deleteMe deletes it
	wantPath string // a Problem's Path must be this
	wantMsg  string // and its Message contain this
}{
	// LLMInferenceService serving.kserve.io/v1alpha2
	{"llmisvc unknown key", "llminferenceservice.yaml", kserve20, "/spec/replica", 1, "/spec", "'replica'"},
	{"llmisvc unknown key at the top", "llminferenceservice.yaml", kserve20, "/spex", map[string]any{}, "", "'spex'"},
	{"llmisvc unknown key in the container", "llminferenceservice.yaml", kserve20, "/spec/template/containers/0/argz", []any{"x"}, "/spec/template/containers/0", "'argz'"},
	{"llmisvc wrong type", "llminferenceservice.yaml", kserve20, "/spec/replicas", "one", "/spec/replicas", "want integer"},
	{"llmisvc wrong type of the model", "llminferenceservice.yaml", kserve20, "/spec/model", "hf://Qwen/Qwen3-8B", "/spec/model", "want object"},
	{"llmisvc bad enum", "llminferenceservice.yaml", kserve20, "/spec/kvCacheOffloading", map[string]any{"cpu": "10Gi", "evictionPolicy": "fifo"}, "/spec/kvCacheOffloading/evictionPolicy", "must be"},
	{"llmisvc out of range", "llminferenceservice.yaml", kserve20, "/spec/replicas", -1, "/spec/replicas", "minimum"},
	{"llmisvc out of range tensor parallelism", "llminferenceservice.yaml", kserve20, "/spec/parallelism", map[string]any{"tensor": 0}, "/spec/parallelism/tensor", "minimum"},
	{"llmisvc required model uri", "llminferenceservice.yaml", kserve20, "/spec/model/uri", deleteMe, "/spec/model", "uri"},
	{"llmisvc CEL replicas and scaling", "llminferenceservice.yaml", kserve20, "/spec/scaling", map[string]any{"minReplicas": 3, "maxReplicas": 2}, "/spec", "mutually exclusive"},
	{"llmisvc CEL minReplicas above maxReplicas", "llminferenceservice.yaml", kserve20, "/spec/scaling", map[string]any{"minReplicas": 3, "maxReplicas": 2}, "/spec/scaling", "minReplicas cannot exceed maxReplicas"},
	{"llmisvc CEL wva needs hpa or keda", "llminferenceservice.yaml", kserve20, "/spec/prefill", map[string]any{"scaling": map[string]any{"maxReplicas": 2, "wva": map[string]any{}}}, "/spec/prefill/scaling/wva", "hpa"},
	{"llmisvc at v0.19.0: kvCacheOffloading", "llminferenceservice.yaml", kserve19, "/spec/kvCacheOffloading", map[string]any{"cpu": "10Gi"}, "/spec", "'kvCacheOffloading'"},

	// InferenceService serving.kserve.io/v1beta1 (no CEL rules)
	{"isvc unknown key", "inferenceservice.yaml", kserve20, "/spec/predictor/modle", map[string]any{}, "/spec/predictor", "'modle'"},
	{"isvc wrong type", "inferenceservice.yaml", kserve20, "/spec/predictor/minReplicas", "1", "/spec/predictor/minReplicas", "want integer"},
	{"isvc bad enum", "inferenceservice.yaml", kserve20, "/spec/predictor/scaleMetric", "gpu", "/spec/predictor/scaleMetric", "must be"},
	{"isvc out of range", "inferenceservice.yaml", kserve20, "/spec/canary", []any{map[string]any{"trafficPercent": 101}}, "/spec/canary/0/trafficPercent", "maximum"},
	{"isvc required predictor", "inferenceservice.yaml", kserve20, "/spec/predictor", deleteMe, "/spec", "predictor"},
	{"isvc at v0.19.0: canary", "inferenceservice.yaml", kserve19, "/spec/canary", []any{map[string]any{"trafficPercent": 10}}, "/spec", "'canary'"},

	// InferencePool inference.networking.k8s.io/v1
	{"pool unknown key", "inferencepool.yaml", gaie16, "/spec/targetPort", []any{}, "/spec", "'targetPort'"},
	{"pool wrong type", "inferencepool.yaml", gaie16, "/spec/targetPorts/0/number", "8000", "/spec/targetPorts/0/number", "want integer"},
	{"pool bad enum", "inferencepool.yaml", gaie16, "/spec/endpointPickerRef/failureMode", "FailSoft", "/spec/endpointPickerRef/failureMode", "must be"},
	{"pool out of range port", "inferencepool.yaml", gaie16, "/spec/targetPorts/0/number", 80000, "/spec/targetPorts/0/number", "maximum"},
	{"pool too many ports", "inferencepool.yaml", gaie16, "/spec/targetPorts", []any{map[string]any{"number": 1}, map[string]any{"number": 2}, map[string]any{"number": 3}, map[string]any{"number": 4}, map[string]any{"number": 5}, map[string]any{"number": 6}, map[string]any{"number": 7}, map[string]any{"number": 8}, map[string]any{"number": 9}}, "/spec/targetPorts", "maxItems"},
	{"pool CEL unique ports", "inferencepool.yaml", gaie16, "/spec/targetPorts", []any{map[string]any{"number": 8000}, map[string]any{"number": 8000}}, "/spec/targetPorts", "port number must be unique"},
	{"pool CEL service needs a port", "inferencepool.yaml", gaie16, "/spec/endpointPickerRef/port", deleteMe, "/spec/endpointPickerRef", "port"},
	{"pool at v1.5.0: endpointPickerRef required", "inferencepool.yaml", gaie15, "/spec/endpointPickerRef", deleteMe, "/spec", "endpointPickerRef"},

	// InferenceObjective llm-d.ai/v1alpha2 (no CEL rules, no enums)
	{"objective unknown key", "inferenceobjective.yaml", llmd10, "/spec/criticality", "Critical", "/spec", "'criticality'"},
	{"objective wrong type", "inferenceobjective.yaml", llmd10, "/spec/priority", "high", "/spec/priority", "want integer"},
	{"objective bad pattern (for an enum)", "inferenceobjective.yaml", llmd10, "/spec/poolRef/kind", "-Pool", "/spec/poolRef/kind", "does not match pattern"},
	{"objective out of range name", "inferenceobjective.yaml", llmd10, "/spec/poolRef/name", "", "/spec/poolRef/name", "minLength"},
	{"objective required poolRef", "inferenceobjective.yaml", llmd10, "/spec/poolRef", deleteMe, "/spec", "poolRef"},

	// DisaggregatedSet disaggregatedset.x-k8s.io/v1
	{"dset unknown key groupIdentity", "disaggregatedset.yaml", lws10, "/spec/roles/0/spec/groupIdentity", map[string]any{}, "/spec/roles/0/spec", "'groupIdentity'"},
	{"dset wrong type", "disaggregatedset.yaml", lws10, "/spec/roles/0/spec/replicas", "1", "/spec/roles/0/spec/replicas", "want integer"},
	{"dset bad enum", "disaggregatedset.yaml", lws10, "/spec/roles/0/spec/startupPolicy", "LeaderFirst", "/spec/roles/0/spec/startupPolicy", "must be"},
	{"dset bad enum of rollout", "disaggregatedset.yaml", lws10, "/spec/roles/0/spec/rolloutStrategy", map[string]any{"type": "Recreate"}, "/spec/roles/0/spec/rolloutStrategy/type", "must be"},
	{"dset out of range", "disaggregatedset.yaml", lws10, "/spec/slices", 101, "/spec/slices", "maximum"},
	{"dset unknown key in the pod", "disaggregatedset.yaml", lws10, "/spec/roles/1/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/gpus", 1, "/spec/roles/1/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0", "'gpus'"},
	{"dset CEL replicas all zero or all non-zero", "disaggregatedset.yaml", lws10, "/spec/roles/1/spec/replicas", 0, "/spec", "replicas must be zero for all non-External roles"},
	{"dset at v0.9.0: slices", "disaggregatedset.yaml", lws09, "/spec/slices", 2, "/spec", "'slices'"},

	// LeaderWorkerSet leaderworkerset.x-k8s.io/v1 (no CEL rules)
	{"lws unknown key", "leaderworkerset.yaml", lws10, "/spec/leaderWorkerTemplate/sise", 2, "/spec/leaderWorkerTemplate", "'sise'"},
	{"lws wrong type", "leaderworkerset.yaml", lws10, "/spec/leaderWorkerTemplate/size", "2", "/spec/leaderWorkerTemplate/size", "want integer"},
	{"lws bad enum", "leaderworkerset.yaml", lws10, "/spec/leaderWorkerTemplate/restartPolicy", "Always", "/spec/leaderWorkerTemplate/restartPolicy", "must be"},
	{"lws out of range", "leaderworkerset.yaml", lws10, "/spec/replicas", 1000001, "/spec/replicas", "maximum"},

	// RayService ray.io/v1
	{"rayservice unknown key", "rayservice.yaml", kuberay17, "/spec/serveConfig", "x", "/spec", "'serveConfig'"},
	{"rayservice wrong type", "rayservice.yaml", kuberay17, "/spec/serveConfigV2", map[string]any{"applications": []any{}}, "/spec/serveConfigV2", "want string"},
	{"rayservice bad enum", "rayservice.yaml", kuberay17, "/spec/rayClusterConfig/upgradeStrategy", map[string]any{"type": "Rolling"}, "/spec/rayClusterConfig/upgradeStrategy/type", "must be"},
	{"rayservice out of range", "rayservice.yaml", kuberay17, "/spec/rayClusterDeletionDelaySeconds", -5, "/spec/rayClusterDeletionDelaySeconds", "minimum"},
	{"rayservice CEL managedBy", "rayservice.yaml", kuberay17, "/spec/rayClusterConfig/managedBy", "me", "/spec/rayClusterConfig/managedBy", "managedBy field value must be either"},
	{"rayservice at v1.6.2: suspend", "rayservice.yaml", kuberay16, "/spec/suspend", true, "/spec", "'suspend'"},

	// Deployment apps/v1 (derived; Kubernetes' built-in kinds carry no CEL rules)
	{"deployment unknown key", "deployment.yaml", k8s136, "/spec/replica", 2, "/spec", "'replica'"},
	{"deployment unknown metadata key", "deployment.yaml", k8s136, "/metadata/label", map[string]any{}, "/metadata", "'label'"},
	{"deployment wrong type", "deployment.yaml", k8s136, "/spec/replicas", "2", "/spec/replicas", "want integer"},
	{"deployment bad enum", "deployment.yaml", k8s136, "/spec/strategy/type", "BlueGreen", "/spec/strategy/type", "must be"},
	{"deployment out of range", "deployment.yaml", k8s136, "/spec/replicas", 2147483648, "/spec/replicas", "does not fit in"},
	{"deployment required selector", "deployment.yaml", k8s136, "/spec/selector", deleteMe, "/spec", "selector"},
	{"deployment unknown key in the container", "deployment.yaml", k8s136, "/spec/template/spec/containers/0/gpu", 1, "/spec/template/spec/containers/0", "'gpu'"},
	{"deployment wrong kind", "deployment.yaml", k8s136, "/apiVersion", "apps/v1beta2", "/apiVersion", "no schema for apps/v1beta2 Deployment"},

	// Service v1 (derived)
	{"service unknown key", "service.yaml", k8s136, "/spec/port", 8000, "/spec", "'port'"},
	{"service wrong type", "service.yaml", k8s136, "/spec/ports/0/port", "8000", "/spec/ports/0/port", "want integer"},
	{"service bad enum", "service.yaml", k8s136, "/spec/type", "Internal", "/spec/type", "must be"},
	{"service bad protocol", "service.yaml", k8s136, "/spec/ports/0/protocol", "HTTP", "/spec/ports/0/protocol", "must be"},
	{"service out of range", "service.yaml", k8s136, "/spec/ports/0/port", 4294967296, "/spec/ports/0/port", "does not fit in"},

	// Secret v1 (derived)
	{"secret unknown key", "secret.yaml", k8s136, "/strinData", map[string]any{}, "", "'strinData'"},
	{"secret wrong type", "secret.yaml", k8s136, "/stringData/token", 42, "/stringData/token", "want string"},
	{"secret data not base64", "secret.yaml", k8s136, "/data/other", "not base64!", "/data/other", "byte"},

	// DynamoGraphDeployment nvidia.com/v1beta1 (derived)
	{"dgd unknown key (v1alpha1's services)", "dynamographdeployment.yaml", dynamo, "/spec/services", map[string]any{}, "/spec", "'services'"},
	{"dgd unknown key (v1alpha1's envs)", "dynamographdeployment.yaml", dynamo, "/spec/components/1/envs", []any{}, "/spec/components/1", "'envs'"},
	{"dgd wrong type", "dynamographdeployment.yaml", dynamo, "/spec/components/0/replicas", "1", "/spec/components/0/replicas", "want integer"},
	{"dgd bad enum", "dynamographdeployment.yaml", dynamo, "/spec/components/1/type", "router", "/spec/components/1/type", "must be"},
	{"dgd bad backend", "dynamographdeployment.yaml", dynamo, "/spec/backendFramework", "llamacpp", "/spec/backendFramework", "must be"},
	{"dgd out of range", "dynamographdeployment.yaml", dynamo, "/spec/components/1/replicas", -1, "/spec/components/1/replicas", "minimum"},
	{"dgd out of range nodes", "dynamographdeployment.yaml", dynamo, "/spec/components/1/multinode", map[string]any{"nodeCount": 1}, "/spec/components/1/multinode/nodeCount", "minimum"},
	{"dgd bad name", "dynamographdeployment.yaml", dynamo, "/spec/components/0/name", "front_end", "/spec/components/0/name", "does not match pattern"},
	{"dgd CEL one epp", "dynamographdeployment.yaml", dynamo, "/spec/components", []any{map[string]any{"name": "epp-a", "type": "epp"}, map[string]any{"name": "epp-b", "type": "epp"}}, "/spec/components", "at most one component may have type epp"},
	{"dgd CEL unique names", "dynamographdeployment.yaml", dynamo, "/spec/components/2/name", "vllmdecodeworker", "/spec/components", "component names must be unique case-insensitively"},
	{"dgd CEL minAvailable", "dynamographdeployment.yaml", dynamo, "/spec/components/2/minAvailable", 2, "/spec/components/2", "minAvailable must be less than or equal to replicas"},
	{"dgd unknown key in the pod", "dynamographdeployment.yaml", dynamo, "/spec/components/0/podTemplate/spec/containers/0/gpus", 1, "/spec/components/0/podTemplate/spec/containers/0", "'gpus'"},
}

var (
	kserve19  = Versions{"kserve": "v0.19.0"}
	kserve20  = Versions{"kserve": "v0.20.0"}
	gaie15    = Versions{"gaie": "v1.5.0"}
	gaie16    = Versions{"gaie": "v1.6.0"}
	llmd10    = Versions{"llm-d": "v0.10.0"}
	lws09     = Versions{"lws": "v0.9.0"}
	lws10     = Versions{"lws": "v0.10.0"}
	kuberay16 = Versions{"kuberay": "v1.6.2"}
	kuberay17 = Versions{"kuberay": "v1.7.0"}
	k8s136    = Versions{"kubernetes": "v1.36.3"}
	dynamo    = Versions{"dynamo": "main@0fddc01"}
)

func TestEveryMutationIsRejectedWithItsPath(t *testing.T) {
	if len(mutations) < 40 {
		t.Fatalf("the mutation table has %d cases; the bar is 40", len(mutations))
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			body := mutate(t, fixture(t, m.file), m.path, m.value)
			ps := Kubernetes(m.file, body, m.v)
			if len(ps) == 0 {
				t.Fatalf("passed; want a problem at %q naming %q", m.wantPath, m.wantMsg)
			}
			for _, p := range ps {
				if p.Path == m.wantPath && strings.Contains(p.Message, m.wantMsg) {
					return
				}
			}
			t.Errorf("no problem at %q naming %q; got:", m.wantPath, m.wantMsg)
			for _, p := range ps {
				t.Errorf("  %s", p)
			}
		})
	}
}
