package decide

import (
	"fmt"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// TensorRT-LLM's launch command: trtllm-serve on its PyTorch backend (the
// only one since the TensorRT engine backend was removed from main in
// June-July 2026, after the 1.2.1 release), with the
// batching and KV-cache settings sized by decide/sizing's TensorRT-LLM model.

// trtllmFlagsRead says where the flags were read: serve.py at a 2026
// main-branch commit whose release tag could not be established.
const trtllmFlagsRead = "trtllm-serve flags as read in tensorrt_llm/commands/serve.py @00209af1 (a 2026 1.3.0rc-series copy)"

func trtllmCommand(c commandInput) {
	kb, a, ec, m, gp, r, plan := c.kb, c.a, c.ec, c.m, c.gp, c.r, c.plan
	ec.EngineVersion = "TensorRT-LLM, " + trtllmFlagsRead
	if rel := EngineRelease(kb, knowledge.EngineTensorRTLLM); rel != "" {
		ec.EngineVersion = "TensorRT-LLM " + rel + " (newest release seen), " + trtllmFlagsRead
		if st := kb.Product(knowledge.EngineTensorRTLLM).Release.Stable; st != "" {
			ec.EngineVersion = "TensorRT-LLM " + rel + " (a pre-release, the newest release seen; the newest stable release is " + st + "), " + trtllmFlagsRead
		}
	}
	// The command is written for the newest release the knowledge base
	// names; noteRelease says its flags were read at another commit.
	ec.Release = EngineRelease(kb, knowledge.EngineTensorRTLLM)
	ec.Notes = append(ec.Notes, fmt.Sprintf("the KV figures use TensorRT-LLM's memory model: %s × the memory free after the weights, the profile run's activation peak and the non-torch buffers; the activation peak and the non-torch memory are estimated (TensorRT-LLM measures them at start-up and publishes no formula), so read the 'available KV cache memory' line of its start-up log against this sizing",
		trim(r.FreeGPUMemoryFraction)))
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA && a.Get(knowledge.KeyFineTunes).Int > 0 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("%d fine-tunes as LoRA adapters: this command does not load them; TensorRT-LLM takes LoRA settings through the LLM API options (--config), which stackpick's knowledge base does not cover yet", a.Get(knowledge.KeyFineTunes).Int))
	}
	if n := c.spanNodes(); n > 1 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("one replica is TP %d × PP %d = %d GPUs, more than a node's %d: trtllm-serve spans %d nodes under MPI (mpirun or Slurm with trtllm-llmapi-launch), which this command does not set up", r.TensorParallelSize, r.PipelineParallelSize, r.TensorParallelSize*r.PipelineParallelSize, c.perNode, n))
	}
	if r.ReplicasPerNode > 1 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("this command is one replica (TP %d × PP %d = %s): start %d of them per node, each on its own GPUs (CUDA_VISIBLE_DEVICES) and port, and let the orchestrator balance them",
			r.TensorParallelSize, r.PipelineParallelSize, plural(r.TensorParallelSize*r.PipelineParallelSize, "GPU"), r.ReplicasPerNode))
	}
	if c.it.disaggregation {
		ec.Notes = append(ec.Notes, "disaggregation is not set up for TensorRT-LLM: its prefill/decode split runs through trtllm-serve disaggregated and a cache-transceiver config, which stackpick's knowledge base does not cover yet; the command stays aggregated")
	}
	emit(kb, ec, knowledge.FlagTRTLLMTPSize, fmt.Sprint(r.TensorParallelSize), tpDefense(r, ec.Tried, gp, plan, c.lay))
	if r.PipelineParallelSize > 1 {
		emit(kb, ec, knowledge.FlagTRTLLMPPSize, fmt.Sprint(r.PipelineParallelSize),
			fmt.Sprintf("the model does not fit one node of %s; %d stages of %d layers each", plural(c.perNode, "GPU"), r.PipelineParallelSize, (m.Layers+r.PipelineParallelSize-1)/r.PipelineParallelSize))
	}
	emit(kb, ec, knowledge.FlagTRTLLMMaxSeqLen, fmt.Sprint(r.MaxModelLen),
		fmt.Sprintf("context_tokens cap (native %s), prompt and output together: one request's KV is %s × %s B = %s per GPU",
			num(int64(m.NativeContext)), num(int64(r.MaxModelLen)), num(r.KVBytesPerTokenPerGPU), gib(float64(r.KVBytesPerRequest)/sizing.GiB)))
	emit(kb, ec, knowledge.FlagTRTLLMKVCacheFreeGPUMemFrac, trim(r.FreeGPUMemoryFraction),
		fmt.Sprintf("TensorRT-LLM's default, named for review: %s × (%.2f GiB − weights %.2f − activation %.2f (estimated) − non-torch %.2f) = KV pool %s per GPU = %s tokens in blocks of %d",
			trim(r.FreeGPUMemoryFraction), gp.MemoryGiB, r.WeightsGiBPerGPU, r.ActivationPeakGiB, r.NonTorchGiB, gib(r.KVPoolGiBPerGPU), num(r.KVCacheTokens), r.BlockSize))
	emit(kb, ec, knowledge.FlagTRTLLMMaxBatchSize, fmt.Sprint(r.MaxNumSeqs),
		fmt.Sprintf("%s; the pool holds %.1f full-length requests and more shorter ones", plan.why, r.MaxConcurrency))
	emit(kb, ec, knowledge.FlagTRTLLMMaxNumTokens, fmt.Sprint(r.MaxNumBatchedTokens), c.stepDefense("tokens per batch, prefill and decode together (the step budget)"))
	if r.MaxModelLen > r.MaxNumBatchedTokens {
		emit(kb, ec, knowledge.FlagTRTLLMEnableChunkedPrefill, "",
			fmt.Sprintf("a %s-token prompt is longer than one %s-token batch, so it must be prefilled in chunks; trtllm-serve leaves chunked prefill off by default", num(int64(r.MaxModelLen)), num(int64(r.MaxNumBatchedTokens))))
	} else {
		keep(kb, ec, knowledge.FlagTRTLLMEnableChunkedPrefill, fmt.Sprintf("off: every prompt (at most %s tokens) fits one %s-token batch", num(int64(r.MaxModelLen)), num(int64(r.MaxNumBatchedTokens))))
	}
	kvConfig := false
	if kv := a.Get(knowledge.KeyKVCacheDType).Str; kv != knowledge.DTypeAuto {
		kvConfig = true
		emit(kb, ec, knowledge.FlagTRTLLMConfig, "trtllm-options.yaml",
			fmt.Sprintf("kv_cache_dtype %s has no flag: write kv_cache_config: {dtype: fp8} in this YAML file before starting, or the KV cache runs at 2 bytes per value and holds half the tokens sized here (%s B per token per GPU at 1 byte); gate fp8 on an eval", kv, num(r.KVBytesPerTokenPerGPU)))
	}
	if wd := a.Get(knowledge.KeyWeightsDType).Str; wd == knowledge.DTypeFP8 || wd == knowledge.DTypeInt4 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("weights %s: serve a checkpoint already quantized to it (for example a TensorRT Model Optimizer checkpoint); TensorRT-LLM reads the quantization from the checkpoint, so there is no flag (the sizing assumes %s per GPU)", wd, gib(r.WeightsGiBPerGPU)))
	}
	emit(kb, ec, knowledge.FlagTRTLLMHost, "0.0.0.0", "the default, localhost, is unreachable from the orchestrator or any other machine")
	emit(kb, ec, knowledge.FlagTRTLLMPort, "8000", "the default, named so the orchestrator's target port is written down")
	keep(kb, ec, knowledge.FlagTRTLLMBackend, "pytorch by default, the only runtime left for LLMs since the TensorRT engine backend's removal; no engine build step")
	if !kvConfig {
		keep(kb, ec, knowledge.FlagTRTLLMConfig, "no YAML: every setting above is a flag; add one for the KV cache dtype, CUDA graphs or LoRA")
	}
}
