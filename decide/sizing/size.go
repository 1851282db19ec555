package sizing

import (
	"math"
	"slices"
	"strings"
)

// SamplerBytesPerLogit is the memory vLLM's profile run holds per logit
// when it samples max-num-seqs sequences over the whole vocabulary: the
// logits in the model dtype, a float32 copy, the sorted values with their
// int64 indices for top-k/top-p, the probabilities and the scattered-back
// logits. Derived, not fitted to any accuracy-test log: vLLM v0.11 on one
// H100 reported a 5.56 GiB activation peak for Qwen3-0.6B (1024 sequences
// × 151,936 vocabulary; its forward pass at 8192 tokens needs ~0.2 GiB),
// which is 38.4 bytes per logit. The same write-up's Llama-3.1-8B (4.76
// GiB), Qwen3-32B (5.64) and gpt-oss-120b (7.38) agree within 2%.
const SamplerBytesPerLogit = 38

// SamplerSource cites SamplerBytesPerLogit.
const SamplerSource = "38 B per logit from vLLM v0.11's activation peak for Qwen3-0.6B on H100 (5.56 GiB over 1024 × 151,936 logits; public write-up 'vLLM Empirical Memory Profiling Results')"

// InputError is a setting that cannot work, written for the person who
// typed it.
type InputError struct {
	Field   string
	Problem string
	Allowed string
	Hint    string
}

func (e *InputError) Error() string {
	s := e.Field + ": " + e.Problem
	if e.Allowed != "" {
		s += " (allowed: " + e.Allowed + ")"
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Result is one sizing: the headline numbers and every figure behind them.
type Result struct {
	Model                string  `json:"model"`
	GPU                  string  `json:"gpu"`
	TensorParallelSize   int     `json:"tensor_parallel_size"`
	PipelineParallelSize int     `json:"pipeline_parallel_size"`
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization"`
	// FreeGPUMemoryFraction is TensorRT-LLM's KV-cache share of the memory
	// free after its profile run (0 for the other engines).
	FreeGPUMemoryFraction float64  `json:"free_gpu_memory_fraction,omitempty"`
	MaxModelLen           int      `json:"max_model_len"`
	MaxNumBatchedTokens   int      `json:"max_num_batched_tokens"`
	MaxNumSeqs            int      `json:"max_num_seqs"`
	ChunkedPrefill        bool     `json:"chunked_prefill"`
	BlockSize             int      `json:"block_size"`
	WeightsDType          string   `json:"weights_dtype"`
	KVCacheDType          string   `json:"kv_cache_dtype"`
	WeightsGiBPerGPU      float64  `json:"weights_gib_per_gpu"`
	KVBytesPerTokenPerGPU int64    `json:"kv_bytes_per_token_per_gpu"`
	ActivationPeakGiB     float64  `json:"activation_peak_gib"`
	NonTorchGiB           float64  `json:"non_torch_gib"`
	KVPoolGiBPerGPU       float64  `json:"kv_pool_gib_per_gpu"`
	KVBlocks              int64    `json:"kv_blocks"`
	KVCacheTokens         int64    `json:"kv_cache_tokens"`
	ContextTokens         int      `json:"context_tokens"`
	KVBytesPerRequest     int64    `json:"kv_bytes_per_request_per_gpu"`
	MaxConcurrency        float64  `json:"max_concurrency"`
	ReplicasPerNode       int      `json:"replicas_per_node"`
	DecodeTokensPerSecond float64  `json:"decode_tokens_per_s_batch1"`
	Fits                  bool     `json:"fits"`
	Reason                string   `json:"reason,omitempty"`
	Figures               []Figure `json:"figures"`
}

// Figure returns the figure with key, or a zero Figure.
func (r Result) Figure(key string) Figure {
	for _, fg := range r.Figures {
		if fg.Key == key {
			return fg
		}
	}
	return Figure{}
}

// Check reports the first setting that cannot work, or nil. in must be
// resolved (see Resolve).
func Check(in Input) error {
	a, h, s := in.Arch, in.Hardware, in.Settings
	switch {
	case a.Layers <= 0 || a.KVHeads <= 0 || a.HeadDim <= 0 && a.KVLoraRank <= 0:
		return &InputError{Field: "model", Problem: "needs layers, KV heads and head dim", Hint: "pass --model ID or all of --layers, --kv-heads, --head-dim (or --kv-lora-rank and --qk-rope-head-dim for MLA)"}
	case a.ParamsB <= 0 && s.WeightsGiBPerGPU <= 0 && a.NativeWeightsGiB <= 0:
		return &InputError{Field: "--params-b", Problem: "the weights are unknown", Hint: "pass --params-b (billions of parameters) or --weights-gib (measured weights per GPU)"}
	case !(h.MemoryGiB > 0) || h.MemoryGiB > 4096:
		return &InputError{Field: "--gpu-memory-gib", Problem: f("%v GiB is not one GPU's memory", h.MemoryGiB), Allowed: "more than 0 and at most 4096 GiB", Hint: "pass --gpu ID or --gpu-memory-gib (the total vLLM reports, e.g. 79.19 for an H100)"}
	case s.Engine != EngineSGLang && !(s.Utilization > 0 && s.Utilization <= 1):
		return &InputError{Field: "--gpu-memory-utilization", Problem: f("%v is outside (0, 1]", s.Utilization), Allowed: "a fraction above 0 and at most 1", Hint: "vLLM's default is 0.92; 0.85–0.95 is the usual range"}
	case s.FreeMemoryFraction < 0 || s.FreeMemoryFraction > 1 || math.IsNaN(s.FreeMemoryFraction):
		return &InputError{Field: "--kv_cache_free_gpu_memory_fraction", Problem: f("%v is outside [0, 1]", s.FreeMemoryFraction), Allowed: "a fraction from 0 to 1", Hint: "TensorRT-LLM's default is 0.9"}
	case s.TP < 1 || s.TP > 1024:
		return &InputError{Field: "--tensor-parallel-size", Problem: f("%d is outside 1 to 1024", s.TP), Allowed: "a whole number from 1 to 1024"}
	case s.PP < 1 || s.PP > 1024:
		return &InputError{Field: "--pipeline-parallel-size", Problem: f("%d is outside 1 to 1024", s.PP), Allowed: "a whole number from 1 to 1024"}
	case a.Heads > 0 && a.Heads%s.TP != 0:
		return &InputError{Field: "--tensor-parallel-size", Problem: f("%d attention heads do not divide by %d", a.Heads, s.TP), Allowed: strings.Join(intsText(divisors(a.Heads)), ", "), Hint: "vLLM requires the heads to split evenly over tensor-parallel ranks"}
	case a.KVLoraRank == 0 && a.KVHeads%s.TP != 0 && s.TP%a.KVHeads != 0:
		return &InputError{Field: "--tensor-parallel-size", Problem: f("%d KV heads neither divide by %d nor divide it", a.KVHeads, s.TP), Hint: "pick a size that divides the KV heads or is a multiple of them"}
	case s.PP > a.Layers:
		return &InputError{Field: "--pipeline-parallel-size", Problem: f("%d stages for %d layers", s.PP, a.Layers), Hint: "use at most one stage per layer"}
	case s.MaxModelLen < 1 || s.MaxModelLen > 1<<26:
		return &InputError{Field: "--max-model-len", Problem: "must be a whole number of tokens from 1 to 67,108,864"}
	case a.NativeContext > 0 && s.MaxModelLen > a.NativeContext:
		return &InputError{Field: "--max-model-len", Problem: f("%s is above the model's native context of %s", n(s.MaxModelLen), n(a.NativeContext)), Hint: "vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 and RoPE scaling are set; use at most the native context"}
	case s.MaxNumBatchedTokens < 1 || s.MaxNumBatchedTokens > 1<<24:
		return &InputError{Field: "--max-num-batched-tokens", Problem: "must be a whole number from 1 to 16,777,216"}
	case s.MaxNumSeqs < 1 || s.MaxNumSeqs > 1<<20:
		return &InputError{Field: "--max-num-seqs", Problem: "must be a whole number from 1 to 1,048,576"}
	case s.BlockSize < 1 || s.BlockSize > 4096:
		return &InputError{Field: "--block-size", Problem: "must be a whole number of tokens from 1 to 4096", Hint: "vLLM's default is 16"}
	case !slices.Contains(WeightsDTypes, s.WeightsDType):
		return &InputError{Field: "--dtype", Problem: f("unknown weights dtype %q", s.WeightsDType), Allowed: strings.Join(WeightsDTypes, ", ")}
	case !slices.Contains(KVDTypes, s.KVCacheDType):
		return &InputError{Field: "--kv-cache-dtype", Problem: f("unknown KV cache dtype %q", s.KVCacheDType), Allowed: strings.Join(KVDTypes, ", ")}
	case s.ContextTokens < 1 || s.ContextTokens > 1<<26:
		return &InputError{Field: "--context-tokens", Problem: "must be a whole number of tokens from 1 to 67,108,864"}
	case s.WeightsGiBPerGPU < 0 || math.IsNaN(s.WeightsGiBPerGPU) || math.IsInf(s.WeightsGiBPerGPU, 0):
		return &InputError{Field: "--weights-gib", Problem: "must be a positive number of GiB"}
	}
	if d := in.Draft; d != nil && (d.Layers < 0 || d.KVHeads < 0 || d.HeadDim < 0 || d.ParamsB < 0) {
		return &InputError{Field: "draft", Problem: "draft layers, KV heads, head dim and params cannot be negative"}
	}
	return nil
}

func divisors(x int) []int {
	var out []int
	for d := 1; d <= x && d <= 1024; d++ {
		if x%d == 0 {
			out = append(out, d)
		}
	}
	return out
}

func intsText(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = n(x)
	}
	return out
}

// Size computes one sizing. in must be resolved; Size checks it first.
func Size(in Input) (Result, error) { return size(in, true) }

// size computes the result; with describe false it skips the figures and
// their formulas (the tensor-parallel search only needs the numbers).
func size(in Input, describe bool) (Result, error) {
	if err := Check(in); err != nil {
		return Result{}, err
	}
	a, h, s := in.Arch, in.Hardware, in.Settings
	r := Result{Model: a.Name, GPU: h.Name, TensorParallelSize: s.TP, PipelineParallelSize: s.PP,
		GPUMemoryUtilization: s.Utilization, MaxModelLen: s.MaxModelLen, MaxNumBatchedTokens: s.MaxNumBatchedTokens,
		MaxNumSeqs: s.MaxNumSeqs, ChunkedPrefill: s.ChunkedPrefill == nil || *s.ChunkedPrefill, BlockSize: s.BlockSize,
		WeightsDType: s.WeightsDType, KVCacheDType: s.KVCacheDType, ContextTokens: s.ContextTokens}
	add := func(fg Figure) { r.Figures = append(r.Figures, fg) }
	gpus := s.TP * s.PP

	// Weights per GPU.
	wTotal, wFormula, wDType := weightsTotal(a, s.WeightsDType)
	draftW := 0.0
	if in.Draft != nil && in.Draft.ParamsB > 0 {
		draftW = in.Draft.ParamsB * 1e9 * 2 / GiB
		wFormula += f(" + draft %.2f B params × 2 B", in.Draft.ParamsB)
	}
	if s.WeightsGiBPerGPU > 0 {
		r.WeightsGiBPerGPU = s.WeightsGiBPerGPU
		if describe {
			add(Figure{Key: "weights_gib_per_gpu", Name: "Weights per GPU", Value: r.WeightsGiBPerGPU, Unit: "GiB",
				Formula: f("measured (vLLM's 'Model loading took %s GiB')", g(s.WeightsGiBPerGPU))})
		}
	} else {
		r.WeightsGiBPerGPU = (wTotal + draftW) / float64(gpus)
		if describe {
			add(Figure{Key: "weights_gib_per_gpu", Name: "Weights per GPU", Value: r.WeightsGiBPerGPU, Unit: "GiB",
				Formula: f("(%s = %s GiB) / (TP %d × PP %d) = %s GiB", wFormula, g(wTotal+draftW), s.TP, s.PP, g(r.WeightsGiBPerGPU))})
		}
	}
	r.WeightsDType = wDType

	// KV bytes per token per GPU.
	kv := kvPerToken(in)
	r.KVBytesPerTokenPerGPU = kv.total
	if describe {
		add(Figure{Key: "kv_bytes_per_token_per_gpu", Name: "KV bytes per token per GPU", Value: float64(kv.total), Unit: "B", Formula: kv.formula})
	}

	// Non-torch memory.
	nt, ntWhy := h.NonTorchGiB, "single GPU"
	if gpus > 1 {
		nt, ntWhy = h.NonTorchMultiGiB, f("engine spans %d GPUs (NCCL/RCCL buffers)", gpus)
	}
	r.NonTorchGiB = nt
	var budget float64
	if s.Engine == EngineSGLang {
		// SGLang: the fraction is worked out per layout; what it leaves
		// out (activations, CUDA graphs) is not subtracted again.
		st := sglangStaticOf(in)
		r.GPUMemoryUtilization = st.fraction
		r.ActivationPeakGiB = st.reservedMiB / 1024
		if describe {
			add(Figure{Key: "mem_fraction_static", Name: "SGLang mem-fraction-static (weights + KV pool)", Value: st.fraction, Unit: "",
				Formula: st.formula, Source: SGLangMemorySource})
			add(Figure{Key: "activation_peak_gib", Name: "Left outside it (activations, CUDA graphs)", Value: r.ActivationPeakGiB, Unit: "GiB",
				Formula: f("SGLang's reserve %s MiB / 1,024 = %s GiB (its own estimate, not a profile run)", n(int64(math.Round(st.reservedMiB))), g(r.ActivationPeakGiB)), Source: SGLangMemorySource})
			add(Figure{Key: "non_torch_gib", Name: "Other memory in use after loading (estimated)", Value: nt, Unit: "GiB",
				Formula: f("%s GiB: %s catalog figure, %s (measured on vLLM; SGLang's CUDA context and NCCL buffers are taken to be alike)", g(nt), orDash(h.Name), ntWhy), Source: h.NonTorchSource})
		}
		budget = st.fraction * h.MemoryGiB
		r.KVPoolGiBPerGPU = budget - r.WeightsGiBPerGPU - nt
		if describe {
			add(Figure{Key: "kv_pool_gib_per_gpu", Name: "KV pool per GPU", Value: r.KVPoolGiBPerGPU, Unit: "GiB",
				Formula: f("mem-fraction-static %s × %s GiB − weights %s − other in use %s = %s GiB",
					trimFloat(st.fraction), g(h.MemoryGiB), g(r.WeightsGiBPerGPU), g(nt), g(r.KVPoolGiBPerGPU)), Source: SGLangMemorySource})
		}
	} else {
		// Activation peak of the profile run.
		act := activation(in)
		r.ActivationPeakGiB = act.gib
		if describe {
			actFormula := act.formula
			if s.FreeMemoryFraction > 0 {
				actFormula += TRTLLMActivationNote
			}
			add(Figure{Key: "activation_peak_gib", Name: "Activation peak (profile run)", Value: act.gib, Unit: "GiB", Formula: actFormula, Source: SamplerSource})
			add(Figure{Key: "non_torch_gib", Name: "Non-torch memory per GPU", Value: nt, Unit: "GiB",
				Formula: f("%s GiB: %s catalog figure, %s", g(nt), orDash(h.Name), ntWhy), Source: h.NonTorchSource})
		}
		// KV pool.
		budget = s.Utilization * h.MemoryGiB
		r.KVPoolGiBPerGPU = budget - r.WeightsGiBPerGPU - act.gib - nt
		poolFormula := f("utilization %s × %s GiB − weights %s − activation %s − non-torch %s = %s GiB",
			trimFloat(s.Utilization), g(h.MemoryGiB), g(r.WeightsGiBPerGPU), g(act.gib), g(nt), g(r.KVPoolGiBPerGPU))
		poolSource := ""
		if s.FreeMemoryFraction > 0 { // TensorRT-LLM: a share of what is free after the profile run
			r.FreeGPUMemoryFraction = s.FreeMemoryFraction
			r.KVPoolGiBPerGPU, poolFormula = trtllmPool(s.FreeMemoryFraction, h.MemoryGiB, r.WeightsGiBPerGPU, act.gib, nt)
			poolSource = TRTLLMMemorySource
		}
		if describe {
			add(Figure{Key: "kv_pool_gib_per_gpu", Name: "KV pool per GPU", Value: r.KVPoolGiBPerGPU, Unit: "GiB", Formula: poolFormula, Source: poolSource})
		}
	}

	// Blocks and tokens.
	blockBytes := int64(s.BlockSize) * kv.total
	if r.KVPoolGiBPerGPU > 0 && blockBytes > 0 {
		r.KVBlocks = int64(math.Floor(r.KVPoolGiBPerGPU * GiB / float64(blockBytes)))
	}
	r.KVCacheTokens = r.KVBlocks * int64(s.BlockSize)
	if describe {
		add(Figure{Key: "kv_cache_tokens", Name: "KV cache tokens (whole engine)", Value: float64(r.KVCacheTokens), Unit: "tokens",
			Formula: f("floor(%s GiB × 2^30 / (block %d × %s B)) = %s blocks × %d = %s tokens",
				g(max(r.KVPoolGiBPerGPU, 0)), s.BlockSize, n(kv.total), n(r.KVBlocks), s.BlockSize, n(r.KVCacheTokens))})
	}

	// Concurrency at the context length.
	r.KVBytesPerRequest = kv.perRequest(s.ContextTokens, s.BlockSize)
	if r.KVBytesPerRequest > 0 {
		r.MaxConcurrency = float64(r.KVBlocks*blockBytes) / float64(r.KVBytesPerRequest)
	}
	reqFormula := f("ceil(%s / %d) × %d tokens × %s B", n(s.ContextTokens), s.BlockSize, s.BlockSize, n(kv.total))
	if kv.sliding > 0 {
		reqFormula = f("%s tokens × %s B (full layers) + %s tokens × %s B (sliding layers, window %s)",
			n(roundUp(s.ContextTokens, s.BlockSize)), n(kv.total-kv.sliding), n(roundUp(min(s.ContextTokens, a.SlidingWindow+s.BlockSize), s.BlockSize)), n(kv.sliding), n(a.SlidingWindow))
	}
	if describe {
		add(Figure{Key: "max_concurrency", Name: f("Requests of %s tokens the pool holds", n(s.ContextTokens)), Value: r.MaxConcurrency, Unit: "x",
			Formula: f("%s tokens × %s B / (%s = %s GiB per request) = %s", n(r.KVCacheTokens), n(kv.total), reqFormula, g(float64(r.KVBytesPerRequest)/GiB), trimFloat2(r.MaxConcurrency))})
	}

	// Replicas per node.
	if s.GPUsPerNode > 0 && gpus <= s.GPUsPerNode {
		r.ReplicasPerNode = s.GPUsPerNode / gpus
		if describe {
			add(Figure{Key: "replicas_per_node", Name: "Replicas per node", Value: float64(r.ReplicasPerNode), Unit: "",
				Formula: f("floor(%s per node / (TP %d × PP %d)) = %d", gpusWord(s.GPUsPerNode), s.TP, s.PP, r.ReplicasPerNode)})
		}
	} else if s.GPUsPerNode > 0 {
		if describe {
			span := (gpus + s.GPUsPerNode - 1) / s.GPUsPerNode
			add(Figure{Key: "nodes_per_replica", Name: "1 replica spans", Value: float64(span), Unit: "nodes",
				Formula: f("one replica needs %d GPUs, more than the %d of one node: ceil(%d / %d) = %d nodes", gpus, s.GPUsPerNode, gpus, s.GPUsPerNode, span)})
		}
	}

	// Batch-1 decode roofline.
	if h.BandwidthTBs > 0 {
		activeFrac := 1.0
		if a.ActiveParamsB > 0 && a.ParamsB > 0 {
			activeFrac = a.ActiveParamsB / a.ParamsB
		}
		wRead := r.WeightsGiBPerGPU * GiB * activeFrac * float64(s.PP)
		kvRead := float64(kv.perRequest(s.ContextTokens, 1)) * float64(s.PP)
		perToken := wRead + kvRead
		r.DecodeTokensPerSecond = h.BandwidthTBs * 1e12 / perToken
		frac := ""
		if activeFrac < 1 {
			frac = f(" × active share %.3f", activeFrac)
		}
		if describe {
			add(Figure{Key: "decode_tokens_per_s_batch1", Name: "Batch-1 decode ceiling (bandwidth roofline)", Value: r.DecodeTokensPerSecond, Unit: "tokens/s",
				Formula: f("%s TB/s / (weights %s GiB%s × PP %d + KV at %s tokens %s GiB) per GPU = %.0f tokens/s (upper bound: no compute, no all-reduce)",
					trimFloat(h.BandwidthTBs), g(r.WeightsGiBPerGPU), frac, s.PP, n(s.ContextTokens), g(kvRead/GiB), r.DecodeTokensPerSecond)})
		}
	}

	// Would the engine start?
	engine, share := "vLLM", f("%s × %s GiB", trimFloat(s.Utilization), g(h.MemoryGiB))
	knobs := "lower --max-num-seqs or --max-num-batched-tokens"
	if s.Engine == EngineSGLang {
		engine, share = "SGLang", f("mem-fraction-static %s × %s GiB", trimFloat(r.GPUMemoryUtilization), g(h.MemoryGiB))
		knobs = "lower --chunked-prefill-size"
	}
	switch {
	case r.WeightsGiBPerGPU >= budget:
		r.Reason = f("weights %s GiB per GPU do not fit the %s GiB %s may use (%s); raise the tensor-parallel size or quantize", g(r.WeightsGiBPerGPU), g(budget), engine, share)
	case r.KVPoolGiBPerGPU <= 0:
		r.Reason = f("no memory left for the KV cache (%s GiB); raise the tensor-parallel size, %s, or quantize", g(r.KVPoolGiBPerGPU), knobs)
	case r.KVCacheTokens < int64(s.MaxModelLen):
		need := float64(kv.perRequest(s.MaxModelLen, s.BlockSize)) / GiB
		lenFlag := "--max-model-len"
		if s.Engine == EngineSGLang {
			lenFlag = "--context-length"
		}
		refuses := engine + " refuses to start"
		if s.Engine == EngineSGLang {
			refuses = "a full-length request could never be scheduled"
		}
		r.Reason = f("one request of %s %s tokens needs %s GiB of KV cache per GPU, more than the %s GiB available; %s (lower %s to at most %s or add GPUs)", strings.TrimPrefix(lenFlag, "--"), n(s.MaxModelLen), g(need), g(r.KVPoolGiBPerGPU), refuses, lenFlag, n(r.KVCacheTokens))
	default:
		r.Fits = true
	}
	if s.FreeMemoryFraction > 0 {
		r.Reason = trtllmReason(r.Reason)
	}
	return r, nil
}

// weightsTotal returns all GPUs' weights in GiB, the formula and the dtype
// actually used ("auto" resolved).
func weightsTotal(a Arch, dtype string) (float64, string, string) {
	if dtype == "auto" {
		dtype = a.NativeDType
		if dtype == "" {
			dtype = "bf16"
		}
		if a.NativeWeightsGiB > 0 {
			return a.NativeWeightsGiB, f("%s checkpoint as loaded, %s GiB", dtype, g(a.NativeWeightsGiB)), dtype
		}
	}
	p := a.ParamsB * 1e9
	embed := float64(a.Vocab) * float64(a.Hidden)
	if !a.TiedEmbed {
		embed *= 2
	}
	embed = min(embed, p)
	switch dtype {
	case "fp8":
		return ((p-embed)*1 + embed*2) / GiB, f("(%.2f B params − %.2f B embeddings) × 1 B + embeddings × 2 B", a.ParamsB, embed/1e9), dtype
	case "int4":
		// 4-bit groups of 128 with an fp16 scale and a 4-bit zero point.
		per := 0.5 + 2.5/128
		return ((p-embed)*per + embed*2) / GiB, f("(%.2f B params − %.2f B embeddings) × 0.52 B (4-bit, group 128 scales) + embeddings × 2 B", a.ParamsB, embed/1e9), dtype
	case "mxfp4":
		// Expert weights in 4.25 bits; the rest (attention, embeddings) in bf16.
		experts := 0.0
		if a.Experts > 0 {
			experts = float64(a.Layers) * float64(a.Experts) * 3 * float64(a.Hidden) * float64(a.MoEIntermediate)
		}
		experts = min(experts, p-embed)
		return (experts*4.25/8 + (p-experts)*2) / GiB, f("%.2f B expert params × 0.53 B + %.2f B others × 2 B", experts/1e9, (p-experts)/1e9), dtype
	default:
		return p * 2 / GiB, f("%.2f B params × 2 B (%s)", a.ParamsB, dtype), dtype
	}
}

type kvTerms struct {
	total   int64 // bytes per token per GPU, every layer
	sliding int64 // of which sliding-window layers
	window  int
	formula string
}

// perRequest is the KV bytes one request of tokens takes on one GPU, in
// whole blocks; sliding-window layers keep at most window + one block.
func (k kvTerms) perRequest(tokens, block int) int64 {
	full := int64(roundUp(tokens, block)) * (k.total - k.sliding)
	if k.sliding == 0 {
		return full
	}
	return full + int64(roundUp(min(tokens, k.window+block), block))*k.sliding
}

func roundUp(x, b int) int {
	if b <= 1 {
		return x
	}
	return (x + b - 1) / b * b
}

func kvPerToken(in Input) kvTerms {
	a, s := in.Arch, in.Settings
	b := int64(kvBytes(s.KVCacheDType))
	layers := (a.Layers + s.PP - 1) / s.PP
	var k kvTerms
	if a.KVLoraRank > 0 {
		per := int64(a.KVLoraRank+a.QKRopeHeadDim) * b
		k.total = int64(layers) * per
		k.formula = f("%d layers × (kv_lora_rank %d + qk_rope_head_dim %d) × %d B = %s B (MLA: one latent per layer, not K and V; the same on every TP rank)",
			layers, a.KVLoraRank, a.QKRopeHeadDim, b, n(k.total))
	} else {
		heads := max(1, a.KVHeads/s.TP)
		rep := ""
		if s.TP > a.KVHeads {
			rep = f(" (TP %d > %d KV heads: each rank keeps 1 head, replicated)", s.TP, a.KVHeads)
		}
		k.total = 2 * int64(layers) * int64(heads) * int64(a.HeadDim) * b
		pp := ""
		if s.PP > 1 {
			pp = f(" (%d layers / PP %d)", a.Layers, s.PP)
		}
		k.formula = f("2 × %d layers%s × %d KV heads per GPU%s × head dim %d × %d B = %s B", layers, pp, heads, rep, a.HeadDim, b, n(k.total))
		if a.SlidingWindowLayers > 0 && a.SlidingWindow > 0 {
			sl := (a.SlidingWindowLayers + s.PP - 1) / s.PP
			k.sliding = 2 * int64(sl) * int64(heads) * int64(a.HeadDim) * b
			k.window = a.SlidingWindow
			k.formula += f("; %d of the layers are sliding-window (%s tokens), so a request keeps at most the window there", sl, n(a.SlidingWindow))
		}
	}
	if d := in.Draft; d != nil && d.Layers > 0 {
		heads := max(1, d.KVHeads/s.TP)
		extra := 2 * int64(d.Layers) * int64(heads) * int64(d.HeadDim) * b
		k.total += extra
		k.formula += f(" + draft 2 × %d layers × %d KV heads × %d × %d B = %s B", d.Layers, heads, d.HeadDim, b, n(k.total))
	}
	return k
}

type actTerms struct {
	gib     float64
	formula string
}

// activation estimates vLLM's profiled activation peak: the larger of the
// forward pass over the step budget and the sampler over max-num-seqs.
func activation(in Input) actTerms {
	a, s := in.Arch, in.Settings
	tokens := s.MaxNumBatchedTokens
	why := "max-num-batched-tokens"
	if s.ChunkedPrefill != nil && !*s.ChunkedPrefill && s.MaxModelLen > tokens {
		tokens = s.MaxModelLen
		why = "max-model-len (chunked prefill off: a whole prompt in one step)"
	}
	tp := s.TP
	h := a.Hidden
	if h == 0 {
		h = a.Heads * a.HeadDim
	}
	qHeads := max(1, a.Heads/tp)
	kvHeads := max(1, a.KVHeads/tp)
	attn := (qHeads+2*kvHeads)*a.HeadDim + qHeads*a.HeadDim
	mlp := 3 * a.Intermediate / tp
	mlpWhy := f("3 × %s/%d", n(a.Intermediate), tp)
	if a.Experts > 0 {
		moe := a.ExpertsPerToken * (3*a.MoEIntermediate/tp + h)
		if moe > mlp {
			mlp = moe
			mlpWhy = f("%d experts × (3 × %s/%d + %s)", a.ExpertsPerToken, n(a.MoEIntermediate), tp, n(h))
		}
	}
	inner, innerWhy := mlp, mlpWhy
	if attn > mlp {
		inner, innerWhy = attn, "attention q,k,v,o per GPU"
	}
	perTok := 2 * (2*h + inner)
	fwd := float64(tokens) * float64(perTok)
	hidden := float64(tokens) * float64(h) * 2
	sampler := float64(s.MaxNumSeqs) * float64(a.Vocab) * SamplerBytesPerLogit
	peak := max(fwd, sampler+hidden)
	return actTerms{gib: peak / GiB, formula: f("max(forward %s tokens [%s] × 2 B × (2 × %s + %s) = %s GiB, sampler %s seqs × %s vocab × %d B + hidden %s GiB = %s GiB) = %s GiB",
		n(tokens), why, n(h), innerWhy, g(fwd/GiB), n(s.MaxNumSeqs), n(a.Vocab), SamplerBytesPerLogit, g(hidden/GiB), g((sampler+hidden)/GiB), g(peak/GiB))}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func trimFloat(v float64) string {
	s := f("%.4f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func trimFloat2(v float64) string { return f("%.2f", v) }
