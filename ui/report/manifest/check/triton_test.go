package check

import (
	"strings"
	"testing"
)

func TestTritonConfigPassesTheGoodFile(t *testing.T) {
	body := readTestdata(t, "config.pbtxt")
	for _, v := range []Versions{nil, {"triton": "r26.07"}, {"triton": "2.71.0"}} {
		if ps := TritonConfig("vllm_model/config.pbtxt", body, v); len(ps) != 0 {
			t.Errorf("%v: %v", v, ps)
		}
	}
}

func TestTritonConfigRejectsMutations(t *testing.T) {
	good := string(readTestdata(t, "config.pbtxt"))
	for _, m := range []mutation{
		{"unknown field", "max_batch_size: 0", "max_batch_sise: 0", "42:1", "unknown field: max_batch_sise"},
		{"unknown field in a nested message", "  decoupled: true", "  decoupld: true", "44:3", "unknown field: decoupld"},
		{"bad enum", "kind: KIND_MODEL", "kind: KIND_GPUU", "35:11", "invalid value for enum"},
		{"wrong type: a string for an int32", "max_batch_size: 0", `max_batch_size: "zero"`, "42:17", "invalid value for int32"},
		{"wrong type: a message for a scalar", `name: "llama-3.1-8b"`, `name { value: 1 }`, "41:1", "syntax error"},
		{"wrong type: a number for a string", `backend: "vllm"`, `backend: 42`, "29:10", "invalid value for string"},
		{"out of range: int32", "max_batch_size: 0", "max_batch_size: 4294967296", "42:17", "invalid value for int32"},
		{"invalid value: a bool that is not one", "  decoupled: true", "  decoupled: yes", "44:14", "invalid value for bool"},
		{"syntax: an unclosed block", "model_transaction_policy {", "model_transaction_policy {{", "43:27", "syntax error"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, TritonConfig("config.pbtxt", applyMutation(t, good, m), nil))
		})
	}
	if ps := TritonConfig("config.pbtxt", []byte(good), Versions{"triton": "2.73.0"}); len(ps) != 1 {
		t.Errorf("an unvendored release: %v", ps)
	}
}

func TestTritonModelJSONPassesTheGoodFileAndTheSample(t *testing.T) {
	if ps := TritonModelJSON("vllm_model/1/model.json", readTestdata(t, "model.json"), nil); len(ps) != 0 {
		t.Errorf("good file: %v", ps)
	}
	// vllm_backend's own sample (samples/model_repository/vllm_model/1/model.json, 8de0c14).
	sample := `{
    "model":"facebook/opt-125m",
    "gpu_memory_utilization": 0.1,
    "enforce_eager": true
}`
	if ps := TritonModelJSON("model.json", []byte(sample), nil); len(ps) != 0 {
		t.Errorf("upstream sample: %v", ps)
	}
}

func TestTritonModelJSONRejectsMutations(t *testing.T) {
	good := string(readTestdata(t, "model.json"))
	for _, m := range []mutation{
		{"unknown key, nearest named", `"max_model_len"`, `"max_model_length"`, "/max_model_length", "did you mean max_model_len"},
		{"a flag spelled with dashes", `"max_model_len"`, `"max-model-len"`, "/max-model-len", "unknown engine argument"},
		{"wrong type: a string for a switch", `"enable_prefix_caching": true`, `"enable_prefix_caching": "true"`, "/enable_prefix_caching", "want a boolean"},
		{"wrong type: a float for a whole number", `"tensor_parallel_size": 2`, `"tensor_parallel_size": 2.5`, "/tensor_parallel_size", "want a whole number"},
		{"wrong type: model not a string", `"model": "meta-llama/Llama-3.1-8B-Instruct"`, `"model": 7`, "/model", "want a model id"},
		{"bad enum", `"distributed_executor_backend": "mp"`, `"distributed_executor_backend": "mpi"`, "/distributed_executor_backend", "want one of mp, ray, uni, external_launcher"},
		{"out of range: a fraction above 1", `"gpu_memory_utilization": 0.9`, `"gpu_memory_utilization": 1.5`, "/gpu_memory_utilization", "out of range"},
		{"out of range: a fraction of 0", `"gpu_memory_utilization": 0.9`, `"gpu_memory_utilization": 0`, "/gpu_memory_utilization", "out of range"},
		{"invalid value: a size below its bound", `"tensor_parallel_size": 2`, `"tensor_parallel_size": 0`, "/tensor_parallel_size", "out of range"},
		{"a removed flag", `"max_model_len": 32768`, `"max_seq_len_to_capture": 8192`, "/max_seq_len_to_capture", "is removed"},
		{"a key twice", `"tensor_parallel_size": 2,`, `"tensor_parallel_size": 2, "tensor_parallel_size": 4,`, "/tensor_parallel_size", "given twice"},
		{"not an object", "{\n", "[\n", "/", "not a JSON object"},
	} {
		t.Run(m.name, func(t *testing.T) {
			wantProblem(t, m, TritonModelJSON("model.json", applyMutation(t, good, m), nil))
		})
	}
	for _, body := range []string{"", "null", "[]", `{"a":1} {}`, `{"model":"m"`, "\xff"} {
		if ps := TritonModelJSON("model.json", []byte(body), nil); len(ps) == 0 {
			t.Errorf("%q passed", body)
		}
	}
}

func BenchmarkTritonConfig(b *testing.B) {
	body := readTestdata(b, "config.pbtxt")
	b.Run("compile+validate", func(b *testing.B) {
		for b.Loop() {
			tritonDescs.Clear()
			if ps := TritonConfig("config.pbtxt", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if ps := TritonConfig("config.pbtxt", body, nil); len(ps) != 0 {
				b.Fatal(ps)
			}
		}
	})
}

func BenchmarkTritonModelJSON(b *testing.B) {
	body := readTestdata(b, "model.json")
	for b.Loop() {
		if ps := TritonModelJSON("model.json", body, nil); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}

func TestTritonVLLMModelTakesTheGoodPairAndRefusesKindGPUForManyGPUs(t *testing.T) {
	cfg, mj := readTestdata(t, "config.pbtxt"), readTestdata(t, "model.json")
	if ps := TritonVLLMModel("config.pbtxt", cfg, "1/model.json", mj, nil); len(ps) != 0 {
		t.Fatalf("good pair: %v", ps)
	}
	gpu := []byte(strings.Replace(string(cfg), "kind: KIND_MODEL", "kind: KIND_GPU", 1))
	wantProblem(t, mutation{name: "KIND_GPU, TP 2", path: "instance_group[0].kind", message: "KIND_GPU is currently for single-GPU models"},
		TritonVLLMModel("config.pbtxt", gpu, "1/model.json", mj, nil))
	one := []byte(strings.Replace(string(mj), `"tensor_parallel_size": 2`, `"tensor_parallel_size": 1`, 1))
	if ps := TritonVLLMModel("config.pbtxt", gpu, "1/model.json", one, nil); len(ps) != 0 {
		t.Errorf("KIND_GPU with one GPU: %v", ps)
	}
	if ps := TritonVLLMModel("config.pbtxt", []byte("backend: 1"), "1/model.json", []byte("{"), nil); len(ps) != 2 {
		t.Errorf("two bad files: %v", ps)
	}
}
