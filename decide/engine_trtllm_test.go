package decide

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// An fp8 KV cache has no trtllm-serve flag: the command names the --config
// YAML that sets it, so the copied command does not run the cache at
// twice the size the sizing counts.
func TestTensorRTLLMFP8KVCacheNamesItsConfigFile(t *testing.T) {
	kb := knowledge.MustDefault()
	a := kb.Defaults()
	if err := a.Set(knowledge.KeyKVCacheDType, "fp8_e4m3"); err != nil {
		t.Fatal(err)
	}
	ec := engineConfig(Compile(kb), a, knowledge.EngineTensorRTLLM)
	if !strings.Contains(ec.CommandText, "--config trtllm-options.yaml") {
		t.Errorf("no --config for the fp8 KV cache:\n%s", ec.CommandText)
	}
	for _, d := range ec.Defaults {
		if d.FlagID == knowledge.FlagTRTLLMConfig {
			t.Errorf("--config is both set and left at its default: %+v", d)
		}
	}
}
