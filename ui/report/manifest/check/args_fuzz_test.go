package check

import (
	"strings"
	"testing"
)

// The checkers take any bytes without panicking: each fuzz target starts
// from the good files and their mutations.

func FuzzCompose(f *testing.F) {
	f.Add(readTestdata(f, "compose.yaml"))
	f.Add([]byte("services: {a: {ports: [${P}]}}"))
	f.Fuzz(func(t *testing.T, body []byte) { Compose("compose.yaml", body, nil) })
}

func FuzzTritonConfig(f *testing.F) {
	f.Add(readTestdata(f, "config.pbtxt"))
	f.Add([]byte("instance_group [{ kind: KIND_GPUU }]"))
	f.Fuzz(func(t *testing.T, body []byte) { TritonConfig("config.pbtxt", body, nil) })
}

func FuzzTritonModelJSON(f *testing.F) {
	f.Add(readTestdata(f, "model.json"))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, body []byte) { TritonModelJSON("model.json", body, nil) })
}

func FuzzServeConfig(f *testing.F) {
	f.Add(readTestdata(f, "serve-config.yaml"))
	f.Add(readTestdata(f, "kuberay-llm-serve-config.yaml"))
	f.Fuzz(func(t *testing.T, body []byte) { ServeConfig("serve.yaml", body, nil) })
}

func FuzzHelmValues(f *testing.F) {
	f.Add(readTestdata(f, "router-values.yaml"))
	f.Add(readTestdata(f, "llm-d-guides/optimized-baseline.values.yaml"))
	f.Fuzz(func(t *testing.T, body []byte) { HelmValues("values.yaml", body, nil) })
}

func FuzzEngineArgs(f *testing.F) {
	kb := testKB(f)
	f.Add(strings.Join(goodVLLMArgs, "\x00"))
	f.Add("--max-model-len=\x00-tp\x00--no-enable-prefix-caching\x00x")
	f.Fuzz(func(t *testing.T, joined string) {
		EngineArgs(kb, "vllm", "v0.33.0", strings.Split(joined, "\x00"))
	})
}

func FuzzTritonVLLMModel(f *testing.F) {
	f.Add(readTestdata(f, "config.pbtxt"), readTestdata(f, "model.json"))
	f.Fuzz(func(t *testing.T, cfg, mj []byte) { TritonVLLMModel("config.pbtxt", cfg, "model.json", mj, nil) })
}
