package decide

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// SGLangEntryPoint is the command SGLang's releases recommend: its
// launch_server module warns "'python -m sglang.launch_server' is still
// supported, but 'sglang serve' is the recommended entrypoint."
const SGLangEntryPoint = "sglang serve"

func sglangCommand(c commandInput) {
	kb, ec, m, gp, r, plan := c.kb, c.ec, c.m, c.gp, c.r, c.plan
	a := c.a
	ec.Release = EngineRelease(kb, knowledge.EngineSGLang)
	ec.EngineVersion = strings.TrimSpace("SGLang " + ec.Release)
	ec.Notes = append(ec.Notes, "the sizing follows SGLang's memory model: --mem-fraction-static covers weights and the KV pool, and SGLang works out what it leaves for activations and CUDA graphs from the chunked-prefill size, the decode graph's batch and TP × PP; estimated here: the memory in use beside the weights (the catalog's figure, measured on vLLM) and the GPU memory SGLang reads, and not modelled: DP attention, DeepEP, speculative decoding and vision towers, which each reserve more")
	if gp.Vendor == "amd" {
		ec.Notes = append(ec.Notes, "AMD: with the aiter attention backend and a context over 8,192 tokens SGLang scales --mem-fraction-static by 0.85 at start (even a value given on the command line, unless SGLANG_AITER_HONOR_EXPLICIT_MEM_FRACTION is set), so the KV pool is smaller than sized here; check the pool size SGLang logs")
	}
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA && a.Get(knowledge.KeyFineTunes).Int > 0 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("%d fine-tunes as LoRA adapters: this command does not load them; SGLang takes adapters with its LoRA server arguments (lora paths and adapters per batch), which stackpick's knowledge base does not cover yet: add them before serving the tenants", a.Get(knowledge.KeyFineTunes).Int))
	}
	emit(kb, ec, knowledge.FlagSGLangModelPath, m.HFID, "the model to serve")
	emit(kb, ec, knowledge.FlagSGLangTPSize, fmt.Sprint(r.TensorParallelSize), tpDefense(r, ec.Tried, gp, plan, c.lay))
	if r.PipelineParallelSize > 1 {
		emit(kb, ec, knowledge.FlagSGLangPPSize, fmt.Sprint(r.PipelineParallelSize),
			fmt.Sprintf("the model does not fit one node of %s; %d stages of %d layers each", plural(c.perNode, "GPU"), r.PipelineParallelSize, (m.Layers+r.PipelineParallelSize-1)/r.PipelineParallelSize))
	}
	if n := c.spanNodes(); n > 1 {
		emit(kb, ec, knowledge.FlagSGLangNNodes, fmt.Sprint(n),
			fmt.Sprintf("one replica is TP %d × PP %d = %d GPUs, more than a node's %d: it spans %d nodes, each running this command", r.TensorParallelSize, r.PipelineParallelSize, r.TensorParallelSize*r.PipelineParallelSize, c.perNode, n))
		emit(kb, ec, knowledge.FlagSGLangNodeRank, "${NODE_RANK}", "0 on the node named in --dist-init-addr, "+otherRanks(n))
		emit(kb, ec, knowledge.FlagSGLangDistInitAddr, "${HEAD_NODE_IP}:5000", "node rank 0's address and a free port, where the nodes meet to set up the distributed backend")
	}
	// Prefill and decode apart, each instance is one TP group with one role
	// (the split counts them), so no server holds several replicas.
	if r.ReplicasPerNode > 1 && !c.splitsRoles() {
		emit(kb, ec, knowledge.FlagSGLangDPSize, fmt.Sprint(r.ReplicasPerNode),
			fmt.Sprintf("%d GPUs per node / TP %d = %d replicas in one server", c.perNode, r.TensorParallelSize, r.ReplicasPerNode))
	}
	emit(kb, ec, knowledge.FlagSGLangContextLength, fmt.Sprint(r.MaxModelLen),
		fmt.Sprintf("context_tokens cap (native %s): one request's KV is %s × %s B = %s per GPU",
			num(int64(m.NativeContext)), num(int64(r.MaxModelLen)), num(r.KVBytesPerTokenPerGPU), gib(float64(r.KVBytesPerRequest)/sizing.GiB)))
	emit(kb, ec, knowledge.FlagSGLangMemFractionStatic, trim(r.GPUMemoryUtilization),
		fmt.Sprintf("SGLang's own default for this GPU and layout, named for review: %s; %s × %.2f GiB − weights %.2f − other in use %.2f = KV pool %s per GPU = %s tokens (page size 1)",
			memFractionFormula(c), trim(r.GPUMemoryUtilization), gp.MemoryGiB, r.WeightsGiBPerGPU, r.NonTorchGiB, gib(r.KVPoolGiBPerGPU), num(r.KVCacheTokens)))
	emit(kb, ec, knowledge.FlagSGLangMaxRunningRequests, fmt.Sprint(r.MaxNumSeqs),
		fmt.Sprintf("%s; the KV pool holds %.1f full-length requests and more shorter ones (unset, SGLang derives KV tokens / context × 512, kept between 2048 and 4096)", plan.why, r.MaxConcurrency))
	chunk := fmt.Sprintf("chunked-prefill budget per step (SGLang's default for this GPU %d): SGLang keeps 1.5 MiB per token of it, %s, outside --mem-fraction-static for activations",
		c.d.MaxNumBatchedTokens, gib(float64(max(r.MaxNumBatchedTokens, 2048))*1.5/1024))
	if c.plan.workload != "" {
		chunk += "; " + c.plan.workload
	}
	emit(kb, ec, knowledge.FlagSGLangChunkedPrefillSize, fmt.Sprint(r.MaxNumBatchedTokens), chunk)
	switch c.it.workload {
	case knowledge.WorkloadScoring:
		emit(kb, ec, knowledge.FlagSGLangMaxPrefillTokens, fmt.Sprint(r.MaxNumBatchedTokens),
			fmt.Sprintf("workload scoring: a prefill batch of %s tokens (SGLang's default 16384) so the prompts of a scoring call prefill together; the real bound is the larger of this and the context length", num(int64(r.MaxNumBatchedTokens))))
		ec.Notes = append(ec.Notes, "workload scoring: SGLang serves it on /v1/score (decoder-only scoring: label-token probabilities from one prefill, SGLang's native API docs), which is a published reason to pick SGLang for it; RadixAttention reuses a query prefix shared by the items")
	case knowledge.WorkloadMixed:
		ec.Notes = append(ec.Notes, fmt.Sprintf("workload mixed: SGLang has no partial-prefill limit like vLLM's --max-num-partial-prefills; the chunked-prefill size (%s tokens) bounds how much of each step a long prompt takes, so lower it if short prompts' time to first token suffers", num(int64(r.MaxNumBatchedTokens))))
	}
	if kv := a.Get(knowledge.KeyKVCacheDType).Str; kv != knowledge.DTypeAuto {
		emit(kb, ec, knowledge.FlagSGLangKVCacheDType, kv, fmt.Sprintf("1 byte per value: %s B per token per GPU, twice the tokens; gate it on an eval", num(r.KVBytesPerTokenPerGPU)))
	}
	emit(kb, ec, knowledge.FlagSGLangEnableMetrics, "", "Prometheus metrics are off by default in SGLang; the prefix-hit and queue metrics are how you check this sizing")
	emit(kb, ec, knowledge.FlagSGLangHost, "0.0.0.0", "the default, 127.0.0.1, answers only on this machine: a container's published port, a router or a client on the network reaches nothing")
	if c.disaggregation() {
		emit(kb, ec, knowledge.FlagSGLangDisaggregationTransferBackend, "mooncake", "SGLang's default transfer engine, named so every instance installs mooncake-transfer-engine (nixl is the other documented backend)")
		emitRole(kb, ec, knowledge.FlagSGLangDisaggregationMode, "prefill", rolePrefill, "prefill instances: prefill-only servers; SGLang's router (--pd-disaggregation) sends each request here first")
		emitRole(kb, ec, knowledge.FlagSGLangDisaggregationMode, "decode", roleDecode, "decode instances: decode-only servers that receive the KV cache from a prefill instance; the --mem-fraction-static above follows the aggregated rule (SGLang's own default for a decode-only server reserves by running requests instead of the chunk)")
	}
	keep(kb, ec, knowledge.FlagSGLangDisableRadixCache, "not given: RadixAttention prefix reuse stays on")
	keep(kb, ec, knowledge.FlagSGLangAttentionBackend, "not given: SGLang picks the kernels for the GPU and the model at start and logs its choice")
}

// memFractionFormula is SGLang's --mem-fraction-static arithmetic at the
// command's layout.
func memFractionFormula(c commandInput) string {
	in := sizing.Input{Arch: sizing.ArchOf(c.m), Hardware: sizing.HardwareOf(c.gp), Settings: sizing.Settings{
		Engine: sizing.EngineSGLang, TP: c.r.TensorParallelSize, PP: c.r.PipelineParallelSize, MaxNumBatchedTokens: c.r.MaxNumBatchedTokens}}
	_, formula := sizing.SGLangMemFraction(in)
	return formula
}
