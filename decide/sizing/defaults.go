package sizing

import (
	"strconv"
	"strings"
)

// Entry points of vLLM: its batch defaults differ between them.
const (
	EntryServe = "serve" // vllm serve / the OpenAI-compatible server
	EntryLLM   = "llm"   // the offline LLM class and the benchmark scripts
)

// CurrentVLLM is the vLLM release the launch command and the default
// settings are written for when the knowledge base names none: the tag of
// the vllm product's [product.release] without its "v" (a test keeps the two
// equal). decide and `stackpick size` take the knowledge base's tag first.
const CurrentVLLM = "0.33.0"

// Defaults are the engine defaults that shape memory, with the reason each
// one has the value it has.
type Defaults struct {
	Utilization         float64
	MaxNumSeqs          int
	MaxNumBatchedTokens int
	ChunkedPrefill      bool
	BlockSize           int
	// FreeMemoryFraction is TensorRT-LLM's KV-cache fraction (0 for vLLM).
	FreeMemoryFraction float64
	Why                map[string]string
}

// VLLMMinor parses "0.26.0", "v0.9.1.dev705+g…" or "0.6.4.dev9 (ROCm)" to
// its minor number (26, 9, 6); 0 when unreadable.
func VLLMMinor(version string) int {
	v := strings.TrimPrefix(strings.TrimSpace(version), "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 || parts[0] != "0" {
		return 0
	}
	digits := parts[1]
	for i, r := range digits {
		if r < '0' || r > '9' {
			digits = digits[:i]
			break
		}
	}
	m, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	return m
}

// VLLMDefaults returns vLLM's defaults for a release (minor version), a GPU
// (memory as reported, name) and an entry point. maxModelLen matters only
// for the V0 engine, whose chunked prefill and step budget depended on it.
//
// The reasons name the sources of the vllm flag rows
// (knowledge/data/engine-1-vllm.toml): the batch tiers of EngineArgs'
// batch defaults (PR #12369 for the ≥ 70 GiB non-A100 tier, PR #51726 for
// the ≥ 160 GiB tier, which vllm issue #53961 shows also catches MI300X),
// CacheConfig.gpu_memory_utilization (0.9 in the v0.10/v0.11-era cache
// config, 0.92 in the 2026 development copy read; the release that changed
// it is not pinned) and the V0 rules of releases before 0.8.
func VLLMDefaults(minor int, gpuMemGiB float64, gpuName, entry string, maxModelLen int) Defaults {
	d := Defaults{BlockSize: 16, Why: map[string]string{}}
	d.Utilization = 0.9
	d.Why["gpu_memory_utilization"] = "0.9, CacheConfig's default in the v0.10 and v0.11 releases (the move to 0.92 is not pinned to a release)"
	if minor >= 25 {
		d.Utilization = 0.92
		d.Why["gpu_memory_utilization"] = "0.92, CacheConfig's default in the 2026 vLLM code read (first seen in the v0.25 era; the release that changed it is not pinned)"
	}
	if minor > 0 && minor < 8 {
		d.MaxNumSeqs = 256
		d.Why["max_num_seqs"] = "256, the V0 engine's default (releases before 0.8)"
		if maxModelLen > 32768 {
			d.ChunkedPrefill = true
			d.MaxNumBatchedTokens = 512
			d.Why["max_num_batched_tokens"] = "512: V0 turned chunked prefill on by itself above 32K context, with a 512-token budget"
		} else {
			d.MaxNumBatchedTokens = max(maxModelLen, 2048)
			d.Why["max_num_batched_tokens"] = "max(max_model_len, 2048): V0 without chunked prefill schedules a whole prompt in one step"
		}
		return d
	}
	d.ChunkedPrefill = true
	big := gpuMemGiB >= 70 && !strings.Contains(strings.ToLower(gpuName), "a100")
	switch {
	case big:
		d.MaxNumSeqs = 1024
		d.Why["max_num_seqs"] = "1024: vLLM's batch default on GPUs of ≥ 70 GiB other than the A100 (V1 engine)"
	default:
		d.MaxNumSeqs = 256
		d.Why["max_num_seqs"] = "256: vLLM's batch default on GPUs under 70 GiB and on the A100 (V1 engine)"
	}
	switch {
	case entry == EntryLLM && big:
		d.MaxNumBatchedTokens = 16384
		d.Why["max_num_batched_tokens"] = "16384: the LLM class's batch default on ≥ 70 GiB non-A100 GPUs"
	case entry == EntryLLM:
		d.MaxNumBatchedTokens = 8192
		d.Why["max_num_batched_tokens"] = "8192: the LLM class's batch default on smaller GPUs and the A100"
	case big && gpuMemGiB >= 160 && minor >= 28:
		d.MaxNumBatchedTokens = 16384
		d.Why["max_num_batched_tokens"] = "16384: vllm serve's batch default on GPUs of ≥ 160 GiB since PR #51726 (v0.28 era); the tier goes by memory alone, so it also catches MI300X (vllm issue #53961)"
	case big:
		d.MaxNumBatchedTokens = 8192
		d.Why["max_num_batched_tokens"] = "8192: vllm serve's batch default on ≥ 70 GiB non-A100 GPUs"
	default:
		d.MaxNumBatchedTokens = 2048
		d.Why["max_num_batched_tokens"] = "2048: vllm serve's batch default on GPUs under 70 GiB and on the A100"
	}
	return d
}

// CUDAGraphCaptureMax is vLLM's default --max-cudagraph-capture-size:
// min(max_num_seqs × (1 + speculative tokens) × 2, ceiling), then capped at
// max_num_batched_tokens. The ceiling is 512, or 1024 on GPUs of the SM100
// family (B200, B300); vllm/config/vllm.py (_set_cudagraph_sizes) in the
// development copy the flag row cites.
const (
	CUDAGraphCeiling      = 512  // most GPUs
	CUDAGraphCeilingSM100 = 1024 // the SM100 family (B200, B300)
)

func CUDAGraphCaptureMax(maxNumSeqs, specTokens, maxNumBatchedTokens, ceiling int) int {
	return min(maxNumSeqs*(1+specTokens)*2, ceiling, maxNumBatchedTokens)
}

// Resolve fills the zero settings of in from d and the model: TP and PP 1,
// max_model_len the native context, dtypes auto, context = max_model_len.
func Resolve(in Input, d Defaults) Input {
	s := &in.Settings
	if s.TP == 0 {
		s.TP = 1
	}
	if s.PP == 0 {
		s.PP = 1
	}
	if s.Utilization == 0 {
		s.Utilization = d.Utilization
	}
	if s.FreeMemoryFraction == 0 {
		s.FreeMemoryFraction = d.FreeMemoryFraction
	}
	if s.MaxModelLen == 0 {
		s.MaxModelLen = in.Arch.NativeContext
	}
	if s.MaxNumSeqs == 0 {
		s.MaxNumSeqs = d.MaxNumSeqs
	}
	if s.MaxNumBatchedTokens == 0 {
		s.MaxNumBatchedTokens = d.MaxNumBatchedTokens
	}
	if s.ChunkedPrefill == nil {
		on := d.ChunkedPrefill
		s.ChunkedPrefill = &on
	}
	if s.BlockSize == 0 {
		s.BlockSize = d.BlockSize
	}
	if s.WeightsDType == "" {
		s.WeightsDType = "auto"
	}
	if s.KVCacheDType == "" {
		s.KVCacheDType = "auto"
	}
	if s.ContextTokens == 0 {
		s.ContextTokens = s.MaxModelLen
	}
	if s.MinConcurrency == 0 {
		s.MinConcurrency = 1
	}
	return in
}
