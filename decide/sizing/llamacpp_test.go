package sizing

import (
	"math"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

func llamaArch(t *testing.T, id string) Arch {
	t.Helper()
	m := knowledge.MustDefault().Model(id)
	if m == nil {
		t.Fatalf("no model %s", id)
	}
	return ArchOf(m)
}

// The GGUF arithmetic: params × bits / 8 for the weights, the model
// shape's K and V per token at the cache type's bytes, -c = per-slot
// context × slots, and on a CPU the RAM it all needs.
func TestLlamaCppSizingOnACPU(t *testing.T) {
	q, _ := GGUFQuantByName("Q4_K_M")
	a := llamaArch(t, "llama-3.1-8b")
	r, err := SizeLlamaCpp(LlamaCppInput{Arch: a, Quant: q, CacheType: CacheF16, SlotContext: 8192, Slots: 4})
	if err != nil {
		t.Fatal(err)
	}
	// 4.58 GiB is the Q4_K_M size llama.cpp's quantize README measured for Llama-3.1-8B.
	if want := a.ParamsB * 1e9 * 4.8944 / 8 / GiB; math.Abs(r.WeightsGiB-want) > 1e-9 || math.Abs(r.WeightsGiB-4.58) > 0.05 {
		t.Errorf("weights %v, want %v", r.WeightsGiB, want)
	}
	if r.KVBytesToken != 131072 || r.CtxSize != 32768 {
		t.Errorf("KV per token %v, -c %d; want 131,072 B (2 × 32 × 8 × 128 × 2) and 32,768", r.KVBytesToken, r.CtxSize)
	}
	if want := r.WeightsGiB + r.KVGiB + r.ComputeGiB; math.Abs(r.RAMGiB-want) > 1e-9 || r.GPULayers != 0 {
		t.Errorf("RAM %v want %v; GPU layers %d", r.RAMGiB, want, r.GPULayers)
	}
	q8, err := SizeLlamaCpp(LlamaCppInput{Arch: a, Quant: q, CacheType: CacheQ8_0, SlotContext: 8192, Slots: 4})
	if err != nil || q8.KVBytesToken != 131072*34.0/64 {
		t.Errorf("q8_0 KV per token %v (%v), want 34/64 of f16's", q8.KVBytesToken, err)
	}
}

// On GPUs: everything fits, or floor(usable / per-layer) layers do.
func TestLlamaCppSizingOffloadsLayers(t *testing.T) {
	kb := knowledge.MustDefault()
	q, _ := GGUFQuantByName("Q4_K_M")
	a := llamaArch(t, "llama-3.3-70b")
	h := HardwareOf(kb.GPU("rtx-4090"))
	r, err := SizeLlamaCpp(LlamaCppInput{Arch: a, Hardware: h, GPUs: 1, Quant: q, CacheType: CacheF16, SlotContext: 8192, Slots: 1})
	if err != nil {
		t.Fatal(err)
	}
	usable := h.MemoryGiB - r.ComputeGiB - h.NonTorchGiB
	if r.AllOnGPU || r.GPULayers != int(math.Floor(usable/r.PerLayerGiB)) {
		t.Errorf("70B on a 4090: %d layers on the GPU, all %v; want floor(%v / %v)", r.GPULayers, r.AllOnGPU, usable, r.PerLayerGiB)
	}
	two, _ := SizeLlamaCpp(LlamaCppInput{Arch: a, Hardware: HardwareOf(kb.GPU("h100")), GPUs: 2, Quant: q, CacheType: CacheF16, SlotContext: 8192, Slots: 1})
	if !two.AllOnGPU || two.DecodeCeiling <= 0 {
		t.Errorf("70B Q4_K_M on 2 × H100 fits whole, with a decode ceiling: %+v", two)
	}
	if _, err := SizeLlamaCpp(LlamaCppInput{Arch: a, Quant: q, SlotContext: 0, Slots: 1}); err == nil {
		t.Error("no context: want an error")
	}
}
