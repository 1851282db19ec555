package sizing

import (
	"fmt"
	"math"
	"strings"
)

// llama.cpp's memory model, as far as it is public: GGUF weights at the
// quant type's bits per weight (ggml's block layouts), a KV cache of -c
// tokens for all slots together at the cache type's bytes per value, and a
// compute buffer llama.cpp sizes from its graph at start-up (not public:
// estimated here). Layers that do not fit the GPUs stay on the CPU (-ngl).

// GGMLSource is where the cache types' block sizes come from.
const GGMLSource = "ggml-org/ggml v0.21.0 @8599e0ea src/ggml-common.h (block layouts and their static_asserts)"

// QuantizeSource is where the file types' bits per weight come from:
// llama.cpp's quantize README measures each file type on Llama-3.1-8B. A
// K-quant file mixes block types (Q4_K_M keeps some tensors at q6_K), so
// its average is above its base block's rate.
const QuantizeSource = "ggml-org/llama.cpp @311c2c9f tools/quantize/README.md (Quantization: meta-llama/Llama-3.1-8B)"

// GGUFQuant is a llama-quantize file type as the sizing counts it: every
// weight at the file type's average bits per weight as measured on
// Llama-3.1-8B (the mix, and so the average, differs a little by model).
type GGUFQuant struct {
	Name string
	// Base is the ggml block type most of the file's tensors take.
	Base          string
	BitsPerWeight float64
	// Why is the quantize README row the rate comes from.
	Why string
}

// GGUFQuants are the quants the llama.cpp command chooses between, largest first.
var GGUFQuants = []GGUFQuant{
	{Name: "F16", Base: "f16", BitsPerWeight: 16.0005, Why: "F16: 16.0005 bits/weight, 14.96 GiB"},
	{Name: "Q8_0", Base: "q8_0", BitsPerWeight: 8.5008, Why: "Q8_0: 8.5008 bits/weight, 7.95 GiB"},
	{Name: "Q6_K", Base: "q6_K", BitsPerWeight: 6.5633, Why: "Q6_K: 6.5633 bits/weight, 6.14 GiB"},
	{Name: "Q5_K_M", Base: "q5_K", BitsPerWeight: 5.7036, Why: "Q5_K_M: 5.7036 bits/weight, 5.33 GiB"},
	{Name: "Q4_K_M", Base: "q4_K", BitsPerWeight: 4.8944, Why: "Q4_K_M: 4.8944 bits/weight, 4.58 GiB"},
}

// GGUFQuantByName finds a quant, or returns false.
func GGUFQuantByName(name string) (GGUFQuant, bool) {
	for _, q := range GGUFQuants {
		if strings.EqualFold(q.Name, name) {
			return q, true
		}
	}
	return GGUFQuant{}, false
}

// KV cache types llama.cpp's -ctk/-ctv take that the command uses, with
// their bytes per value: f16 (the default) and q8_0 (34 B per 32 values).
const (
	CacheF16  = "f16"
	CacheQ8_0 = "q8_0"
)

// cacheBytes is the bytes one K or V value takes in the cache type.
func cacheBytes(t string) float64 {
	if t == CacheQ8_0 {
		return 34.0 / 32
	}
	return 2
}

// LlamaCppUBatch is -ub's default, the physical batch the compute buffer
// is sized for (tools/server/README.md at 25d5b0c5: default 512).
const LlamaCppUBatch = 512

// LlamaCppInput is one llama-server sizing.
type LlamaCppInput struct {
	Arch Arch
	// Hardware is the GPU; MemoryGiB 0 means a CPU-only host.
	Hardware Hardware
	// GPUs is how many GPUs llama-server splits the layers over (0 on a CPU host).
	GPUs      int
	Quant     GGUFQuant
	CacheType string
	// SlotContext is each slot's context; Slots the -np slots.
	SlotContext int
	Slots       int
}

// LlamaCppResult is the sizing with the figures behind it.
type LlamaCppResult struct {
	Quant         string
	CacheType     string
	CtxSize       int // -c: all slots together
	WeightsGiB    float64
	KVBytesToken  float64 // all layers
	KVGiB         float64
	ComputeGiB    float64 // estimated
	OverheadGiB   float64 // per GPU, estimated
	GPUMemoryGiB  float64 // the GPUs' total
	Layers        int
	GPULayers     int  // layers whose weights and KV sit in VRAM
	AllOnGPU      bool // every layer and the output layer
	RAMGiB        float64
	DecodeCeiling float64 // tokens/s at batch 1 when every layer is on the GPUs; 0 otherwise
	ByteBandwidth float64
	Figures       []Figure
	PerLayerGiB   float64
}

// SizeLlamaCpp computes one llama-server sizing.
func SizeLlamaCpp(in LlamaCppInput) (LlamaCppResult, error) {
	a, h := in.Arch, in.Hardware
	switch {
	case a.Layers <= 0 || a.ParamsB <= 0:
		return LlamaCppResult{}, fmt.Errorf("model %q has no layer count or parameter count to size", a.Name)
	case in.SlotContext <= 0 || in.Slots <= 0:
		return LlamaCppResult{}, fmt.Errorf("llama.cpp sizing needs a context and at least one slot")
	case in.Quant.BitsPerWeight <= 0:
		return LlamaCppResult{}, fmt.Errorf("unknown GGUF quant %q", in.Quant.Name)
	}
	r := LlamaCppResult{Quant: in.Quant.Name, CacheType: in.CacheType, Layers: a.Layers}
	add := func(fg Figure) { r.Figures = append(r.Figures, fg) }

	// Weights.
	r.WeightsGiB = a.ParamsB * 1e9 * in.Quant.BitsPerWeight / 8 / GiB
	add(Figure{Key: "gguf_weights_gib", Name: "GGUF weights (" + in.Quant.Name + ")", Value: r.WeightsGiB, Unit: "GiB",
		Formula: f("%.2f B params × %s bits / 8 = %s GiB: %s's average bits per weight as llama.cpp measured it on Llama-3.1-8B, an estimate (the mix of tensor types differs by model; the GGUF file's size is the real figure)",
			a.ParamsB, trimFloat(in.Quant.BitsPerWeight), g(r.WeightsGiB), in.Quant.Name),
		Source: QuantizeSource + ": " + in.Quant.Why})

	// KV cache: the model shape's K and V per token (the same arithmetic
	// as vLLM's, at one GPU's view of every layer), at the cache type's bytes.
	shape := Input{Arch: a, Settings: Settings{TP: 1, PP: 1, KVCacheDType: "fp16"}}
	kv := kvPerToken(shape)
	scale := cacheBytes(in.CacheType) / 2
	r.KVBytesToken = float64(kv.total) * scale
	kvWhy := strings.Replace(kv.formula, " per GPU", "", 1)
	if in.CacheType == CacheQ8_0 {
		kvWhy = f("(%s) × 34/64 for q8_0 (34 B per 32 values instead of f16's 64) = %s B", kvWhy, FormatValue(r.KVBytesToken, ""))
	}
	add(Figure{Key: "kv_bytes_per_token", Name: "KV cache per token (" + in.CacheType + ", all layers)", Value: r.KVBytesToken, Unit: "B",
		Formula: kvWhy, Source: "-ctk/-ctv default f16 (tools/server/README.md at 25d5b0c5); q8_0 from " + GGMLSource})

	r.CtxSize = in.SlotContext * in.Slots
	add(Figure{Key: "ctx_size", Name: "-c, all slots", Value: float64(r.CtxSize), Unit: "tokens",
		Formula: f("%s tokens per slot × %s = %s: without a unified KV cache each slot gets c / np", n(in.SlotContext), slotsWord(in.Slots), n(r.CtxSize)),
		Source:  "src/llama-context.cpp at 4c7103b9, llama_context::n_ctx_per_seq: 'cparams.kv_unified ? cparams.n_ctx : cparams.n_ctx / cparams.n_seq_max'"})

	// A sliding-window layer keeps at most its window per slot (llama.cpp's
	// SWA cache unless --swa-full).
	perSlot := float64(kv.perRequest(in.SlotContext, 1)) * scale
	r.KVGiB = perSlot * float64(in.Slots) / GiB
	kvTotalWhy := f("%s × %s tokens × %s B = %s GiB", slotsWord(in.Slots), n(in.SlotContext), FormatValue(r.KVBytesToken, ""), g(r.KVGiB))
	if kv.sliding > 0 {
		kvTotalWhy = f("%s × (full layers × %s tokens + sliding-window layers × at most %s tokens) = %s GiB", slotsWord(in.Slots), n(in.SlotContext), n(min(in.SlotContext, kv.window+1)), g(r.KVGiB))
	}
	add(Figure{Key: "kv_cache_gib", Name: "KV cache", Value: r.KVGiB, Unit: "GiB", Formula: kvTotalWhy})

	// Compute buffer: llama.cpp sizes it from the graph at start-up and
	// logs it; it is not public, so a logits-sized estimate stands in.
	r.ComputeGiB = 2 * float64(LlamaCppUBatch) * float64(a.Vocab) * 4 / GiB
	add(Figure{Key: "compute_buffer_gib", Name: "Compute buffer (estimated)", Value: r.ComputeGiB, Unit: "GiB",
		Formula: f("estimate: 2 × ubatch %d × vocab %s × 4 B (f32 logits and as much again for the rest of the graph) = %s GiB; llama.cpp logs the real one at start ('compute buffer size = … MiB')", LlamaCppUBatch, n(a.Vocab), g(r.ComputeGiB)),
		Source:  "src/llama-context.cpp at 4c7103b9 logs 'compute buffer size'"})

	need := r.WeightsGiB + r.KVGiB
	r.PerLayerGiB = need / float64(a.Layers)
	if h.MemoryGiB <= 0 || in.GPUs <= 0 {
		r.RAMGiB = need + r.ComputeGiB
		add(Figure{Key: "ram_gib", Name: "System RAM for llama-server", Value: r.RAMGiB, Unit: "GiB",
			Formula: f("weights %s + KV cache %s + compute %s = %s GiB, plus the OS and other programs; the host's RAM is not in the answers", g(r.WeightsGiB), g(r.KVGiB), g(r.ComputeGiB), g(r.RAMGiB))})
		return r, nil
	}

	r.OverheadGiB = h.NonTorchGiB
	r.GPUMemoryGiB = float64(in.GPUs) * h.MemoryGiB
	usable := r.GPUMemoryGiB - float64(in.GPUs)*(r.ComputeGiB+r.OverheadGiB)
	add(Figure{Key: "gpu_memory_gib", Name: "GPU memory for weights and KV", Value: usable, Unit: "GiB",
		Formula: f("%d × %s GiB − %d × (compute %s + runtime %s) = %s GiB; the runtime figure is the catalog's CUDA overhead measured for vLLM, an estimate for llama.cpp", in.GPUs, g(h.MemoryGiB), in.GPUs, g(r.ComputeGiB), g(r.OverheadGiB), g(usable)),
		Source:  h.NonTorchSource})
	if need <= usable {
		r.AllOnGPU, r.GPULayers = true, a.Layers
		add(Figure{Key: "gpu_layers", Name: "Layers on the GPUs", Value: float64(a.Layers), Unit: "layers",
			Formula: f("weights %s + KV %s = %s GiB ≤ %s GiB: all %d layers and the output layer", g(r.WeightsGiB), g(r.KVGiB), g(need), g(usable), a.Layers)})
		r.ByteBandwidth = h.BandwidthTBs
		if h.BandwidthTBs > 0 && r.WeightsGiB > 0 {
			perGPU := r.WeightsGiB / float64(in.GPUs)
			// With the layer split each GPU reads its share in turn: the
			// step reads all the weights once, at one GPU's bandwidth.
			secs := r.WeightsGiB * GiB / (h.BandwidthTBs * 1e12)
			r.DecodeCeiling = 1 / secs
			add(Figure{Key: "decode_tokens_per_s_batch1", Name: "Decode ceiling at batch 1", Value: r.DecodeCeiling, Unit: "tokens/s",
				Formula: f("%s TB/s / %s GiB of weights (%s GiB per GPU, read one GPU after another) = %.0f tokens/s: a bandwidth roofline, real decode is slower", trimFloat(h.BandwidthTBs), g(r.WeightsGiB), g(perGPU), r.DecodeCeiling)})
		}
		return r, nil
	}
	layers := 0
	if usable > 0 {
		layers = min(a.Layers, int(math.Floor(usable/r.PerLayerGiB)))
	}
	r.GPULayers = layers
	add(Figure{Key: "gpu_layers", Name: "Layers on the GPUs", Value: float64(layers), Unit: "layers",
		Formula: f("weights %s + KV %s = %s GiB > %s GiB: floor(%s / (%s GiB per layer of weights and KV)) = %d of %d layers; the rest run on the CPU", g(r.WeightsGiB), g(r.KVGiB), g(need), g(usable), g(usable), g(r.PerLayerGiB), layers, a.Layers)})
	r.RAMGiB = float64(a.Layers-layers)*r.PerLayerGiB + r.ComputeGiB
	add(Figure{Key: "ram_gib", Name: "System RAM for the CPU layers", Value: r.RAMGiB, Unit: "GiB",
		Formula: f("%d layers × %s GiB + compute %s = %s GiB, plus the OS; decode speed then follows the host's memory bandwidth, which stackpick does not know", a.Layers-layers, g(r.PerLayerGiB), g(r.ComputeGiB), g(r.RAMGiB))})
	return r, nil
}

func slotsWord(k int) string {
	if k == 1 {
		return "1 slot"
	}
	return n(k) + " slots"
}
