package decide

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

func scenarioAnswers(t *testing.T, kb *knowledge.KB, name string) knowledge.Answers {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Find(all, name)
	if err != nil {
		t.Fatal(err)
	}
	return s.Answers
}

func TestExitTestGetsAnAnnotatedVLLMServeCommand(t *testing.T) {
	kb := knowledge.MustDefault()
	d := Decide(kb, scenarioAnswers(t, kb, "exit-test"))
	ec := d.EngineConfig
	if ec == nil || !ec.Covered || ec.Engine != "vllm" {
		t.Fatalf("engine config %+v", ec)
	}
	if !strings.HasPrefix(ec.CommandText, "vllm serve meta-llama/Llama-3.3-70B-Instruct") {
		t.Errorf("command text: %q", ec.CommandText)
	}
	flags := map[string]string{}
	for _, l := range ec.Command {
		if l.Defense == "" {
			t.Errorf("%s has no defense", l.Flag)
		}
		flags[l.Flag] = l.Value
	}
	// 70B bf16 on 8×H200: 131 GiB of weights need two GPUs; four replicas per node.
	if flags["--tensor-parallel-size"] != "2" || ec.Sizing.ReplicasPerNode != 4 {
		t.Errorf("TP %s, replicas %d; want 2 and 4", flags["--tensor-parallel-size"], ec.Sizing.ReplicasPerNode)
	}
	if _, ok := flags["--enable-lora"]; !ok || flags["--max-loras"] != "3" {
		t.Errorf("three LoRA fine-tunes need --enable-lora --max-loras 3; got %v", flags)
	}
	found := false
	for _, n := range ec.Replaced {
		if n.Flag == "--max-seq-len-to-capture" && strings.Contains(n.ReplacedBy, "--max-cudagraph-capture-size") {
			found = true
		}
	}
	if !found {
		t.Errorf("the output must say what replaced --max-seq-len-to-capture: %+v", ec.Replaced)
	}
}

// TestLaunchCommandsNeverEmitRemovedFlags sizes every scenario with every
// model and KV dtype and checks each emitted flag is current in the KB.
func TestLaunchCommandsNeverEmitRemovedFlags(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	covered := 0
	for _, s := range all {
		for _, m := range kb.Models {
			for _, kv := range []string{"auto", "fp8_e4m3"} {
				a := s.Answers.Clone()
				if err := a.Set("model", m.ID); err != nil {
					t.Fatal(err)
				}
				if err := a.Set("kv_cache_dtype", kv); err != nil {
					t.Fatal(err)
				}
				ec := Decide(kb, a).EngineConfig
				if ec == nil {
					t.Fatalf("%s/%s: no engine config", s.Name, m.ID)
				}
				if !ec.Covered {
					if ec.Note == "" {
						t.Errorf("%s/%s: not covered and no note", s.Name, m.ID)
					}
					continue
				}
				covered++
				for _, l := range ec.Command {
					f := kb.Flag(l.FlagID)
					if f == nil || f.Status != knowledge.FlagCurrent || f.Name != l.Flag {
						t.Errorf("%s/%s emits %s, which is not a current flag", s.Name, m.ID, l.Flag)
					}
					for _, gone := range []string{"--max-seq-len-to-capture", "--speculative-model", "--num-speculative-tokens", "--swap-space", "--enable-radix-cache"} {
						if strings.Contains(ec.CommandText, gone) {
							t.Errorf("%s/%s command contains %s", s.Name, m.ID, gone)
						}
					}
				}
			}
		}
	}
	if covered == 0 {
		t.Fatal("no scenario produced a launch command")
	}
}

// An engine the knowledge base has no memory model and flags for gets no
// command, and the note says what is not covered.
func TestEnginesWithoutASizingModelSayWhatIsNotCovered(t *testing.T) {
	kb := knowledge.MustDefault()
	ec := engineConfig(Compile(kb), kb.Defaults(), "an-engine-stackpick-does-not-know")
	if ec.Covered || !strings.Contains(ec.Note, "not covered") {
		t.Errorf("unknown engine: %+v", ec)
	}
	for _, e := range kb.ProductsOn(knowledge.LayerEngine) {
		if ec := engineConfig(Compile(kb), kb.Defaults(), e.ID); !ec.Covered {
			t.Errorf("%s has no launch command: %s", e.ID, ec.Note)
		}
	}
}

func TestTensorRTLLMGetsATrtllmServeCommand(t *testing.T) {
	kb := knowledge.MustDefault()
	ec := engineConfig(Compile(kb), kb.Defaults(), knowledge.EngineTensorRTLLM)
	if !ec.Covered || !strings.HasPrefix(ec.CommandText, "trtllm-serve meta-llama/Llama-3.3-70B-Instruct") {
		t.Fatalf("TensorRT-LLM command: %q (%s)", ec.CommandText, ec.Note)
	}
	for _, want := range []string{"--tp_size", "--max_seq_len", "--max_batch_size", "--max_num_tokens", "--free_gpu_memory_fraction 0.9", "--host 0.0.0.0", "--port 8000"} {
		if !strings.Contains(ec.CommandText, want) {
			t.Errorf("command lacks %s:\n%s", want, ec.CommandText)
		}
	}
	// TensorRT-LLM's memory model: 0.9 of what is free after the weights,
	// the activation peak and the non-torch memory.
	r := ec.Sizing
	free := 79.19 - r.WeightsGiBPerGPU - r.ActivationPeakGiB - r.NonTorchGiB
	if r.FreeGPUMemoryFraction != 0.9 || r.BlockSize != 32 || math.Abs(r.KVPoolGiBPerGPU-0.9*free) > 0.05 {
		t.Errorf("pool %.2f GiB, fraction %v, block %d; want 0.9 × %.2f GiB in blocks of 32", r.KVPoolGiBPerGPU, r.FreeGPUMemoryFraction, r.BlockSize, free)
	}
	if pool := r.Figure("kv_pool_gib_per_gpu"); !strings.Contains(pool.Formula, "free_gpu_memory_fraction 0.9") || !strings.Contains(pool.Source, "_cal_max_memory") {
		t.Errorf("the pool's figure does not show TensorRT-LLM's arithmetic: %+v", pool)
	}
	if act := r.Figure("activation_peak_gib"); !strings.Contains(act.Formula, "estimated") {
		t.Errorf("the activation peak is not marked estimated: %s", act.Formula)
	}
	for _, l := range ec.Command {
		if f := kb.Flag(l.FlagID); f == nil || f.Engine != knowledge.EngineTensorRTLLM {
			t.Errorf("%s is not a TensorRT-LLM flag of the knowledge base", l.FlagID)
		}
	}
}

func TestTensorRTLLMChunksPromptsLongerThanABatch(t *testing.T) {
	kb := knowledge.MustDefault()
	a := kb.Defaults()
	if err := a.Set(knowledge.KeyLatencyPriority, knowledge.LatencyFirst); err != nil {
		t.Fatal(err)
	}
	ec := engineConfig(Compile(kb), a, knowledge.EngineTensorRTLLM)
	if !ec.Covered {
		t.Fatal(ec.Note)
	}
	if ec.Sizing.MaxModelLen > ec.Sizing.MaxNumBatchedTokens && !strings.Contains(ec.CommandText, "--enable_chunked_prefill") {
		t.Errorf("prompts of %d tokens, batches of %d, and no chunked prefill:\n%s", ec.Sizing.MaxModelLen, ec.Sizing.MaxNumBatchedTokens, ec.CommandText)
	}
}

func TestSGLangGetsASGLangServeCommand(t *testing.T) {
	kb := knowledge.MustDefault()
	a := kb.Defaults()
	ec := engineConfig(Compile(kb), a, "sglang")
	if !ec.Covered || !strings.HasPrefix(ec.CommandText, "sglang serve \\\n  --model-path ") || !strings.Contains(ec.CommandText, "--model-path meta-llama/Llama-3.3-70B-Instruct") {
		t.Errorf("SGLang command: %q (%s)", ec.CommandText, ec.Note)
	}
	if want := kb.Product(knowledge.EngineSGLang).Release.Tag; ec.Release != want || ec.EngineVersion != "SGLang "+want {
		t.Errorf("release %q, version %q; want the knowledge base's %q", ec.Release, ec.EngineVersion, want)
	}
	// --mem-fraction-static is named with SGLang's own arithmetic, and the
	// sizing no longer borrows vLLM's memory model.
	var defense string
	for _, l := range ec.Command {
		if l.FlagID == knowledge.FlagSGLangMemFractionStatic {
			defense = l.Value + " " + l.Defense
		}
	}
	if !strings.Contains(defense, "reserved = 512 + 1.5 × max(chunk") || !strings.Contains(defense, "= KV pool") {
		t.Errorf("--mem-fraction-static defense lacks the arithmetic: %q", defense)
	}
	for _, n := range ec.Notes {
		if strings.Contains(n, "vLLM's memory model") {
			t.Errorf("a note still says the sizing borrows vLLM's memory model: %q", n)
		}
	}
}

func TestEngineConfigIsDeterministic(t *testing.T) {
	kb := knowledge.MustDefault()
	a := scenarioAnswers(t, kb, "exit-test")
	one, _ := json.Marshal(Decide(kb, a))
	two, _ := json.Marshal(Decide(kb, a))
	if !bytes.Equal(one, two) {
		t.Error("the same answers gave different JSON")
	}
	if !bytes.Contains(one, []byte(`"engine_config"`)) || !bytes.Contains(one, []byte(`"kv_cache_tokens"`)) {
		t.Error("decision JSON lacks engine_config")
	}
}

func TestAModelTooBigForTheFleetIsExplained(t *testing.T) {
	kb := knowledge.MustDefault()
	a := kb.Defaults()
	for k, v := range map[string]any{"model": "llama-3.1-405b", "gpu": "l4", "gpus_per_node": int64(4)} {
		if err := a.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	ec := engineConfig(Compile(kb), a, "vllm")
	if ec.Covered || !strings.Contains(ec.Note, "does not fit") {
		t.Errorf("405B on 4×L4: %+v", ec.Note)
	}
}

// The load check lets a knowledge base offer only the dtypes knowledge
// declares as understood; the sizing must really know each of them.
func TestEveryDTypeTheKnowledgeBaseMayOfferIsOneTheSizingKnows(t *testing.T) {
	knows := map[string][]string{knowledge.KeyWeightsDType: sizing.WeightsDTypes, knowledge.KeyKVCacheDType: sizing.KVDTypes}
	for _, u := range knowledge.Understood {
		list, ok := knows[u.Key]
		if !ok {
			continue
		}
		delete(knows, u.Key)
		for _, m := range u.Values {
			if !slices.Contains(list, m.Value) {
				t.Errorf("%s %q is declared understood, but the sizing knows only %v", u.Key, m.Value, list)
			}
		}
	}
	if len(knows) > 0 {
		t.Errorf("not declared in knowledge.Understood: %v", knows)
	}
}

// A server started with --dp-size N holds N replicas: it takes their GPUs
// and counts once, for SGLang as for vLLM's --data-parallel-size; and the
// server listens beyond its own host.
func TestDataParallelServerTakesEveryReplicasGPUs(t *testing.T) {
	kb := knowledge.MustDefault()
	for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
		a := kb.Defaults()
		ec := engineConfig(Compile(kb), a, engine)
		dp := 1
		for _, l := range ec.Command {
			if l.FlagID == knowledge.FlagVLLMDataParallelSize || l.FlagID == knowledge.FlagSGLangDPSize {
				dp, _ = strconv.Atoi(l.Value)
			}
		}
		if dp < 2 {
			t.Fatalf("%s: the defaults no longer give a data-parallel server; pick answers that do:\n%s", engine, ec.CommandText)
		}
		per := ec.Sizing.TensorParallelSize * ec.Sizing.PipelineParallelSize
		if ec.GPUsPerServer != per*dp {
			t.Errorf("%s: %d GPUs per server; want TP × PP × DP = %d × %d = %d (%s)", engine, ec.GPUsPerServer, per, dp, per*dp, ec.ServersWhy)
		}
	}
	ec := engineConfig(Compile(kb), kb.Defaults(), knowledge.EngineSGLang)
	if !strings.Contains(ec.CommandText, "--host 0.0.0.0") {
		t.Errorf("SGLang listens on 127.0.0.1 unless told; the command has no --host 0.0.0.0:\n%s", ec.CommandText)
	}
}
