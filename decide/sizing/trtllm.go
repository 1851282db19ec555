package sizing

import "strings"

// TensorRT-LLM's memory model (its PyTorch backend, the only one left after
// the TensorRT engine backend's removal in 2026). At start-up trtllm-serve
// loads the weights, runs a profiling pass of dummy requests of up to
// max_num_tokens, measures the peak (torch allocations plus what NCCL and
// CUDA graphs hold outside torch) and gives the KV cache a fraction of what
// is left:
//
//	available_kv_mem = (total_gpu_memory − peak_memory + allocated_bytes) × fraction
//
// (allocated_bytes is the small KV cache the profiling pass itself used,
// added back). So the pool is fraction × (GPU memory − weights − activation
// peak − non-torch memory). The weights and the KV bytes per token are the
// same arithmetic as vLLM's, reused here; the activation peak and the
// non-torch memory are the parts TensorRT-LLM measures at start-up and
// publishes no formula for, so they are estimated with vLLM's profile-run
// model and the catalog's non-torch figures.

// TRTLLMFreeGPUMemoryFraction is trtllm-serve's default for
// --kv_cache_free_gpu_memory_fraction (serve.py, and KvCacheConfig's
// free_gpu_memory_fraction in llmapi/llm_args.py).
const TRTLLMFreeGPUMemoryFraction = 0.9

// TRTLLMTokensPerBlock is KvCacheConfig's tokens_per_block default
// (llmapi/llm_args.py): the KV pool is counted in blocks of 32 tokens.
const TRTLLMTokensPerBlock = 32

// TRTLLMMemorySource cites the KV-pool formula.
const TRTLLMMemorySource = "NVIDIA/TensorRT-LLM @00043967 tensorrt_llm/_torch/pyexecutor/_util.py (KvCacheCreator._cal_max_memory): available_kv_mem = (total_gpu_memory - peak_memory + allocated_bytes) * fraction"

// TRTLLMActivationNote is appended to the activation figure: the part of
// TensorRT-LLM's memory that is estimated, not computed from its source.
const TRTLLMActivationNote = "; estimated: TensorRT-LLM measures its own peak in a profiling pass at start-up and publishes no formula for it, so vLLM's profile-run model stands in"

// TRTLLMDefaults turns vLLM's defaults for the GPU into the settings the
// TensorRT-LLM sizing starts from: the whole GPU is visible (utilization 1),
// the KV cache takes 0.9 of what is free after the profile run, and blocks
// hold 32 tokens. The batch limits (max_batch_size, max_num_tokens) keep
// vLLM's values as stackpick's plan: the launch command always names them,
// so TensorRT-LLM's own defaults never apply.
func TRTLLMDefaults(base Defaults) Defaults {
	d := base
	d.Why = map[string]string{}
	for k, v := range base.Why {
		d.Why[k] = v
	}
	d.Utilization = 1
	d.FreeMemoryFraction = TRTLLMFreeGPUMemoryFraction
	d.BlockSize = TRTLLMTokensPerBlock
	d.ChunkedPrefill = true
	d.Why["gpu_memory_utilization"] = "1: TensorRT-LLM has no utilization cap; the KV cache takes a fraction of what is free after the profile run"
	d.Why["free_gpu_memory_fraction"] = "0.9, trtllm-serve's default for --kv_cache_free_gpu_memory_fraction"
	d.Why["block_size"] = "32, TensorRT-LLM's tokens_per_block default"
	return d
}

// trtllmPool is TensorRT-LLM's KV pool per GPU and its formula.
func trtllmPool(fraction, memGiB, weightsGiB, actGiB, ntGiB float64) (float64, string) {
	free := memGiB - weightsGiB - actGiB - ntGiB
	pool := fraction * free
	return pool, f("free_gpu_memory_fraction %s × (%s GiB − weights %s − activation %s − non-torch %s = %s GiB free after the profile run) = %s GiB",
		trimFloat(fraction), g(memGiB), g(weightsGiB), g(actGiB), g(ntGiB), g(free), g(pool))
}

// trtllmReason words a sizing failure for TensorRT-LLM: the messages are
// written for vLLM's flags.
func trtllmReason(reason string) string {
	if reason == "" {
		return ""
	}
	r := strings.NewReplacer("vLLM refuses to start", "TensorRT-LLM cannot hold one full-length request", "vLLM", "TensorRT-LLM",
		"--max-num-seqs", "--max_batch_size", "--max-num-batched-tokens", "--max_num_tokens", "--max-model-len", "--max_seq_len")
	return r.Replace(reason)
}
