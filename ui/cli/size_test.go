package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Env: []string{"NO_COLOR=1"}})
	return code, out.String(), errb.String()
}

func TestSizeJSONHasTheKeysScriptsReadFor70BOnFourH100s(t *testing.T) {
	code, out, errs := runCLI("size", "--model", "llama-3.3-70b", "--gpu", "h100", "--tensor-parallel-size", "4", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"weights_gib_per_gpu", "kv_bytes_per_token_per_gpu", "kv_pool_gib_per_gpu", "kv_cache_tokens", "max_concurrency", "fits", "figures"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if got["fits"] != true || got["kv_bytes_per_token_per_gpu"].(float64) != 81920 {
		t.Errorf("fits %v, KV bytes/token/GPU %v; want true and 81920", got["fits"], got["kv_bytes_per_token_per_gpu"])
	}
}

func TestSizeBadInputExitsTwoWithAHint(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--model", "llama-3.3-70", "--gpu", "h100"}, `did you mean "llama-3.3-70b"`},
		{[]string{"--model", "llama-3.3-70b", "--gpu", "h1000"}, `did you mean "h100"`},
		{[]string{"--model", "llama-3.3-70b", "--gpu", "h100", "--gpu-memory-utilization", "1.2"}, "outside (0, 1]"},
		{[]string{"--model", "llama-3.3-70b", "--gpu", "h100", "--gpu-memory-utilization", "0"}, "outside (0, 1]"},
		{[]string{"--model", "llama-3.3-70b", "--gpu", "h100", "--tensor-parallel-size", "3"}, "do not divide"},
		{[]string{"--model", "llama-3.1-405b", "--gpu", "l4", "--max-model-len", "8192"}, "does not fit"},
		{[]string{"--gpu", "h100"}, "needs --model"},
		{[]string{"--model", "qwen3-8b"}, "needs --gpu"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(append([]string{"size"}, c.args...)...)
		if code != ExitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("size %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}

func TestDecideTextShowsTheLaunchCommandInTheEngineCard(t *testing.T) {
	code, out, errs := runCLI("decide", "--scenario", "exit-test")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Launch command (vLLM " + decide.VLLMRelease(knowledge.MustDefault()), "vllm serve meta-llama/Llama-3.3-70B-Instruct", "--tensor-parallel-size 2", "--max-seq-len-to-capture"} {
		if !strings.Contains(out, want) {
			t.Errorf("decide text lacks %q", want)
		}
	}
}

// `stackpick size` takes the knowledge base's vLLM release unless
// --vllm-version names another; older releases keep their own defaults.
func TestSizeDefaultsFollowTheKnowledgeBaseRelease(t *testing.T) {
	release := strings.TrimPrefix(decide.VLLMRelease(knowledge.MustDefault()), "v")
	for _, c := range []struct {
		args    []string
		version string
		util    float64
	}{
		{nil, release, 0.92},
		{[]string{"--vllm-version", "0.10.2"}, "0.10.2", 0.9},
		{[]string{"--vllm-version", "0.29"}, "0.29", 0.92},
	} {
		args := append([]string{"size", "--model", "llama-3.3-70b", "--gpu", "h100", "--format", "json"}, c.args...)
		code, out, errs := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		var got struct {
			EngineVersion string  `json:"engine_version"`
			Utilization   float64 `json:"gpu_memory_utilization"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if got.EngineVersion != c.version || got.Utilization != c.util {
			t.Errorf("%v: engine_version %q, utilization %v; want %q, %v", c.args, got.EngineVersion, got.Utilization, c.version, c.util)
		}
	}
}

// A release newer than the knowledge base's newest has no known defaults:
// size refuses it with exit 2 and names the newest it knows; a release it
// accepts says in the notes whose defaults apply.
func TestSizeRefusesAReleaseNewerThanTheKnowledgeBaseKnows(t *testing.T) {
	newest := strings.TrimPrefix(decide.VLLMRelease(knowledge.MustDefault()), "v")
	for _, v := range []string{"0.99.0", "0.34.0", newest + ".1"} {
		code, _, errs := runCLI("size", "--model", "llama-3.3-70b", "--gpu", "h100", "--vllm-version", v)
		if code != 2 || !strings.Contains(errs, "v"+newest) || !strings.Contains(errs, "newest vLLM release") {
			t.Errorf("--vllm-version %s: exit %d, %q; want 2 naming v%s", v, code, errs, newest)
		}
	}
	code, out, errs := runCLI("size", "--model", "llama-3.3-70b", "--gpu", "h100", "--vllm-version", "0.10.2")
	if code != 0 || !strings.Contains(out, "vLLM 0.10.2's") {
		t.Errorf("--vllm-version 0.10.2: exit %d, no note of whose defaults apply:\n%s%s", code, out, errs)
	}
}

// FuzzSizeFlags feeds arbitrary flag lists to `stackpick size`: whatever
// comes in, it must not panic and must end 0 (sized) or 2 (bad input).
func FuzzSizeFlags(f *testing.F) {
	for _, seed := range []string{
		"--model llama-3.3-70b --gpu h100 --tensor-parallel-size 4",
		"--model deepseek-v3 --gpu mi300x --max-model-len 1",
		"--params-b 8 --layers 32 --kv-heads 8 --head-dim 128 --gpu-memory-gib 24 --max-model-len 4096",
		"--model gemma-3-27b --gpu l40s --kv-cache-dtype fp8 --block-size 1 --max-num-seqs 1",
		"--model qwen3-8b --gpu h100 --gpu-memory-utilization NaN",
		"--model qwen3-8b --gpu h100 --gpu-memory-utilization 1e-300 --format json",
		"--params-b 1e308 --layers 1 --kv-heads 1 --head-dim 1 --gpu-memory-gib 1e-9 --max-model-len 1",
		"--model gpt-oss-120b --gpu b200 --pipeline-parallel-size 36 --tensor-parallel-size 8",
		"--model mixtral-8x7b --gpu a100-40gb --nodes 1024 --gpus-per-node 1024 --min-concurrency 1048576",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"size", "--no-color"}, strings.Fields(line)...)
		code, _, _ := runCLI(args...)
		if code != ExitOK && code != ExitBadInput {
			t.Errorf("size %q exited %d", line, code)
		}
	})
}
