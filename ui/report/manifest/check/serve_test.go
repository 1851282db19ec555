package check

import (
	"strings"
	"testing"
)

func TestServeConfigPassesTheGoodFile(t *testing.T) {
	for _, v := range []Versions{nil, {"ray": "main@697db26", "vllm": "v0.33.0"}} {
		if ps := ServeConfig("serve-config.yaml", readTestdata(t, "serve-config.yaml"), v); len(ps) != 0 {
			t.Errorf("%v: %v", v, ps)
		}
	}
}

// TestServeConfigOnKubeRaysOwnSample: the serveConfigV2 of KubeRay's
// ray-operator/config/samples/ray-service.llm-serve.yaml passes the
// structural schema; its engine_kwargs dtype and device are vLLM engine
// arguments the knowledge base has no flag for, so stackpick, which writes
// no flag it cannot defend, reports exactly those two.
func TestServeConfigOnKubeRaysOwnSample(t *testing.T) {
	ps := ServeConfig("serveConfigV2", readTestdata(t, "kuberay-llm-serve-config.yaml"), nil)
	var paths []string
	for _, p := range ps {
		paths = append(paths, p.Path)
		if !strings.Contains(p.Message, "unknown engine argument") {
			t.Errorf("a structural problem in the upstream sample: %v", p)
		}
	}
	if got := strings.Join(paths, " "); got != "/applications/0/args/llm_configs/0/engine_kwargs/device /applications/0/args/llm_configs/0/engine_kwargs/dtype" {
		t.Errorf("problems at %s: %v", got, ps)
	}
}

func TestServeConfigRejectsMutations(t *testing.T) {
	good := string(readTestdata(t, "serve-config.yaml"))
	const lc = "/applications/0/args/llm_configs/0"
	for _, m := range []mutation{
		{"unknown top-level key (Ray would ignore it)", "http_options:", "http_option:", "/", "http_option"},
		{"unknown key in an application", "    route_prefix: /", "    route_prefx: /", "/applications/0", "route_prefx"},
		{"unknown key in an LLMConfig", "          llm_engine: vLLM", "          llm_engin: vLLM", lc, "llm_engin"},
		{"unknown key in autoscaling_config", "target_ongoing_requests: 64", "target_num_ongoing_requests_per_replica: 64", lc + "/deployment_config/autoscaling_config", "target_num_ongoing_requests_per_replica"},
		{"host in an application (nested_host_and_port)", "    route_prefix: /", "    route_prefix: /\n    host: 0.0.0.0", "/applications/0", "host"},
		{"wrong type: port a string", "port: 8000", "port: eight", "/http_options/port", "want integer"},
		{"wrong type: accelerator_type a list", "accelerator_type: H100", "accelerator_type: [H100]", lc + "/accelerator_type", "want null or string"},
		{"bad enum: llm_engine", "llm_engine: vLLM", "llm_engine: SGLang", lc + "/llm_engine", "must be 'vLLM'"},
		{"out of range: max_replicas 0", "max_replicas: 4", "max_replicas: 0", lc + "/deployment_config/autoscaling_config/max_replicas", "minimum"},
		{"out of range: max_ongoing_requests 0", "max_ongoing_requests: 128", "max_ongoing_requests: 0", lc + "/deployment_config/max_ongoing_requests", "exclusiveMinimum"},
		{"invalid value: max_replicas below min_replicas", "min_replicas: 1", "min_replicas: 8", lc + "/deployment_config/autoscaling_config/max_replicas", "must be greater than or equal to min_replicas (8)"},
		{"invalid value: route_prefix without a slash", "    route_prefix: /", "    route_prefix: v1", "/applications/0/route_prefix", "does not match pattern"},
		{"invalid value: import path with two colons", "import_path: ray.serve.llm:build_openai_app", "import_path: ray:serve:llm", "/applications/0/import_path", "does not match pattern"},
		{"invalid value: num_replicas and autoscaling_config", "            max_ongoing_requests: 128", "            max_ongoing_requests: 128\n            num_replicas: 2", lc + "/deployment_config/num_replicas", "Manually setting num_replicas is not allowed when autoscaling_config is provided"},
		{"missing model_loading_config.model_id", "            model_id: llama-3.1-8b\n", "", lc + "/model_loading_config", "model_id"},
		{"an engine argument the knowledge base has no flag for", "            max_model_len: 32768", "            max_model_length: 32768", lc + "/engine_kwargs/max_model_length", "did you mean max_model_len"},
		{"an engine argument of the wrong type", "enable_prefix_caching: true", "enable_prefix_caching: 1", lc + "/engine_kwargs/enable_prefix_caching", "want a boolean"},
		{"an engine argument out of range", "gpu_memory_utilization: 0.9", "gpu_memory_utilization: 1.2", lc + "/engine_kwargs/gpu_memory_utilization", "out of range"},
		{"served_model_name in engine_kwargs (Ray sets it from model_id)", "gpu_memory_utilization: 0.9", "gpu_memory_utilization: 0.9\n            served_model_name: llama", lc + "/engine_kwargs/served_model_name", "not allowed in engine_kwargs"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, ServeConfig("serve-config.yaml", applyMutation(t, good, m), nil))
		})
	}
	for _, body := range []string{"", "[]", "applications: []", "applications: {}", ":\n- ["} {
		if ps := ServeConfig("serve-config.yaml", []byte(body), nil); len(ps) == 0 {
			t.Errorf("%q passed", body)
		}
	}
	if ps := ServeConfig("serve-config.yaml", []byte(good), Versions{"ray": "2.60.0"}); len(ps) != 1 {
		t.Errorf("an unvendored version: %v", ps)
	}
}

func BenchmarkServeConfig(b *testing.B) {
	body := readTestdata(b, "serve-config.yaml")
	b.Run("compile+validate", func(b *testing.B) {
		for b.Loop() {
			serveSchemas.Clear()
			if ps := ServeConfig("serve-config.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if ps := ServeConfig("serve-config.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
}
