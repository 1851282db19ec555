package decide

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// EngineConfig is the sized engine and its annotated launch command: every
// emitted flag with a one-line defense carrying its numbers, the flags left
// at their defaults, and the seed's flags that no longer exist with what
// replaced them. It is filled for a vLLM or SGLang pick; for other engines
// Covered is false and Note says what is not covered.
type EngineConfig struct {
	Engine        string         `json:"engine"`
	Covered       bool           `json:"covered"`
	Note          string         `json:"note,omitempty"`
	EngineVersion string         `json:"engine_version,omitempty"`
	Model         string         `json:"model,omitempty"`
	HFID          string         `json:"hf_id,omitempty"`
	GPU           string         `json:"gpu,omitempty"`
	Sizing        *sizing.Result `json:"sizing,omitempty"`
	Tried         []sizing.Tried `json:"tried,omitempty"`
	// Command is the launch command, one flag per entry, in order.
	Command     []LaunchFlag `json:"command"`
	CommandText string       `json:"command_text,omitempty"`
	// Defaults lists flags deliberately left out because the default is right.
	Defaults []FlagNote `json:"defaults_kept"`
	// Replaced lists flags the seed names that must not be emitted any more.
	Replaced []FlagNote `json:"seed_flags_replaced"`
	Notes    []string   `json:"notes"`
}

// LaunchFlag is one line of the launch command with its defense.
type LaunchFlag struct {
	Flag    string `json:"flag"`
	Value   string `json:"value,omitempty"`
	FlagID  string `json:"flag_id"`
	Defense string `json:"defense"`
}

// FlagNote explains a flag that is not in the command.
type FlagNote struct {
	Flag       string `json:"flag"`
	FlagID     string `json:"flag_id"`
	Status     string `json:"status"`
	Note       string `json:"note"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	Source     string `json:"source,omitempty"`
}

// latency_priority → (max-num-seqs, max-num-batched-tokens, headroom): the
// batch a replica is tuned for and how many full-context requests its KV
// pool must hold before a tensor-parallel size counts as fitting.
type batchPlan struct {
	seqs, tokens, minConcurrency int
	why                          string
}

func planFor(priority string, d sizing.Defaults) batchPlan {
	switch priority {
	case knowledge.LatencyFirst:
		return batchPlan{seqs: min(64, d.MaxNumSeqs), tokens: 2048, minConcurrency: 4,
			why: "latency first: small batches and a 2048-token step keep inter-token latency low"}
	case knowledge.ThroughputFirst:
		return batchPlan{seqs: d.MaxNumSeqs, tokens: max(d.MaxNumBatchedTokens, 16384), minConcurrency: 16,
			why: "throughput first: the largest batches the KV pool can feed"}
	default: // knowledge.LatencyBalanced; the load check admits no other value
		return batchPlan{seqs: min(256, d.MaxNumSeqs), tokens: d.MaxNumBatchedTokens, minConcurrency: 8,
			why: "balanced: vLLM's step budget for this GPU, a batch cap the KV pool can hold"}
	}
}

func engineConfig(c *Compiled, a knowledge.Answers, engine string) *EngineConfig {
	kb := c.kb
	ec := &EngineConfig{Engine: engine, Command: []LaunchFlag{}, Defaults: []FlagNote{}, Replaced: []FlagNote{}, Notes: []string{}}
	if engine != knowledge.EngineVLLM && engine != knowledge.EngineSGLang {
		ec.Note = fmt.Sprintf("stackpick sizes and writes launch commands for vLLM and SGLang only; %s's settings are not covered (its memory model and flags are not in the knowledge base).", kb.ProductName(engine))
		return ec
	}
	m := kb.Model(a.Get(knowledge.KeyModel).Str)
	gp := kb.GPU(a.Get(knowledge.KeyGPU).Str)
	perNode, nodes := a.Get(knowledge.KeyGPUsPerNode).Int, a.Get(knowledge.KeyNodes).Int
	if m == nil || gp == nil {
		ec.Note = "the model or GPU is not in the catalog; no sizing"
		return ec
	}
	if gp.MemoryGiB <= 0 || perNode == 0 {
		ec.Note = "no GPU memory to size: the answers describe a CPU-only fleet"
		return ec
	}
	ec.Covered, ec.Model, ec.HFID, ec.GPU = true, m.ID, m.HFID, gp.ID
	ctx := a.Get(knowledge.KeyContextTokens).Int
	maxLen := min(ctx, m.NativeContext)
	if ctx > m.NativeContext {
		ec.Notes = append(ec.Notes, fmt.Sprintf("context_tokens %d is above %s's native context of %d: max-model-len is capped there (longer needs RoPE scaling and VLLM_ALLOW_LONG_MAX_MODEL_LEN)", ctx, m.Name, m.NativeContext))
	}
	d := sizing.VLLMDefaults(sizing.VLLMMinor(sizing.CurrentVLLM), gp.MemoryGiB, gp.ID, sizing.EntryServe, maxLen)
	plan := planFor(a.Get(knowledge.KeyLatencyPriority).Str, d)
	in := sizing.Input{Arch: sizing.ArchOf(m), Hardware: sizing.HardwareOf(gp)}
	in.Settings = sizing.Settings{MaxModelLen: maxLen, MaxNumSeqs: plan.seqs, MaxNumBatchedTokens: plan.tokens,
		WeightsDType: a.Get(knowledge.KeyWeightsDType).Str, KVCacheDType: a.Get(knowledge.KeyKVCacheDType).Str,
		GPUsPerNode: perNode, MinConcurrency: plan.minConcurrency}
	in = sizing.Resolve(in, d)
	fit, err := sizing.SmallestTP(in, perNode, nodes)
	ec.Tried = fit.Tried
	if err != nil {
		ec.Note = err.Error()
		if fit.Result.Model != "" {
			r := fit.Result
			ec.Sizing = &r
		}
		ec.Covered = false
		return ec
	}
	r := fit.Result
	ec.Sizing = &r
	ec.Notes = append(ec.Notes, checkpointNotes(a, r, nodes*perNode)...)
	if engine == knowledge.EngineVLLM {
		vllmCommand(kb, a, ec, m, gp, r, d, plan)
	} else {
		sglangCommand(kb, a, ec, m, gp, r, d, plan)
	}
	// The seed's flags that are gone, so the output says what replaced them.
	ec.Replaced = append(ec.Replaced, c.replaced[engine]...)
	ec.CommandText = commandText(ec)
	return ec
}

// checkpointNotes says what the command does not cover when several
// checkpoints must be served: full fine-tunes and extra base models each
// need an engine of their own, sized like this one.
func checkpointNotes(a knowledge.Answers, r sizing.Result, fleetGPUs int) []string {
	engines := a.Get(knowledge.KeyBaseModels).Int
	full := 0
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneFull {
		full = a.Get(knowledge.KeyFineTunes).Int
	}
	engines += full
	if engines <= 1 {
		return nil
	}
	per := r.TensorParallelSize * r.PipelineParallelSize
	note := fmt.Sprintf("%d checkpoints (%d base model(s)", engines, a.Get(knowledge.KeyBaseModels).Int)
	if full > 0 {
		note += fmt.Sprintf(" + %d full fine-tune(s), each a separate copy of the weights", full)
	}
	note += fmt.Sprintf("): this command serves one; run one engine per checkpoint, each sized like this one if the models are alike: %d × %d GPUs = %d GPUs for one replica of each, of the fleet's %d",
		engines, per, engines*per, fleetGPUs)
	if engines*per > fleetGPUs && fleetGPUs > 0 {
		note += " (more than the fleet has: quantize, share GPUs, or serve fine-tunes as LoRA adapters)"
	}
	return []string{note}
}

// emit adds a flag if the knowledge base knows it as current; otherwise it
// records why it was left out.
func emit(kb *knowledge.KB, ec *EngineConfig, id, value, defense string) {
	f := kb.Flag(id)
	switch {
	case f == nil:
		ec.Notes = append(ec.Notes, fmt.Sprintf("flag %s is not in the knowledge base; left out", id))
	case f.Status != knowledge.FlagCurrent:
		ec.Replaced = append(ec.Replaced, noteOf(kb, f))
	default:
		ec.Command = append(ec.Command, LaunchFlag{Flag: f.Name, Value: value, FlagID: id, Defense: defense})
	}
}

func keep(kb *knowledge.KB, ec *EngineConfig, id, note string) {
	if f := kb.Flag(id); f != nil && f.Status == knowledge.FlagCurrent {
		ec.Defaults = append(ec.Defaults, FlagNote{Flag: f.Name, FlagID: id, Status: f.Status, Note: note, Source: f.Source})
	}
}

func noteOf(kb *knowledge.KB, f *knowledge.Flag) FlagNote {
	n := FlagNote{Flag: f.Name, FlagID: f.ID, Status: f.Status, Source: f.Source}
	// Follow the chain to a current flag: --max-context-len-to-capture →
	// --max-seq-len-to-capture → --max-cudagraph-capture-size.
	by := f.ReplacedBy
	var via []string
	for r, hops := kb.Flag(f.ReplacedBy), 0; r != nil && hops < 8; r, hops = kb.Flag(r.ReplacedBy), hops+1 {
		by = r.Name
		if r.Status == knowledge.FlagCurrent || kb.Flag(r.ReplacedBy) == nil {
			if r.Status != knowledge.FlagCurrent && r.ReplacedBy != "" {
				by = r.ReplacedBy
				via = append(via, r.Name)
			}
			break
		}
		via = append(via, r.Name)
	}
	if len(via) > 0 {
		by += " (via " + strings.Join(via, ", ") + ")"
	}
	n.ReplacedBy = by
	when := f.Removed
	if f.Status == knowledge.FlagDeprecated {
		when = f.Deprecated
	}
	n.Note = fmt.Sprintf("%s: %s; replaced by %s", f.Status, when, by)
	return n
}

// seedFlagNotes lists, per engine, the seed's flags that are removed or
// renamed, with what replaced them: the same for every decision, so it is
// built once per knowledge base.
func seedFlagNotes(kb *knowledge.KB) map[string][]FlagNote {
	out := map[string][]FlagNote{}
	for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
		for _, f := range kb.FlagsOf(engine) {
			if f.InSeed && f.Status != knowledge.FlagCurrent {
				out[engine] = append(out[engine], noteOf(kb, f))
			}
		}
	}
	return out
}

func gib(v float64) string { return fmt.Sprintf("%.2f GiB", v) }

func num(v int64) string { return sizing.FormatValue(float64(v), "") }

func tpDefense(r sizing.Result, tried []sizing.Tried, gp *knowledge.GPU, minConc int) string {
	s := fmt.Sprintf("weights %s per GPU of %.2f GiB; the smallest size whose KV pool holds ≥ %d requests of %s tokens (it holds %.1f)",
		gib(r.WeightsGiBPerGPU), gp.MemoryGiB, minConc, num(int64(r.ContextTokens)), r.MaxConcurrency)
	if len(tried) > 1 {
		prev := tried[len(tried)-2]
		why := prev.Why
		if len(why) > 90 {
			why = why[:strings.LastIndex(why[:90], " ")] + " …"
		}
		s += fmt.Sprintf("; TP %d: %s", prev.TP, why)
	}
	return s
}

func vllmCommand(kb *knowledge.KB, a knowledge.Answers, ec *EngineConfig, m *knowledge.Model, gp *knowledge.GPU, r sizing.Result, d sizing.Defaults, plan batchPlan) {
	ec.EngineVersion = "vLLM v" + sizing.CurrentVLLM
	emit(kb, ec, knowledge.FlagVLLMTensorParallelSize, fmt.Sprint(r.TensorParallelSize), tpDefense(r, ec.Tried, gp, plan.minConcurrency))
	if r.PipelineParallelSize > 1 {
		emit(kb, ec, knowledge.FlagVLLMPipelineParallelSize, fmt.Sprint(r.PipelineParallelSize),
			fmt.Sprintf("the model does not fit one node of %d GPUs; %d stages of %d layers each", a.Get(knowledge.KeyGPUsPerNode).Int, r.PipelineParallelSize, (m.Layers+r.PipelineParallelSize-1)/r.PipelineParallelSize))
	}
	emit(kb, ec, knowledge.FlagVLLMMaxModelLen, fmt.Sprint(r.MaxModelLen),
		fmt.Sprintf("context_tokens cap (native %s): one request's KV is %s × %s B = %s per GPU",
			num(int64(m.NativeContext)), num(int64(r.MaxModelLen)), num(r.KVBytesPerTokenPerGPU), gib(float64(r.KVBytesPerRequest)/sizing.GiB)))
	emit(kb, ec, knowledge.FlagVLLMGPUMemoryUtilization, trim(r.GPUMemoryUtilization),
		fmt.Sprintf("vLLM's default, named for review: %s × %.2f GiB − weights %.2f − activation %.2f − non-torch %.2f = KV pool %s per GPU = %s tokens",
			trim(r.GPUMemoryUtilization), gp.MemoryGiB, r.WeightsGiBPerGPU, r.ActivationPeakGiB, r.NonTorchGiB, gib(r.KVPoolGiBPerGPU), num(r.KVCacheTokens)))
	emit(kb, ec, knowledge.FlagVLLMMaxNumSeqs, fmt.Sprint(r.MaxNumSeqs),
		fmt.Sprintf("%s; the pool holds %.1f full-length requests and more shorter ones; the profile run reserves %s × %s vocab × %d B for sampling (default here %d)",
			plan.why, r.MaxConcurrency, num(int64(r.MaxNumSeqs)), num(int64(m.Vocab)), sizing.SamplerBytesPerLogit, d.MaxNumSeqs))
	emit(kb, ec, knowledge.FlagVLLMMaxNumBatchedTokens, fmt.Sprint(r.MaxNumBatchedTokens),
		fmt.Sprintf("chunked-prefill step budget (default here %d): the activation peak is %s", d.MaxNumBatchedTokens, gib(r.ActivationPeakGiB)))
	if kv := a.Get(knowledge.KeyKVCacheDType).Str; kv != knowledge.DTypeAuto {
		emit(kb, ec, knowledge.FlagVLLMKVCacheDType, kv,
			fmt.Sprintf("1 byte per value instead of 2: %s B per token per GPU, twice the tokens; scales default to 1.0 unless the checkpoint ships calibrated ones, so gate it on an eval", num(r.KVBytesPerTokenPerGPU)))
	}
	if wd := a.Get(knowledge.KeyWeightsDType).Str; wd == knowledge.DTypeFP8 && m.NativeDType == knowledge.DTypeBF16 {
		emit(kb, ec, knowledge.FlagVLLMQuantization, knowledge.DTypeFP8,
			fmt.Sprintf("fp8 weights quantized at load: about 1 byte per parameter, %s per GPU", gib(r.WeightsGiBPerGPU)))
	} else if wd == knowledge.DTypeInt4 {
		ec.Notes = append(ec.Notes, "int4: serve an AWQ or GPTQ checkpoint of the model (vLLM reads the method from its config); the sizing assumes 4-bit groups of 128")
	}
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA && a.Get(knowledge.KeyFineTunes).Int > 0 {
		ft := a.Get(knowledge.KeyFineTunes).Int
		emit(kb, ec, knowledge.FlagVLLMEnableLoRA, "", fmt.Sprintf("%d fine-tunes served as LoRA adapters on one copy of the base weights (%s per GPU)", ft, gib(r.WeightsGiBPerGPU)))
		emit(kb, ec, knowledge.FlagVLLMMaxLoRAs, fmt.Sprint(min(ft, 8)),
			fmt.Sprintf("adapters active in one batch: %d of %d (default 1 would serialise tenants); each slot takes GPU memory the sizing above does not count", min(ft, 8), ft))
		keep(kb, ec, knowledge.FlagVLLMMaxLoRARank, "16 by default: raise it to the largest rank among the adapters (32, 64, …)")
		keep(kb, ec, knowledge.FlagVLLMMaxCPULoRAs, "defaults to --max-loras; raise it to keep every tenant's adapter warm in CPU memory")
	}
	emit(kb, ec, knowledge.FlagVLLMServedModelName, m.ID, "the name OpenAI clients send; stays stable when the checkpoint behind it changes")
	keep(kb, ec, knowledge.FlagVLLMEnablePrefixCaching, "on by default in V1; prefix_reuse "+a.Get(knowledge.KeyPrefixReuse).Str+" keeps it on (turn off with --no-enable-prefix-caching)")
	keep(kb, ec, knowledge.FlagVLLMEnableChunkedPrefill, "on by default in V1; --max-num-batched-tokens above sets its chunk")
	keep(kb, ec, knowledge.FlagVLLMBlockSize, fmt.Sprintf("16 by default: the KV pool counts %s blocks of 16 tokens", num(r.KVBlocks)))
	keep(kb, ec, knowledge.FlagVLLMMaxCUDAGraphCaptureSize, "derived from --max-num-seqs; the seed's --max-seq-len-to-capture is gone")
	keep(kb, ec, knowledge.FlagVLLMEnforceEager, "off: CUDA graphs stay on (eager is for debugging)")
	keep(kb, ec, knowledge.FlagVLLMSpeculativeConfig, "no speculative decoding; if you add it, a draft's layers take KV from the same pool, and gate it on an eval (issue #43559)")
}

func sglangCommand(kb *knowledge.KB, a knowledge.Answers, ec *EngineConfig, m *knowledge.Model, gp *knowledge.GPU, r sizing.Result, d sizing.Defaults, plan batchPlan) {
	ec.EngineVersion = "SGLang (server_args.py, early 2026)"
	ec.Notes = append(ec.Notes, "the sizing uses vLLM's memory model; SGLang reserves memory differently (--mem-fraction-static covers weights and KV pool only), so treat the KV figures as an estimate")
	emit(kb, ec, knowledge.FlagSGLangModelPath, m.HFID, "the model to serve")
	emit(kb, ec, knowledge.FlagSGLangTPSize, fmt.Sprint(r.TensorParallelSize), tpDefense(r, ec.Tried, gp, plan.minConcurrency))
	if r.ReplicasPerNode > 1 {
		emit(kb, ec, knowledge.FlagSGLangDPSize, fmt.Sprint(r.ReplicasPerNode),
			fmt.Sprintf("%d GPUs per node / TP %d = %d replicas in one server", a.Get(knowledge.KeyGPUsPerNode).Int, r.TensorParallelSize, r.ReplicasPerNode))
	}
	emit(kb, ec, knowledge.FlagSGLangContextLength, fmt.Sprint(r.MaxModelLen),
		fmt.Sprintf("context_tokens cap (native %s): one request's KV is %s per GPU", num(int64(m.NativeContext)), gib(float64(r.KVBytesPerRequest)/sizing.GiB)))
	emit(kb, ec, knowledge.FlagSGLangMaxRunningRequests, fmt.Sprint(r.MaxNumSeqs),
		fmt.Sprintf("%s; the KV pool holds about %.1f full-length requests", plan.why, r.MaxConcurrency))
	emit(kb, ec, knowledge.FlagSGLangChunkedPrefillSize, fmt.Sprint(r.MaxNumBatchedTokens), "chunked-prefill budget per step, sized like vLLM's step budget for this GPU")
	if kv := a.Get(knowledge.KeyKVCacheDType).Str; kv != knowledge.DTypeAuto {
		emit(kb, ec, knowledge.FlagSGLangKVCacheDType, kv, fmt.Sprintf("1 byte per value: %s B per token per GPU, twice the tokens; gate it on an eval", num(r.KVBytesPerTokenPerGPU)))
	}
	emit(kb, ec, knowledge.FlagSGLangEnableMetrics, "", "Prometheus metrics are off by default in SGLang; the prefix-hit and queue metrics are how you check this sizing")
	keep(kb, ec, knowledge.FlagSGLangMemFractionStatic, "auto: (GPU memory − reserved) / GPU memory, ≈ 0.83 on an 80 GB H100")
	keep(kb, ec, knowledge.FlagSGLangDisableRadixCache, "not given: RadixAttention prefix reuse stays on")
	keep(kb, ec, knowledge.FlagSGLangAttentionBackend, "auto-selected per GPU (fa3 on Hopper, aiter on AMD, …)")
}

func trim(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// commandText is the command as one copy-pasteable shell command.
func commandText(ec *EngineConfig) string {
	var b strings.Builder
	switch ec.Engine {
	case knowledge.EngineVLLM:
		b.WriteString("vllm serve " + ec.HFID)
	case knowledge.EngineSGLang:
		b.WriteString("python -m sglang.launch_server")
	}
	for _, l := range ec.Command {
		b.WriteString(" \\\n  " + l.Flag)
		if l.Value != "" {
			b.WriteString(" " + l.Value)
		}
	}
	return b.String()
}
