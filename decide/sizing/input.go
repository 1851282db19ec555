package sizing

import (
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// Arch is a model's architecture as the sizing needs it.
type Arch struct {
	Name                string
	ParamsB             float64 // total parameters, billions
	ActiveParamsB       float64 // per token, for MoE; 0 means ParamsB
	Layers              int
	Heads               int
	KVHeads             int
	HeadDim             int
	Hidden              int
	Intermediate        int
	Vocab               int
	TiedEmbed           bool
	Experts             int
	ExpertsPerToken     int
	MoEIntermediate     int
	KVLoraRank          int
	QKRopeHeadDim       int
	SlidingWindow       int
	SlidingWindowLayers int
	NativeContext       int
	NativeDType         string  // bf16, fp16, fp8, mxfp4
	NativeWeightsGiB    float64 // measured or published, for mixed-precision checkpoints
}

// ArchOf converts a catalog model.
func ArchOf(m *knowledge.Model) Arch {
	return Arch{
		Name: m.ID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Layers: m.Layers, Heads: m.Heads, KVHeads: m.KVHeads, HeadDim: m.HeadDim,
		Hidden: m.Hidden, Intermediate: m.Intermediate, Vocab: m.Vocab, TiedEmbed: m.TiedEmbed,
		Experts: m.Experts, ExpertsPerToken: m.ExpertsPerToken, MoEIntermediate: m.MoEIntermediate,
		KVLoraRank: m.KVLoraRank, QKRopeHeadDim: m.QKRopeHeadDim,
		SlidingWindow: m.SlidingWindow, SlidingWindowLayers: m.SlidingWindowLayers,
		NativeContext: m.NativeContext, NativeDType: m.NativeDType, NativeWeightsGiB: m.NativeWeightsGiB,
	}
}

// Hardware is one GPU as the engine sees it.
type Hardware struct {
	Name             string
	Vendor           string
	MemoryGiB        float64 // one GPU's total as vLLM reports it
	BandwidthTBs     float64
	NonTorchGiB      float64 // single-GPU engine
	NonTorchMultiGiB float64 // per GPU when the engine spans GPUs
	NonTorchSource   string
}

// HardwareOf converts a catalog GPU.
func HardwareOf(gp *knowledge.GPU) Hardware {
	return Hardware{Name: gp.ID, Vendor: gp.Vendor, MemoryGiB: gp.MemoryGiB, BandwidthTBs: gp.BandwidthTBs,
		NonTorchGiB: gp.NonTorchGiB, NonTorchMultiGiB: gp.NonTorchMultiGiB, NonTorchSource: gp.NonTorchSources.CiteChecked(true)}
}

// Draft is a speculative-decoding draft model whose layers share the KV pool.
type Draft struct {
	Layers  int
	KVHeads int
	HeadDim int
	ParamsB float64
}

// Settings are the engine settings that shape memory. Zero values are
// filled from the engine's defaults by Resolve.
type Settings struct {
	// Engine is whose memory model sizes the KV pool: "" or EngineVLLM
	// (gpu-memory-utilization minus the profiled activation peak), or
	// EngineSGLang (mem-fraction-static, see sglang.go).
	Engine      string
	TP          int
	PP          int
	Utilization float64
	// FreeMemoryFraction, when > 0, switches the KV pool to TensorRT-LLM's
	// model: this share of the memory free after weights, activations and
	// non-torch buffers (kv_cache_free_gpu_memory_fraction).
	FreeMemoryFraction  float64
	MaxModelLen         int
	MaxNumBatchedTokens int
	MaxNumSeqs          int
	// ChunkedPrefill is nil for the engine default (always on in vLLM V1).
	// Off, a step must hold a whole max-model-len prompt.
	ChunkedPrefill *bool
	WeightsDType   string // auto, bf16, fp16, fp8, int4, mxfp4
	KVCacheDType   string // auto, bf16, fp8, fp8_e4m3, fp8_e5m2
	BlockSize      int
	// WeightsGiBPerGPU, when > 0, is a measured figure (vLLM's "Model
	// loading took X GiB") and replaces the computed weights.
	WeightsGiBPerGPU float64
	// ContextTokens is the request length concurrency is counted at
	// (default MaxModelLen).
	ContextTokens int
	GPUsPerNode   int
	// MinConcurrency is the headroom SmallestTP asks for: the KV pool must
	// hold this many requests of ContextTokens.
	MinConcurrency int
	// MinConcurrencyIs says where MinConcurrency comes from, as the words
	// after the number in "fewer than the 8 …" (for example "assumed:
	// latency_priority balanced's headroom; concurrent_requests is not
	// stated"); "" reads "asked for" (a figure the caller stated).
	MinConcurrencyIs string
}

// Input is everything one sizing needs.
type Input struct {
	Arch     Arch
	Hardware Hardware
	Settings Settings
	Draft    *Draft
}

// weightsDTypes and kvDTypes are the spellings Size accepts.
var (
	WeightsDTypes = []string{"auto", "bf16", "fp16", "fp8", "int4", "mxfp4"}
	KVDTypes      = []string{"auto", "bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"}
)

func kvBytes(dtype string) int {
	if strings.HasPrefix(dtype, "fp8") {
		return 1
	}
	return 2
}
