package sizing

import (
	"math"
	"strings"
)

// Engines whose memory the sizing models. Settings.Engine "" is vLLM.
const (
	EngineVLLM   = "vllm"
	EngineSGLang = "sglang"
)

// SGLang's memory model, as its server-argument resolution writes it
// (python/sglang/srt/arg_groups/memory_hook.py, handle_gpu_memory_settings,
// and model_runner_kv_cache_mixin.py, profile_max_num_token, in the stored
// copies named by SGLangMemorySource):
//
//   - --mem-fraction-static is (weights + KV pool) / GPU memory; unset, it
//     is (GPU memory − reserved) / GPU memory, rounded to 3 decimals, where
//     reserved (MiB) = 512 + 1.5 × max(chunked-prefill size, 2048)
//   - TP × PP / 8 × 1024 + the CUDA graphs' reserve, and at least
//     10 GiB on GPUs over 60 GiB. What it leaves out (activations, CUDA
//     graphs, the attention backend's metadata) is the rest of the GPU.
//   - The CUDA graphs' reserve is 2 MiB per decode batch size up to the
//     decode graph's largest batch (a tier of GPU memory and TP), plus
//     8 MiB per prefill graph bucket (1.5 GiB for MLA models); the prefill
//     graph is off by default under pipeline parallelism.
//   - The KV pool is the free memory after loading minus the memory left
//     outside the fraction: mem_fraction_static × GPU memory − weights
//     − what else is already allocated (CUDA context, NCCL buffers).
//
// What is estimated here: the GPU memory SGLang reads (the catalog's
// figure, in MiB), the memory already in use beside the weights (the
// catalog's non-torch figure, measured on vLLM), and the paths the
// defaults take for a dense model with no DP attention, DeepEP, speculative
// decoding or vision tower (each changes the reserve).
const SGLangMemorySource = "sgl-project/sglang python/sglang/srt/arg_groups/memory_hook.py @031ed82d (handle_gpu_memory_settings, reserve_for_graph_mb); python/sglang/srt/arg_groups/cuda_graph_hook.py @019667ad (generate_prefill_cuda_graph_batch_sizes); python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py @001ccef0 (profile_max_num_token)"

// SGLang's constants, in MiB as its code writes them.
const (
	sglangBaseReserveMiB      = 512
	sglangActivationPerToken  = 1.5
	sglangMinActivationToks   = 2048
	sglangParallelMiBPer8     = 1024
	sglangBigGPUFloorMiB      = 10 * 1024
	sglangBigGPUMiB           = 60 * 1024
	sglangDecodeGraphMiBPerBS = 2
	sglangPrefillGraphMiB     = 8
	sglangMLAPrefillGraphMiB  = 1536
	// sglangLlama2PrefillCap is the prefill graph's largest bucket for
	// Llama-2 models.
	sglangLlama2PrefillCap = 4096
)

// sglangTier is SGLang's capacity default for one band of GPU memory: the
// chunked-prefill size and the decode CUDA graph's largest batch (below
// and from TP 4).
type sglangTier struct {
	belowMiB        float64
	chunk           int
	decodeBS        int
	decodeBSFromTP4 int
	gpus            string
}

var sglangTiers = []sglangTier{
	{20 * 1024, 2048, 8, 8, "T4, 4080"},
	{35 * 1024, 4096, 48, 160, "A10, 4090, 5090"},
	{60 * 1024, 4096, 32, 160, "A100 40GB, L40"},
	{90 * 1024, 8192, 256, 512, "H100, A100"},
	{160 * 1024, 8192, 256, 512, "H20, H200"},
	{math.Inf(1), 16384, 512, 512, "B200, MI300"},
}

func sglangTierOf(gpuMemGiB float64) sglangTier {
	mib := gpuMemGiB * 1024
	for _, t := range sglangTiers {
		if mib < t.belowMiB {
			return t
		}
	}
	return sglangTiers[len(sglangTiers)-1]
}

// SGLangDefaults returns SGLang's defaults that shape memory for a GPU:
// the chunked-prefill size of its memory tier, page size 1 (the KV pool
// counts single tokens), and 2048 running requests, the floor of the
// derived default (min(max(KV tokens / context × 512, 2048), 4096)).
// The memory fraction depends on the layout, so Size works it out.
func SGLangDefaults(gpuMemGiB float64) Defaults {
	t := sglangTierOf(gpuMemGiB)
	return Defaults{
		MaxNumSeqs: 2048, MaxNumBatchedTokens: t.chunk, ChunkedPrefill: true, BlockSize: 1,
		Why: map[string]string{
			"max_num_batched_tokens": f("%s: SGLang's chunked-prefill size for GPUs of this memory (%s class)", n(t.chunk), t.gpus),
			"max_num_seqs":           "2048: the floor of SGLang's derived --max-running-requests (KV tokens / context × 512, between 2048 and 4096)",
			"block_size":             "1: SGLang's default page size, so the KV pool counts tokens, not blocks",
		},
	}
}

// sglangStatic is SGLang's --mem-fraction-static for a layout, with the
// reserve it leaves outside and the formula.
type sglangStatic struct {
	fraction    float64
	reservedMiB float64
	formula     string
}

// prefillBuckets is how many prefill CUDA graph sizes SGLang captures up
// to maxBS tokens.
func prefillBuckets(maxBS int) int {
	count := 0
	add := func(from, to, step int) {
		for s := from; s <= to && s <= maxBS; s += step {
			count++
		}
	}
	add(4, 32, 4)
	add(48, 256, 16)
	add(288, 512, 32)
	add(576, 1024, 64)
	add(1280, 4096, 256)
	add(4608, maxBS, 512)
	return count
}

func sglangStaticOf(in Input) sglangStatic {
	a, h, s := in.Arch, in.Hardware, in.Settings
	gpuMiB := h.MemoryGiB * 1024
	t := sglangTierOf(h.MemoryGiB)
	decodeBS := t.decodeBS
	if s.TP >= 4 {
		decodeBS = t.decodeBSFromTP4
	}
	chunk := s.MaxNumBatchedTokens
	actTokens := max(chunk, sglangMinActivationToks)
	parallel := float64(s.TP*s.PP) / 8 * sglangParallelMiBPer8
	decodeGraph := float64(decodeBS * sglangDecodeGraphMiBPerBS)
	prefillGraph, prefillWhy := 0.0, "prefill graph off under pipeline parallelism"
	if s.PP == 1 {
		if a.KVLoraRank > 0 {
			prefillGraph, prefillWhy = sglangMLAPrefillGraphMiB, "prefill graph 1,536 (MLA)"
		} else {
			maxBS := chunk
			if strings.Contains(strings.ToLower(a.Name), "llama-2") {
				maxBS = min(maxBS, sglangLlama2PrefillCap)
			}
			b := prefillBuckets(maxBS)
			prefillGraph = float64(b * sglangPrefillGraphMiB)
			prefillWhy = f("prefill graph %d buckets × %d", b, sglangPrefillGraphMiB)
		}
	}
	sum := sglangBaseReserveMiB + float64(actTokens)*sglangActivationPerToken + parallel + decodeGraph + prefillGraph
	reserved := sum
	floor := ""
	if gpuMiB > sglangBigGPUMiB && reserved < sglangBigGPUFloorMiB {
		reserved = sglangBigGPUFloorMiB
		floor = f(", raised to the 10,240 MiB floor of GPUs over 60 GiB")
	}
	frac := 0.0
	if gpuMiB > 0 {
		frac = math.Round((gpuMiB-reserved)/gpuMiB*1000) / 1000
	}
	formula := f("reserved = 512 + 1.5 × max(chunk %s, 2,048) + TP %d × PP %d / 8 × 1,024 + CUDA graphs (decode %d × 2 + %s) = %s MiB%s; (%s − %s) / %s MiB = %s",
		n(chunk), s.TP, s.PP, decodeBS, prefillWhy, n(int64(math.Round(sum))), floor,
		n(int64(math.Round(gpuMiB))), n(int64(math.Round(reserved))), n(int64(math.Round(gpuMiB))), trimFloat(frac))
	return sglangStatic{fraction: frac, reservedMiB: reserved, formula: formula}
}

// SGLangMemFraction is SGLang's default --mem-fraction-static for the
// resolved input's layout and its formula, for the launch command's
// defense.
func SGLangMemFraction(in Input) (float64, string) {
	st := sglangStaticOf(in)
	return st.fraction, st.formula
}
