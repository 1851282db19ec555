package check

import (
	"testing"
)

func TestHelmValuesPassesGoodFiles(t *testing.T) {
	for _, f := range []string{"router-values.yaml", "router-values-pd.yaml", "llm-d-guides/base.values.yaml", "llm-d-guides/optimized-baseline.values.yaml"} {
		for _, v := range []Versions{nil, {"llm-d": "v0.9.0"}, {"llm-d": "v0.10.0"}} {
			if ps := HelmValues(f, readTestdata(t, f), v); len(ps) != 0 {
				t.Errorf("%s at %v: %v", f, v, ps)
			}
		}
	}
	for _, body := range []string{"", "# nothing\n", "router: {}\n", "router:\n  modelServers:\n"} {
		if ps := HelmValues("values.yaml", []byte(body), nil); len(ps) != 0 {
			t.Errorf("%q: %v", body, ps)
		}
	}
}

func TestHelmValuesRejectsMutations(t *testing.T) {
	good := string(readTestdata(t, "router-values.yaml"))
	for _, m := range []mutation{
		{"unknown key", "    protocol: http\n", "    protocl: http\n", "/router/modelServers/protocl", `unknown key "protocl"`},
		{"unknown top-level key", "router:\n", "routr:\n", "/routr", "unknown key"},
		{"unknown key in a list item", "      - number: 8000", "      - numbr: 8000", "/router/modelServers/targetPorts/0/numbr", "unknown key"},
		{"the legacy top-level inferencePool", "router:\n", "inferencePool:\n  create: true\nrouter:\n", "/inferencePool", "unknown key"},
		{"wrong type: a scalar for a map", "    flags:\n      v: 2\n", "    flags: verbose\n", "/router/epp/flags", "the chart's templates read a map"},
		{"wrong type: a map for a scalar", "    create: true\n", "    create: {enabled: true}\n", "/router/inferencePool/create", "wrong type"},
		{"wrong type: a scalar for a list", "    targetPorts:\n      - number: 8000\n", "    targetPorts: 8000\n", "/router/modelServers/targetPorts", "wrong type: got a scalar"},
		{"wrong type: a list for matchLabels", "      app.kubernetes.io/name: stackpick-llama-3-1-8b\n", "      - app\n", "/router/modelServers/matchLabels", "wrong type"},
		{"bad enum: model server type", "    type: vllm\n", "    type: vllmm\n", "/router/modelServers/type", "want one of vllm, sglang"},
		{"bad enum: protocol", "    protocol: http\n", "    protocol: https\n", "/router/modelServers/protocol", "want one of http, grpc"},
		{"bad enum: failureMode", "failureMode: FailOpen", "failureMode: FailClosed", "/router/inferencePool/failureMode", "FailOpen, FailClose"},
		{"out of range: target port", "number: 8000", "number: 80000", "/router/modelServers/targetPorts/0/number", "from 1 to 65535"},
		{"out of range: port 0", "number: 8000", "number: 0", "/router/modelServers/targetPorts/0/number", "TCP port"},
		{"invalid value: a port that is a string", "number: 8000", `number: "8000"`, "/router/modelServers/targetPorts/0/number", "TCP port"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, HelmValues("values.yaml", applyMutation(t, good, m), nil))
		})
	}
	for _, body := range []string{"- a\n", "router: [\n", "router: 3\n"} {
		if ps := HelmValues("values.yaml", []byte(body), nil); len(ps) == 0 {
			t.Errorf("%q passed", body)
		}
	}
}

// The endpoint picker's prefill/decode configuration, a YAML text in the
// values, is checked too: its group and version, its fields, its plugin
// types, and that every reference names a plugin it declares.
func TestHelmValuesChecksTheEndpointPickerConfig(t *testing.T) {
	good := string(readTestdata(t, "router-values-pd.yaml"))
	cfg := "/router/epp/pluginsCustomConfig/pd-config.yaml"
	for _, m := range []mutation{
		{"epp config: wrong group and version", "apiVersion: llm-d.ai/v1alpha1", "apiVersion: llm-d.ai/v1", cfg + "/apiVersion", "want llm-d.ai/v1alpha1"},
		{"epp config: wrong kind", "kind: EndpointPickerConfig", "kind: EndpointPicker", cfg + "/kind", "want EndpointPickerConfig"},
		{"epp config: unknown key", "        schedulingProfiles:\n", "        schedulingProfile:\n", cfg + "/schedulingProfile", `unknown key "schedulingProfile"`},
		{"epp config: unknown plugin type", "- type: queue-scorer", "- type: queue-scorrer", cfg + "/plugins/2/type", `plugin type "queue-scorrer"`},
		{"epp config: a pluginRef to no plugin", "- pluginRef: decode-filter", "- pluginRef: decode-filtre", cfg + "/schedulingProfiles/1/plugins/0/pluginRef", "no plugin of this configuration"},
		{"epp config: a decider that is no plugin", "prefill: always-disagg-pd-decider", "prefill: prefix-based-pd-decider", cfg + "/plugins/7/parameters/deciders/prefill", "no plugin of this configuration"},
		{"epp config: not YAML", "        kind: EndpointPickerConfig\n", "        kind: [EndpointPickerConfig\n", cfg, "not an endpoint picker configuration"},
		{"epp config file names no configuration", "pluginsConfigFile: pd-config.yaml", "pluginsConfigFile: pd.yaml", "/router/epp/pluginsConfigFile", "neither in router.epp.pluginsCustomConfig"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, HelmValues("values.yaml", applyMutation(t, good, m), nil))
		})
	}
}

// TestHelmValuesNamesTheReleaseSkew: router.epp.podAnnotations is in the
// defaults from v0.10.0 (routerlib/values.yaml: "podAnnotations: {}"), not
// in v0.9.0's.
func TestHelmValuesNamesTheReleaseSkew(t *testing.T) {
	body := []byte("router:\n  epp:\n    podAnnotations:\n      prometheus.io/scrape: \"true\"\n")
	if ps := HelmValues("values.yaml", body, Versions{"llm-d": "v0.10.0"}); len(ps) != 0 {
		t.Errorf("v0.10.0: %v", ps)
	}
	wantProblem(t, mutation{name: "v0.9.0", path: "/router/epp/podAnnotations", message: "unknown key"}, HelmValues("values.yaml", body, Versions{"llm-d": "v0.9.0"}))
	if ps := HelmValues("values.yaml", body, Versions{"llm-d": "v0.8.0"}); len(ps) != 1 {
		t.Errorf("an unvendored release: %v", ps)
	}
}

func BenchmarkHelmValues(b *testing.B) {
	body := readTestdata(b, "router-values.yaml")
	b.Run("load+validate", func(b *testing.B) {
		for b.Loop() {
			chartCache.Clear()
			if ps := HelmValues("values.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if ps := HelmValues("values.yaml", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
}
