package knowledge

// What Go code reads by name. The knowledge base is data, but a few of its
// keys, values and ids are read by Go: the sizing branches on
// latency_priority, the launch command on fine_tune_method, the generated
// scenarios on kubernetes. Each of them is declared once, here, and the load
// check (validate.go, run for the built-in files, for every --kb overlay and
// for `stackpick kb check`) holds the merged knowledge base to it: a question
// Go reads keeps its type, an enum Go branches on offers only values Go
// understands, and every id Go names exists. Go code uses these constants,
// never the literal (TestGoCodeNamesKnowledgeOnlyThroughDeclaredConstants
// holds decide, scenarios and knowledge to that).

// Answer keys Go reads.
const (
	KeyNodes            = "nodes"
	KeyGPUsPerNode      = "gpus_per_node"
	KeyGPU              = "gpu"
	KeyBaseModels       = "base_models"
	KeyFineTunes        = "fine_tunes"
	KeyFineTuneMethod   = "fine_tune_method"
	KeyContextTokens    = "context_tokens"
	KeyModel            = "model"
	KeyWeightsDType     = "weights_dtype"
	KeyKVCacheDType     = "kv_cache_dtype"
	KeyPrefixReuse      = "prefix_reuse"
	KeyLatencyPriority  = "latency_priority"
	KeyKubernetes       = "kubernetes"
	KeyGitOps           = "gitops"
	KeyTrafficSplitting = "traffic_splitting"

	// Issue 10: the questions experts needed.
	KeyAcceleratorMix         = "accelerator_mix"
	KeyReplicas               = "replicas"
	KeySubstrate              = "substrate"
	KeyOtherModelTypes        = "other_model_types"
	KeyDay0Architectures      = "day0_architectures"
	KeyAdapterRouting         = "adapter_routing"
	KeyWorkload               = "workload"
	KeyConcurrentRequests     = "concurrent_requests"
	KeyTTFTMs                 = "ttft_ms"
	KeyITLMs                  = "itl_ms"
	KeyDisaggregation         = "disaggregation"
	KeyNewOperator            = "new_operator"
	KeyOrchestratorExperience = "orchestrator_experience"
)

// Answer values Go tests for by name.
const (
	LatencyFirst    = "latency"
	LatencyBalanced = "balanced"
	ThroughputFirst = "throughput"

	FineTuneNone = "none"
	FineTuneLoRA = "lora"
	FineTuneFull = "full"

	// DTypeAuto keeps the checkpoint's own format (weights) or the model's
	// dtype (KV cache): no flag is emitted for it.
	DTypeAuto = "auto"
	DTypeBF16 = "bf16"
	// DTypeFP16 is a checkpoint published in float16 (Llama 2): sized,
	// like bf16, at 2 bytes per parameter.
	DTypeFP16 = "fp16"
	DTypeFP8  = "fp8"
	DTypeInt4 = "int4"

	KubernetesNone      = "none"
	KubernetesAvailable = "available"
	KubernetesRequired  = "required"

	// SubstrateAuto takes the platform from the kubernetes answer.
	SubstrateAuto = "auto"

	// Platforms: the values of substrate and of the derived platform.
	PlatformKubernetes   = "kubernetes"
	PlatformOpenShift    = "openshift"
	PlatformManagedCloud = "managed-cloud"
	PlatformSlurm        = "slurm"
	PlatformBareMetal    = "bare-metal"

	WorkloadChat    = "chat"
	WorkloadAgentic = "agentic"
	WorkloadBatch   = "batch"
	WorkloadRAG     = "rag"
	WorkloadScoring = "scoring"
	WorkloadMixed   = "mixed"
)

// Product ids Go names: the engines stackpick sizes and writes launch
// commands for.
const (
	EngineVLLM   = "vllm"
	EngineSGLang = "sglang"
	// EngineTensorRTLLM is TensorRT-LLM, launched with trtllm-serve on its
	// PyTorch backend.
	EngineTensorRTLLM = "tensorrt-llm"
	// EngineLlamaCpp is llama.cpp, launched with llama-server.
	EngineLlamaCpp = "llama-cpp"
)

// GPU ids Go names.
const (
	// GPUCPU is the catalog entry for a fleet without accelerators.
	GPUCPU = "cpu"
	// GPUReference is the catalog entry whose non-torch memory figures
	// `stackpick size --gpu-memory-gib N` borrows for a GPU it does not know.
	GPUReference = "h100"
)

// Engine flag ids the launch commands emit or name as kept at their default.
const (
	FlagVLLMTensorParallelSize      = "vllm-tensor-parallel-size"
	FlagVLLMPipelineParallelSize    = "vllm-pipeline-parallel-size"
	FlagVLLMMaxModelLen             = "vllm-max-model-len"
	FlagVLLMGPUMemoryUtilization    = "vllm-gpu-memory-utilization"
	FlagVLLMMaxNumSeqs              = "vllm-max-num-seqs"
	FlagVLLMMaxNumBatchedTokens     = "vllm-max-num-batched-tokens"
	FlagVLLMKVCacheDType            = "vllm-kv-cache-dtype"
	FlagVLLMQuantization            = "vllm-quantization"
	FlagVLLMEnableLoRA              = "vllm-enable-lora"
	FlagVLLMMaxLoRAs                = "vllm-max-loras"
	FlagVLLMMaxLoRARank             = "vllm-max-lora-rank"
	FlagVLLMMaxCPULoRAs             = "vllm-max-cpu-loras"
	FlagVLLMServedModelName         = "vllm-served-model-name"
	FlagVLLMEnablePrefixCaching     = "vllm-enable-prefix-caching"
	FlagVLLMEnableChunkedPrefill    = "vllm-enable-chunked-prefill"
	FlagVLLMBlockSize               = "vllm-block-size"
	FlagVLLMMaxCUDAGraphCaptureSize = "vllm-max-cudagraph-capture-size"
	FlagVLLMEnforceEager            = "vllm-enforce-eager"
	FlagVLLMSpeculativeConfig       = "vllm-speculative-config"

	FlagSGLangModelPath          = "sglang-model-path"
	FlagSGLangTPSize             = "sglang-tp-size"
	FlagSGLangDPSize             = "sglang-dp-size"
	FlagSGLangContextLength      = "sglang-context-length"
	FlagSGLangMaxRunningRequests = "sglang-max-running-requests"
	FlagSGLangChunkedPrefillSize = "sglang-chunked-prefill-size"
	FlagSGLangKVCacheDType       = "sglang-kv-cache-dtype"
	FlagSGLangEnableMetrics      = "sglang-enable-metrics"
	FlagSGLangMemFractionStatic  = "sglang-mem-fraction-static"
	FlagSGLangDisableRadixCache  = "sglang-disable-radix-cache"
	FlagSGLangAttentionBackend   = "sglang-attention-backend"
	FlagSGLangHost               = "sglang-host"
)

// engine settings (issue 10): flags for multi-node replicas, prefill/decode
// disaggregation, mixed-length scheduling and prefill-only scoring.
const (
	FlagVLLMNNodes                     = "vllm-nnodes"
	FlagVLLMNodeRank                   = "vllm-node-rank"
	FlagVLLMMasterAddr                 = "vllm-master-addr"
	FlagVLLMDistributedExecutorBackend = "vllm-distributed-executor-backend"
	FlagVLLMKVTransferConfig           = "vllm-kv-transfer-config"
	FlagVLLMDataParallelSize           = "vllm-data-parallel-size"
	FlagVLLMMaxNumPartialPrefills      = "vllm-max-num-partial-prefills"
	FlagVLLMMaxLongPartialPrefills     = "vllm-max-long-partial-prefills"
	FlagVLLMLongPrefillTokenThreshold  = "vllm-long-prefill-token-threshold"
	FlagVLLMPort                       = "vllm-port"

	FlagSGLangPPSize                        = "sglang-pp-size"
	FlagSGLangNNodes                        = "sglang-nnodes"
	FlagSGLangNodeRank                      = "sglang-node-rank"
	FlagSGLangDistInitAddr                  = "sglang-dist-init-addr"
	FlagSGLangDisaggregationMode            = "sglang-disaggregation-mode"
	FlagSGLangDisaggregationTransferBackend = "sglang-disaggregation-transfer-backend"
	FlagSGLangMaxPrefillTokens              = "sglang-max-prefill-tokens"
)

// TensorRT-LLM's trtllm-serve flags (issue 12).
const (
	FlagTRTLLMTPSize                = "tensorrt-llm-tp-size"
	FlagTRTLLMPPSize                = "tensorrt-llm-pp-size"
	FlagTRTLLMMaxBatchSize          = "tensorrt-llm-max-batch-size"
	FlagTRTLLMMaxNumTokens          = "tensorrt-llm-max-num-tokens"
	FlagTRTLLMMaxSeqLen             = "tensorrt-llm-max-seq-len"
	FlagTRTLLMKVCacheFreeGPUMemFrac = "tensorrt-llm-kv-cache-free-gpu-memory-fraction"
	FlagTRTLLMEnableChunkedPrefill  = "tensorrt-llm-enable-chunked-prefill"
	FlagTRTLLMHost                  = "tensorrt-llm-host"
	FlagTRTLLMPort                  = "tensorrt-llm-port"
	FlagTRTLLMConfig                = "tensorrt-llm-config"
	FlagTRTLLMBackend               = "tensorrt-llm-backend"
)

// llama.cpp's llama-server flags (issue 12): the GGUF file, context and
// slots, GPU layers, KV cache type, metrics and where it listens.
const (
	FlagLlamaCppModel        = "llama-cpp-model"
	FlagLlamaCppHFRepo       = "llama-cpp-hf-repo"
	FlagLlamaCppCtxSize      = "llama-cpp-ctx-size"
	FlagLlamaCppParallel     = "llama-cpp-parallel"
	FlagLlamaCppNGPULayers   = "llama-cpp-n-gpu-layers"
	FlagLlamaCppCacheTypeK   = "llama-cpp-cache-type-k"
	FlagLlamaCppCacheTypeV   = "llama-cpp-cache-type-v"
	FlagLlamaCppFlashAttn    = "llama-cpp-flash-attn"
	FlagLlamaCppContBatching = "llama-cpp-cont-batching"
	FlagLlamaCppKVUnified    = "llama-cpp-kv-unified"
	FlagLlamaCppSplitMode    = "llama-cpp-split-mode"
	FlagLlamaCppMetrics      = "llama-cpp-metrics"
	FlagLlamaCppHost         = "llama-cpp-host"
	FlagLlamaCppPort         = "llama-cpp-port"
	FlagLlamaCppAlias        = "llama-cpp-alias"
)

// Understanding is what Go does with one answer key.
type Understanding struct {
	Key  string
	Type string
	// By names the Go code that reads the key, for messages.
	By string
	// Catalog is the catalog an enum's values must come from ("" for none
	// required): Go looks the answer up in it.
	Catalog string
	// Values are the values Go knows, each with what it does with it.
	Values []Meaning
	// Closed marks an enum Go branches on: every value the question allows
	// must be one of Values, or Go would silently treat it as another.
	Closed bool
}

// Meaning is one answer value Go understands and what it does with it.
type Meaning struct {
	Value string
	Does  string
	// Optional values are understood when offered, but the question need
	// not offer them; every other value Go names in code, so the question
	// must allow it.
	Optional bool
}

// Understood declares every answer key Go reads, in question order.
var Understood = []Understanding{
	{Key: KeyNodes, Type: TypeInt, By: "stackpick's sizing"},
	{Key: KeyGPUsPerNode, Type: TypeInt, By: "stackpick's sizing"},
	// The gpu ids Go names are catalog entries: UnderstoodGPUs.
	{Key: KeyGPU, Type: TypeEnum, By: "stackpick's sizing", Catalog: CatalogGPU},
	{Key: KeyBaseModels, Type: TypeInt, By: "stackpick's launch command"},
	{Key: KeyFineTunes, Type: TypeInt, By: "stackpick's launch command"},
	{Key: KeyFineTuneMethod, Type: TypeEnum, By: "stackpick's launch command", Closed: true, Values: []Meaning{
		{Value: FineTuneNone, Does: "nothing beyond the base models to serve"},
		{Value: FineTuneLoRA, Does: "adapters on one copy of the base weights: --enable-lora and --max-loras"},
		{Value: FineTuneFull, Does: "each fine-tune is a checkpoint of its own, with an engine of its own"},
	}},
	{Key: KeyContextTokens, Type: TypeInt, By: "stackpick's sizing"},
	{Key: KeyModel, Type: TypeEnum, By: "stackpick's sizing", Catalog: CatalogModel},
	{Key: KeyWeightsDType, Type: TypeEnum, By: "stackpick's sizing", Closed: true, Values: []Meaning{
		{Value: DTypeAuto, Does: "sized in the checkpoint's own format; no flag"},
		{Value: DTypeBF16, Does: "sized at 2 bytes per parameter; no flag", Optional: true},
		{Value: DTypeFP8, Does: "sized at 1 byte per parameter; --quantization fp8 for a bf16 or fp16 checkpoint"},
		{Value: DTypeInt4, Does: "sized as 4-bit groups of 128; serve an AWQ or GPTQ checkpoint"},
	}},
	{Key: KeyKVCacheDType, Type: TypeEnum, By: "stackpick's sizing", Closed: true, Values: []Meaning{
		{Value: DTypeAuto, Does: "KV in the model's dtype; no flag"},
		{Value: "fp8", Does: "1 byte per KV value; --kv-cache-dtype fp8", Optional: true},
		{Value: "fp8_e4m3", Does: "1 byte per KV value; --kv-cache-dtype fp8_e4m3", Optional: true},
		{Value: "fp8_e5m2", Does: "1 byte per KV value; --kv-cache-dtype fp8_e5m2", Optional: true},
	}},
	{Key: KeyPrefixReuse, Type: TypeEnum, By: "stackpick's launch command"},
	{Key: KeyLatencyPriority, Type: TypeEnum, By: "stackpick's sizing", Closed: true, Values: []Meaning{
		{Value: LatencyFirst, Does: "batches of at most 64 requests, 2048-token steps, room for 4 full-context requests"},
		{Value: LatencyBalanced, Does: "at most 256 requests, vLLM's step budget, room for 8 full-context requests"},
		{Value: ThroughputFirst, Does: "the largest batches, steps of at least 16384 tokens, room for 16 full-context requests"},
	}},
	{Key: KeyKubernetes, Type: TypeEnum, By: "stackpick's scenario generator and the substrate check", Values: []Meaning{
		{Value: KubernetesNone, Does: "a generated scenario without Kubernetes turns gitops and traffic_splitting off; substrate auto means bare metal; a Kubernetes substrate contradicts it"},
		{Value: KubernetesAvailable, Does: "what the app moves kubernetes = none to when a Kubernetes substrate is chosen"},
		{Value: KubernetesRequired, Does: "a Slurm or bare-metal substrate contradicts it"},
	}},
	{Key: KeyGitOps, Type: TypeBool, By: "stackpick's scenario generator"},
	{Key: KeyTrafficSplitting, Type: TypeBool, By: "stackpick's scenario generator"},
	{Key: KeyReplicas, Type: TypeInt, By: "stackpick's replicas_per_model"},
	{Key: KeySubstrate, Type: TypeEnum, By: "stackpick's platform and the substrate check", Closed: true, Values: []Meaning{
		{Value: SubstrateAuto, Does: "the platform is bare metal when kubernetes = none, else Kubernetes"},
		{Value: PlatformKubernetes, Does: "plain Kubernetes; contradicts kubernetes = none"},
		{Value: PlatformOpenShift, Does: "Red Hat OpenShift; contradicts kubernetes = none"},
		{Value: PlatformManagedCloud, Does: "a cloud's managed Kubernetes; contradicts kubernetes = none"},
		{Value: PlatformSlurm, Does: "a Slurm/HPC cluster; contradicts kubernetes = required"},
		{Value: PlatformBareMetal, Does: "bare metal or VMs; contradicts kubernetes = required"},
	}},
	// engine settings (issue 10)
	{Key: KeyWorkload, Type: TypeEnum, By: "stackpick's launch command", Closed: true, Values: []Meaning{
		{Value: WorkloadChat, Does: "the latency_priority batch plan as it is"},
		{Value: WorkloadAgentic, Does: "the latency_priority batch plan as it is (prefix reuse is the rules' business)"},
		{Value: WorkloadBatch, Does: "the throughput batch plan unless latency is stated (latency_priority = latency or a ttft_ms / itl_ms target)"},
		{Value: WorkloadRAG, Does: "long-prompt prefill: a step budget of at least 16384 tokens"},
		{Value: WorkloadScoring, Does: "prefill-only: a step budget that holds a whole prompt, SGLang's --max-prefill-tokens, the scoring endpoints named"},
		{Value: WorkloadMixed, Does: "vLLM's --max-num-partial-prefills and --long-prefill-token-threshold so long prompts do not stall short ones"},
	}},
	{Key: KeyDisaggregation, Type: TypeBool, By: "stackpick's launch command"},
	{Key: KeyConcurrentRequests, Type: TypeInt, By: "stackpick's launch command (batch cap per replica)"},
	{Key: KeyTTFTMs, Type: TypeInt, By: "stackpick's sizing (a latency target: tensor-parallel size at least balanced's)"},
	{Key: KeyITLMs, Type: TypeInt, By: "stackpick's sizing (batch-1 step time against the target picks the tensor-parallel size)"},
}

// Derived answer keys: computed by Go from other answers, never typed by a
// user. A question marked derived must be one of these, of this type.
const (
	DerivedTotalGPUs = "total_gpus" // nodes × gpus_per_node
	DerivedGPUVendor = "gpu_vendor" // the vendor of gpu in the hardware catalog
	// DerivedReplicasPerModel is replicas when set, else nodes ÷ base_models
	// (at least 1): the course notes' orchestrator trigger is "more than one
	// replica", which nodes alone over-counts when each node holds its own
	// model.
	DerivedReplicasPerModel = "replicas_per_model"
	// DerivedPlatform is substrate, or for auto what kubernetes implies.
	DerivedPlatform = "platform"
)

var derivedKeys = map[string]string{
	DerivedTotalGPUs:        TypeInt,
	DerivedGPUVendor:        TypeEnum,
	DerivedReplicasPerModel: TypeInt,
	DerivedPlatform:         TypeEnum,
}

// DerivedFrom names the answers each derived key is computed from: a
// condition on a derived key tests those answers (DeadValues counts it for
// them).
var DerivedFrom = map[string][]string{
	DerivedTotalGPUs:        {KeyNodes, KeyGPUsPerNode},
	DerivedGPUVendor:        {KeyGPU, KeyGPUsPerNode},
	DerivedReplicasPerModel: {KeyReplicas, KeyNodes, KeyBaseModels},
	DerivedPlatform:         {KeySubstrate, KeyKubernetes},
}

// NamedID is a knowledge-base id Go names, and why it needs it.
type NamedID struct {
	ID string
	// Engine is the engine a flag belongs to (flags only); Layer the layer a
	// product sits on (products only).
	Engine, Layer string
	By            string
}

// UnderstoodProducts are the product ids Go names.
var UnderstoodProducts = []NamedID{
	{ID: EngineVLLM, Layer: LayerEngine, By: "stackpick's sizing"},
	{ID: EngineSGLang, Layer: LayerEngine, By: "stackpick's sizing"},
	{ID: EngineTensorRTLLM, Layer: LayerEngine, By: "stackpick's sizing"},
}

// UnderstoodGPUs are the GPU ids Go names.
var UnderstoodGPUs = []NamedID{
	{ID: GPUCPU, By: "stackpick's scenario generator (a fleet without accelerators, gpus_per_node = 0)"},
	{ID: GPUReference, By: "stackpick size --gpu-memory-gib (the reference GPU)"},
}

// UnderstoodFlags are the engine flag ids the launch commands name.
var UnderstoodFlags = []NamedID{
	{ID: FlagVLLMTensorParallelSize, Engine: EngineVLLM},
	{ID: FlagVLLMPipelineParallelSize, Engine: EngineVLLM},
	{ID: FlagVLLMMaxModelLen, Engine: EngineVLLM},
	{ID: FlagVLLMGPUMemoryUtilization, Engine: EngineVLLM},
	{ID: FlagVLLMMaxNumSeqs, Engine: EngineVLLM},
	{ID: FlagVLLMMaxNumBatchedTokens, Engine: EngineVLLM},
	{ID: FlagVLLMKVCacheDType, Engine: EngineVLLM},
	{ID: FlagVLLMQuantization, Engine: EngineVLLM},
	{ID: FlagVLLMEnableLoRA, Engine: EngineVLLM},
	{ID: FlagVLLMMaxLoRAs, Engine: EngineVLLM},
	{ID: FlagVLLMMaxLoRARank, Engine: EngineVLLM},
	{ID: FlagVLLMMaxCPULoRAs, Engine: EngineVLLM},
	{ID: FlagVLLMServedModelName, Engine: EngineVLLM},
	{ID: FlagVLLMEnablePrefixCaching, Engine: EngineVLLM},
	{ID: FlagVLLMEnableChunkedPrefill, Engine: EngineVLLM},
	{ID: FlagVLLMBlockSize, Engine: EngineVLLM},
	{ID: FlagVLLMMaxCUDAGraphCaptureSize, Engine: EngineVLLM},
	{ID: FlagVLLMEnforceEager, Engine: EngineVLLM},
	{ID: FlagVLLMSpeculativeConfig, Engine: EngineVLLM},
	{ID: FlagSGLangModelPath, Engine: EngineSGLang},
	{ID: FlagSGLangTPSize, Engine: EngineSGLang},
	{ID: FlagSGLangDPSize, Engine: EngineSGLang},
	{ID: FlagSGLangContextLength, Engine: EngineSGLang},
	{ID: FlagSGLangMaxRunningRequests, Engine: EngineSGLang},
	{ID: FlagSGLangChunkedPrefillSize, Engine: EngineSGLang},
	{ID: FlagSGLangKVCacheDType, Engine: EngineSGLang},
	{ID: FlagSGLangEnableMetrics, Engine: EngineSGLang},
	{ID: FlagSGLangMemFractionStatic, Engine: EngineSGLang},
	{ID: FlagSGLangDisableRadixCache, Engine: EngineSGLang},
	{ID: FlagSGLangAttentionBackend, Engine: EngineSGLang},
	{ID: FlagSGLangHost, Engine: EngineSGLang},
	// engine settings (issue 10)
	{ID: FlagVLLMNNodes, Engine: EngineVLLM},
	{ID: FlagVLLMNodeRank, Engine: EngineVLLM},
	{ID: FlagVLLMMasterAddr, Engine: EngineVLLM},
	{ID: FlagVLLMDistributedExecutorBackend, Engine: EngineVLLM},
	{ID: FlagVLLMKVTransferConfig, Engine: EngineVLLM},
	{ID: FlagVLLMDataParallelSize, Engine: EngineVLLM},
	{ID: FlagVLLMMaxNumPartialPrefills, Engine: EngineVLLM},
	{ID: FlagVLLMMaxLongPartialPrefills, Engine: EngineVLLM},
	{ID: FlagVLLMLongPrefillTokenThreshold, Engine: EngineVLLM},
	{ID: FlagVLLMPort, Engine: EngineVLLM},
	{ID: FlagSGLangPPSize, Engine: EngineSGLang},
	{ID: FlagSGLangNNodes, Engine: EngineSGLang},
	{ID: FlagSGLangNodeRank, Engine: EngineSGLang},
	{ID: FlagSGLangDistInitAddr, Engine: EngineSGLang},
	{ID: FlagSGLangDisaggregationMode, Engine: EngineSGLang},
	{ID: FlagSGLangDisaggregationTransferBackend, Engine: EngineSGLang},
	{ID: FlagSGLangMaxPrefillTokens, Engine: EngineSGLang},
	// TensorRT-LLM (issue 12)
	{ID: FlagTRTLLMTPSize, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMPPSize, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMMaxBatchSize, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMMaxNumTokens, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMMaxSeqLen, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMKVCacheFreeGPUMemFrac, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMEnableChunkedPrefill, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMHost, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMPort, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMConfig, Engine: EngineTensorRTLLM},
	{ID: FlagTRTLLMBackend, Engine: EngineTensorRTLLM},
	// llama.cpp (issue 12)
	{ID: FlagLlamaCppModel, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppHFRepo, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppCtxSize, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppParallel, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppNGPULayers, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppCacheTypeK, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppCacheTypeV, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppFlashAttn, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppContBatching, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppKVUnified, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppSplitMode, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppMetrics, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppHost, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppPort, Engine: EngineLlamaCpp},
	{ID: FlagLlamaCppAlias, Engine: EngineLlamaCpp},
}
