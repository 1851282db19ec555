package decide

import (
	"fmt"
	"math"
	"strings"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// llamacppConfig sizes llama-server and writes its command: a GGUF file at
// a quant that fits, the context for all slots together (-c = per-slot
// context × -np), the layers the GPUs hold (-ngl), the KV cache type, and
// metrics and a reachable address. Where the memory model is not public
// (the compute buffer) the figure says it is estimated.
func llamacppConfig(c *Compiled, a knowledge.Answers, ec *EngineConfig) *EngineConfig {
	kb := c.kb
	m := kb.Model(a.Get(knowledge.KeyModel).Str)
	gp := kb.GPU(a.Get(knowledge.KeyGPU).Str)
	if m == nil || gp == nil {
		ec.Note = "the model or GPU is not in the catalog; no sizing"
		return ec
	}
	ec.EngineVersion, ec.Release = llamacppVersion(kb), EngineRelease(kb, knowledge.EngineLlamaCpp)
	ec.Covered, ec.Model, ec.HFID, ec.GPU = true, m.ID, m.HFID, gp.ID
	perNode := a.Get(knowledge.KeyGPUsPerNode).Int
	gpus := perNode
	if gp.MemoryGiB <= 0 {
		gpus = 0
	}

	ctx := a.Get(knowledge.KeyContextTokens).Int
	slotCtx := min(ctx, m.NativeContext)
	if ctx > m.NativeContext {
		ec.Notes = append(ec.Notes, fmt.Sprintf("context_tokens %d is above %s's native context of %d: each slot's context is capped there", ctx, m.Name, m.NativeContext))
	}
	it := intentOf(a)
	slots, slotsWhy := 1, "concurrent_requests is not stated: one slot, one request decoding at a time; raise -np to the requests that should decode together (the KV cache grows with it)"
	if it.concurrent > 0 {
		slots = max(1, ceilDiv(it.concurrent, it.replicas))
		slotsWhy = fmt.Sprintf("concurrent_requests %s over %s = %s per server", num(int64(it.concurrent)), plural(it.replicas, "replica"), plural(slots, "slot"))
	}

	cache := sizing.CacheF16
	if strings.HasPrefix(a.Get(knowledge.KeyKVCacheDType).Str, "fp8") {
		cache = sizing.CacheQ8_0
	}
	base := sizing.LlamaCppInput{Arch: sizing.ArchOf(m), Hardware: sizing.HardwareOf(gp), GPUs: gpus,
		CacheType: cache, SlotContext: slotCtx, Slots: slots}
	r, quantWhy, err := chooseQuant(base, a.Get(knowledge.KeyWeightsDType).Str)
	if err != nil {
		ec.Covered = false
		ec.Note = err.Error()
		return ec
	}
	ec.Sizing = llamacppResult(m, gp, r, base)
	if r.CtxSize > math.MaxInt32 {
		// common/arg.cpp's -c handler takes an int: a larger -c cannot be
		// passed, so no command is written.
		ec.Covered = false
		ec.Note = fmt.Sprintf("llama-server's -c would be %s tokens (%s per slot × %s), above %s, the largest value its integer -c option holds: lower context_tokens or concurrent_requests, or run several servers",
			num(int64(r.CtxSize)), num(int64(slotCtx)), plural(slots, "slot"), num(math.MaxInt32))
		return ec
	}
	if r.RAMGiB > hostRAMBoundGiB {
		ec.Notes = append(ec.Notes, fmt.Sprintf("implausible: llama-server would need about %s of system RAM, above %s, more than stackpick takes one host to hold (the answers do not give the host's RAM); the command is written, but lower context_tokens or concurrent_requests (-c and -np), quantize the KV cache, or split the traffic over several servers",
			gib(r.RAMGiB), gib(hostRAMBoundGiB)))
	}

	file := fmt.Sprintf("%s-%s.gguf", m.ID, r.Quant)
	emit(kb, ec, knowledge.FlagLlamaCppModel, file,
		fmt.Sprintf("a GGUF file of %s at %s (%s): %s; convert the checkpoint with llama.cpp's convert_hf_to_gguf.py and quantize it, or download a ready GGUF file with -hf <user>/<repo>:%s instead", m.HFID, r.Quant, gib(r.WeightsGiB), quantWhy, r.Quant))
	emit(kb, ec, knowledge.FlagLlamaCppAlias, m.ID, "the model name the OpenAI-compatible API reports; stays stable when the GGUF file behind it changes")
	emit(kb, ec, knowledge.FlagLlamaCppCtxSize, fmt.Sprint(r.CtxSize),
		fmt.Sprintf("%s tokens per slot × %s: -c is the KV cache for all slots together, and without a unified KV cache each slot gets c / np; KV %s (%s B per token in %s)",
			num(int64(slotCtx)), plural(slots, "slot"), gib(r.KVGiB), sizing.FormatValue(r.KVBytesToken, ""), cache))
	emit(kb, ec, knowledge.FlagLlamaCppParallel, fmt.Sprint(slots), slotsWhy)
	if gpus > 0 {
		if r.AllOnGPU {
			emit(kb, ec, knowledge.FlagLlamaCppNGPULayers, fmt.Sprint(m.Layers+1),
				fmt.Sprintf("every one of the %d layers and the output layer in VRAM (a value above the layer count offloads them all): weights %s + KV %s fit the %s", m.Layers, gib(r.WeightsGiB), gib(r.KVGiB), gpuWords(gpus, gp)))
		} else {
			emit(kb, ec, knowledge.FlagLlamaCppNGPULayers, fmt.Sprint(r.GPULayers),
				fmt.Sprintf("%d of %d layers fit the %s (%s each of weights and KV); the other %d run on the CPU from system RAM (%s), so decode speed follows the host's memory bandwidth",
					r.GPULayers, m.Layers, gpuWords(gpus, gp), gib(r.PerLayerGiB), m.Layers-r.GPULayers, gib(r.RAMGiB)))
		}
	} else {
		ec.Notes = append(ec.Notes, fmt.Sprintf("CPU only: llama-server needs about %s of system RAM for weights, KV cache and compute buffer (plus the OS); the answers do not give the host's RAM or memory bandwidth, so check both: every generated token reads all %s of weights from RAM", gib(r.RAMGiB), gib(r.WeightsGiB)))
	}
	if cache == sizing.CacheQ8_0 {
		emit(kb, ec, knowledge.FlagLlamaCppCacheTypeK, cache, fmt.Sprintf("kv_cache_dtype %s asks for a 1-byte cache; llama.cpp's nearest is q8_0, 34 B per 32 values instead of f16's 64, so the cache holds about 1.9 times the tokens", a.Get(knowledge.KeyKVCacheDType).Str))
		emit(kb, ec, knowledge.FlagLlamaCppCacheTypeV, cache, "the V cache at q8_0 too; gate the quantized cache on an eval")
		emit(kb, ec, knowledge.FlagLlamaCppFlashAttn, "on", "a quantized V cache needs Flash Attention: llama.cpp refuses to start with one when auto turns Flash Attention off")
	}
	emit(kb, ec, knowledge.FlagLlamaCppMetrics, "", "the Prometheus endpoint is off by default; its slot and token counters are how you check this sizing")
	emit(kb, ec, knowledge.FlagLlamaCppHost, "0.0.0.0", "the default address accepts only local connections; listen on every interface so clients (or a proxy) on the network reach it")
	emit(kb, ec, knowledge.FlagLlamaCppPort, "8080", "named so the port does not depend on the build's default")

	keep(kb, ec, knowledge.FlagLlamaCppContBatching, "on by default: new requests join the running slots between decode steps")
	keep(kb, ec, knowledge.FlagLlamaCppKVUnified, fmt.Sprintf("off: each slot gets c / np = %s tokens, as sized; with it one slot may use the whole -c while the others wait for room", num(int64(slotCtx))))
	if gpus > 1 {
		keep(kb, ec, knowledge.FlagLlamaCppSplitMode, fmt.Sprintf("layer by default: the %d GPUs each hold whole layers and their KV and work in turn, which is why the decode ceiling counts one GPU's bandwidth", gpus))
	}
	if cache != sizing.CacheQ8_0 {
		keep(kb, ec, knowledge.FlagLlamaCppCacheTypeK, "f16 by default, 2 bytes per value, as sized")
	}
	keep(kb, ec, knowledge.FlagLlamaCppHFRepo, "not used: the catalog names the model's safetensors checkpoint, not a GGUF repository; -hf <user>/<repo>:"+r.Quant+" replaces -m when one exists")
	if nodes := a.Get(knowledge.KeyNodes).Int; nodes > 1 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("%d nodes: run this command on each node; llama-server has no multi-node mode in this command, so each node is a replica of its own", nodes))
	}
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA && a.Get(knowledge.KeyFineTunes).Int > 0 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("%d fine-tunes as LoRA adapters: this command does not load them (llama.cpp takes GGUF adapters with --lora, which the knowledge base does not cover yet)", a.Get(knowledge.KeyFineTunes).Int))
	}
	if it.disaggregation {
		ec.Notes = append(ec.Notes, "disaggregation is not set up: llama-server runs prefill and decode in the same slots")
	}
	ec.CommandText = commandText(ec)
	nodes := max(1, a.Get(knowledge.KeyNodes).Int)
	ec.Servers, ec.GPUsPerServer = nodes, gpus
	where := "on each of the " + plural(nodes, "node")
	if nodes == 1 {
		where = "on the node"
	}
	ec.ServersWhy = fmt.Sprintf("one llama-server %s, using %s", where, plural(gpus, "GPU"))
	if gpus == 0 {
		ec.ServersWhy = fmt.Sprintf("one llama-server %s, on the CPU", where)
	}
	return ec
}

// chooseQuant picks the GGUF quant: the weights_dtype asked for, else on
// GPUs the largest that keeps every layer in VRAM (Q4_K_M when none does),
// and on a CPU Q4_K_M, the fewest bytes each token reads from RAM among
// the quants the command names (and -hf's default).
func chooseQuant(base sizing.LlamaCppInput, wd string) (sizing.LlamaCppResult, string, error) {
	size := func(name string) (sizing.LlamaCppResult, error) {
		q, _ := sizing.GGUFQuantByName(name)
		in := base
		in.Quant = q
		return sizing.SizeLlamaCpp(in)
	}
	switch wd {
	case knowledge.DTypeBF16:
		r, err := size("F16")
		return r, "weights_dtype bf16 keeps 16 bits per weight (GGUF's f16)", err
	case knowledge.DTypeFP8:
		r, err := size("Q8_0")
		return r, "weights_dtype fp8 asks for about a byte per weight; llama.cpp's nearest is Q8_0 at 8.5 bits", err
	case knowledge.DTypeInt4:
		r, err := size("Q4_K_M")
		return r, "weights_dtype int4: Q4_K_M, about 4.89 bits per weight on average (q4_K tensors with some at q6_K)", err
	}
	if base.GPUs == 0 {
		r, err := size("Q4_K_M")
		return r, "on a CPU each generated token reads all the weights from RAM, so the smallest quant here, Q4_K_M (also -hf's default), decodes fastest; Q8_0 would read about 1.9 times as many bytes", err
	}
	var last sizing.LlamaCppResult
	for _, q := range sizing.GGUFQuants[1:] { // F16 only when asked for
		r, err := size(q.Name)
		if err != nil {
			return r, "", err
		}
		if r.AllOnGPU {
			return r, fmt.Sprintf("the largest quant whose layers all fit in VRAM (tried from Q8_0 down; about %s bits per weight on average)", trim(bitsOf(q.Name))), nil
		}
		last = r
	}
	return last, "no quant keeps every layer in VRAM, so the smallest, Q4_K_M, puts the most layers there", nil
}

// hostRAMBoundGiB is the system RAM stackpick takes one host to hold at
// most (2 TiB, a stated bound, not a catalog figure): a llama.cpp sizing
// above it is flagged as implausible.
const hostRAMBoundGiB = 2048.0

func bitsOf(name string) float64 {
	q, _ := sizing.GGUFQuantByName(name)
	return q.BitsPerWeight
}

func gpuWords(gpus int, gp *knowledge.GPU) string {
	if gpus == 1 {
		return gp.Name
	}
	return fmt.Sprintf("%d × %s", gpus, gp.Name)
}

// llamacppResult is the sizing in the shape the result screen, memo and
// topology read.
func llamacppResult(m *knowledge.Model, gp *knowledge.GPU, r sizing.LlamaCppResult, in sizing.LlamaCppInput) *sizing.Result {
	perGPU := r.WeightsGiB
	if in.GPUs > 0 {
		perGPU = r.WeightsGiB * float64(r.GPULayers) / float64(max(1, r.Layers)) / float64(in.GPUs)
	}
	return &sizing.Result{Model: m.ID, GPU: gp.ID, TensorParallelSize: 1, PipelineParallelSize: 1,
		MaxModelLen: in.SlotContext, MaxNumSeqs: in.Slots, ChunkedPrefill: true, BlockSize: 1,
		WeightsDType: r.Quant, KVCacheDType: r.CacheType, WeightsGiBPerGPU: perGPU,
		KVBytesPerTokenPerGPU: int64(r.KVBytesToken), KVPoolGiBPerGPU: r.KVGiB, KVCacheTokens: int64(r.CtxSize),
		ContextTokens: in.SlotContext, KVBytesPerRequest: int64(r.KVBytesToken * float64(in.SlotContext)),
		MaxConcurrency: float64(in.Slots), ReplicasPerNode: 1, DecodeTokensPerSecond: r.DecodeCeiling,
		Fits: true, Figures: r.Figures}
}

// llamacppVersion names what the flags were read at: no stored source ties
// llama.cpp's argument parser to a release tag, so the commit is named.
func llamacppVersion(kb *knowledge.KB) string {
	if f := kb.Flag(knowledge.FlagLlamaCppParallel); f != nil {
		for _, s := range f.Sources.OfRepo() {
			if s.Commit == "" {
				continue
			}
			if s.Ref != "" {
				return "llama.cpp " + s.Ref
			}
			return "llama.cpp, flags as of commit " + knowledge.Short(s.Commit)
		}
	}
	return "llama.cpp"
}
