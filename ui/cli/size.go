package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// sizeFlags are the `stackpick size` flags; zero means "not given".
type sizeFlags struct {
	model, gpu, format, kvDType, dtype, version, entry string
	paramsB, weightsGiB, gpuMemGiB, bandwidth, util    float64
	layers, heads, kvHeads, headDim, kvLora, qkRope    int
	hidden, vocab, intermediate                        int
	tp, pp, maxModelLen, batched, seqs, block          int
	context, gpusPerNode, nodes, minConcurrency        int
	chunked                                            bool
}

// SizeOutput is the JSON of `stackpick size`: the sizing result's keys at
// top level, plus the engine release it models and the layouts tried.
type SizeOutput struct {
	Schema        string `json:"schema"`
	Engine        string `json:"engine"`
	EngineVersion string `json:"engine_version"`
	sizing.Result
	Tried []sizing.Tried `json:"tried,omitempty"`
	Notes []string       `json:"notes"`
}

func (a *app) sizeCommand() *cobra.Command {
	var fl sizeFlags
	cmd := &cobra.Command{
		Use:   "size --model ID --gpu ID",
		Short: "Size a vLLM engine: weights, KV cache, concurrency, every formula shown",
		Long: `Compute what vLLM will do with a model on a GPU: weights per GPU, KV bytes per
token, the KV pool (gpu-memory-utilization × total − weights − activation peak −
non-torch memory), the KV cache in tokens as vLLM's "GPU KV cache size" line
reports it, how many requests of --context-tokens fit, replicas per node and a
bandwidth ceiling for batch-1 decode. Each number is printed with its formula.

Without --tensor-parallel-size, the smallest size whose KV pool holds
--min-concurrency requests is searched (within --gpus-per-node, then pipeline
stages across --nodes). Settings left out take vLLM's defaults for the release
in --vllm-version and the GPU.`,
		Example: `  stackpick size --model llama-3.3-70b --gpu h100 --tensor-parallel-size 4
  stackpick size --model qwen3-32b --gpu l40s --max-model-len 16384 --format json
  stackpick size --params-b 8.03 --layers 32 --kv-heads 8 --head-dim 128 \
      --gpu-memory-gib 23.58 --weights-gib 14.99`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runSize(cmd, fl)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.model, "model", "m", "", "model id from the catalog (see the list in errors, or --kb to add one)")
	f.StringVarP(&fl.gpu, "gpu", "g", "", "accelerator id from the catalog (h100, h200, …)")
	f.StringVarP(&fl.format, "format", "f", "text", "output format: text or json")
	f.Float64Var(&fl.paramsB, "params-b", 0, "parameters in billions (raw architecture, or override)")
	f.IntVar(&fl.layers, "layers", 0, "hidden layers")
	f.IntVar(&fl.heads, "attention-heads", 0, "attention (query) heads; checks that TP divides them")
	f.IntVar(&fl.kvHeads, "kv-heads", 0, "heads of keys and values (num_key_value_heads)")
	f.IntVar(&fl.headDim, "head-dim", 0, "head dimension")
	f.IntVar(&fl.kvLora, "kv-lora-rank", 0, "latent width of MLA attention (DeepSeek-style models)")
	f.IntVar(&fl.qkRope, "qk-rope-head-dim", 0, "rotary key width of MLA attention")
	f.IntVar(&fl.hidden, "hidden-size", 0, "hidden size (for the activation estimate)")
	f.IntVar(&fl.vocab, "vocab-size", 0, "vocabulary size (for the activation estimate)")
	f.IntVar(&fl.intermediate, "intermediate-size", 0, "intermediate (MLP) width, for the activation estimate")
	f.Float64Var(&fl.weightsGiB, "weights-gib", 0, "measured weights per GPU, as vLLM's 'Model loading took X GiB' reports them")
	f.Float64Var(&fl.gpuMemGiB, "gpu-memory-gib", 0, "one GPU's total memory as vLLM reports it (GiB)")
	f.Float64Var(&fl.bandwidth, "bandwidth-tbs", 0, "memory bandwidth (HBM) in TB/s, for the decode roofline")
	f.IntVar(&fl.tp, "tensor-parallel-size", 0, "accelerators per replica (default: the smallest that fits)")
	f.IntVar(&fl.pp, "pipeline-parallel-size", 0, "pipeline stages (default 1)")
	f.Float64Var(&fl.util, "gpu-memory-utilization", 0, "share of GPU memory vLLM may use, in (0, 1] (default: the release's)")
	f.IntVar(&fl.maxModelLen, "max-model-len", 0, "context cap in tokens (default: the model's native context)")
	f.IntVar(&fl.batched, "max-num-batched-tokens", 0, "step token budget (default: by GPU and release)")
	f.IntVar(&fl.seqs, "max-num-seqs", 0, "most sequences per step (default: by GPU and release)")
	f.BoolVar(&fl.chunked, "enable-chunked-prefill", true, "chunked prefill (vLLM V1: on); =false makes a step hold a whole max-model-len prompt")
	f.StringVar(&fl.kvDType, "kv-cache-dtype", "auto", "storage type of the KV cache: "+strings.Join(sizing.KVDTypes, ", "))
	f.StringVar(&fl.dtype, "dtype", "auto", "weights dtype: "+strings.Join(sizing.WeightsDTypes, ", "))
	f.IntVar(&fl.block, "block-size", 0, "tokens per KV block (default 16)")
	f.IntVar(&fl.context, "context-tokens", 0, "request length concurrency is counted at (default: max-model-len)")
	f.IntVar(&fl.gpusPerNode, "gpus-per-node", sizing.SearchGPUsPerNode, "accelerators per node (replicas per node, TP search limit)")
	f.IntVar(&fl.nodes, "nodes", 1, "nodes a replica may span with pipeline stages when searching")
	f.IntVar(&fl.minConcurrency, "min-concurrency", sizing.SearchMinConcurrency, "headroom for the TP search: requests of --context-tokens the KV pool must hold")
	f.StringVar(&fl.version, "vllm-version", sizing.CurrentVLLM, "release of vLLM whose defaults apply (default: the knowledge base's vLLM release; e.g. 0.29, 0.10.2)")
	f.StringVar(&fl.entry, "entry", sizing.EntryServe, "entry point whose batch defaults apply: serve (vllm serve) or llm (the LLM class)")
	return cmd
}

var sizeFormats = []string{"text", "json"}

func (a *app) runSize(cmd *cobra.Command, fl sizeFlags) error {
	if !slices.Contains(sizeFormats, fl.format) {
		return badInput(&knowledge.Error{File: "--format", Key: fl.format, Problem: "unknown format", Allowed: strings.Join(sizeFormats, ", "), Hint: hintFor(fl.format, sizeFormats)})
	}
	entries := []string{sizing.EntryServe, sizing.EntryLLM}
	if !slices.Contains(entries, fl.entry) {
		return badInput(&knowledge.Error{File: "--entry", Key: fl.entry, Problem: "unknown entry point", Allowed: strings.Join(entries, ", "), Hint: hintFor(fl.entry, entries)})
	}
	if minor := sizing.VLLMMinor(fl.version); minor > 0 && minor < 4 {
		return badInputf("--vllm-version %q is older than v0.4, the oldest release whose defaults the knowledge base records: pass 0.4.2 or newer", fl.version)
	}
	if minor := sizing.VLLMMinor(fl.version); minor == 0 {
		return badInputf("--vllm-version %q: expected a vLLM release such as %s or 0.10.2", fl.version, sizing.CurrentVLLM)
	}
	floats := map[string]float64{"--params-b": fl.paramsB, "--weights-gib": fl.weightsGiB, "--gpu-memory-gib": fl.gpuMemGiB, "--bandwidth-tbs": fl.bandwidth}
	for _, name := range slices.Sorted(maps.Keys(floats)) {
		if v := floats[name]; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v > 1e6 {
			return badInput(&knowledge.Error{File: name, Key: strconv.FormatFloat(v, 'g', -1, 64), Problem: "out of range", Allowed: "a number from 0 to 1,000,000"})
		}
	}
	ints := map[string]int{"--layers": fl.layers, "--attention-heads": fl.heads, "--kv-heads": fl.kvHeads, "--head-dim": fl.headDim,
		"--kv-lora-rank": fl.kvLora, "--qk-rope-head-dim": fl.qkRope, "--hidden-size": fl.hidden, "--vocab-size": fl.vocab,
		"--intermediate-size": fl.intermediate, "--tensor-parallel-size": fl.tp, "--pipeline-parallel-size": fl.pp,
		"--max-model-len": fl.maxModelLen, "--max-num-batched-tokens": fl.batched, "--max-num-seqs": fl.seqs,
		"--block-size": fl.block, "--context-tokens": fl.context}
	for _, name := range slices.Sorted(maps.Keys(ints)) {
		if v := ints[name]; v < 0 || v > 1<<26 {
			return badInputf("%s %d: must be a whole number from 0 to %d", name, v, 1<<26)
		}
	}
	if fl.gpusPerNode < 1 || fl.gpusPerNode > 1024 || fl.nodes < 1 || fl.nodes > 1024 || fl.minConcurrency < 1 || fl.minConcurrency > 1<<20 {
		return badInputf("--gpus-per-node and --nodes must be 1 to 1024, --min-concurrency at least 1")
	}
	kb, err := a.loadKB()
	if err != nil {
		return err
	}
	newest := strings.TrimPrefix(decide.VLLMRelease(kb), "v")
	var notes []string
	if !cmd.Flags().Changed("vllm-version") {
		// The release the knowledge base names (an overlay may move it).
		fl.version = newest
	}
	minor := sizing.VLLMMinor(fl.version)
	if minor == 0 {
		return badInputf("the knowledge base's vLLM release %q is not a release such as v0.31.0: fix [product.release] of vllm, or pass --vllm-version", fl.version)
	}
	if cmd.Flags().Changed("vllm-version") {
		if newerRelease(fl.version, newest) {
			return badInputf("--vllm-version %s is newer than v%s, the newest vLLM release the knowledge base knows: its defaults are not known; pass %s or an older release", fl.version, newest, newest)
		}
		notes = append(notes, fmt.Sprintf("the defaults that apply are vLLM %s's, as the knowledge base records them for the 0.%d releases (the minor release decides them; the newest release it knows is v%s)", fl.version, minor, newest))
	} else {
		notes = append(notes, fmt.Sprintf("the defaults that apply are vLLM v%s's, the newest release the knowledge base knows (--vllm-version selects an older one)", newest))
	}
	var in sizing.Input
	switch {
	case fl.model != "":
		m := kb.Model(fl.model)
		if m == nil {
			return badInput(&knowledge.Error{File: "--model", Key: fl.model, Problem: "unknown model", Allowed: strings.Join(kb.ModelIDs(), ", "), Hint: hintFor(fl.model, kb.ModelIDs())})
		}
		in.Arch = sizing.ArchOf(m)
	case fl.layers == 0 || fl.kvHeads == 0 || (fl.headDim == 0 && fl.kvLora == 0) || (fl.paramsB == 0 && fl.weightsGiB == 0):
		return badInputf("size needs --model ID, or the raw architecture: --layers, --kv-heads, --head-dim (or --kv-lora-rank and --qk-rope-head-dim) and --params-b or --weights-gib")
	default:
		in.Arch = sizing.Arch{Name: "custom", NativeDType: "bf16"}
	}
	overrideArch(&in.Arch, fl, cmd, &notes)
	if in.Arch.NativeContext == 0 && fl.maxModelLen == 0 {
		return badInputf("a raw architecture has no native context: pass --max-model-len")
	}
	switch {
	case fl.gpu != "":
		gp := kb.GPU(fl.gpu)
		if gp == nil {
			return badInput(&knowledge.Error{File: "--gpu", Key: fl.gpu, Problem: "unknown GPU", Allowed: strings.Join(kb.GPUIDs(), ", "), Hint: hintFor(fl.gpu, kb.GPUIDs())})
		}
		if gp.MemoryGiB <= 0 {
			return badInputf("--gpu %s has no accelerator memory: vLLM and SGLang need a GPU (llama.cpp is the CPU engine)", gp.ID)
		}
		in.Hardware = sizing.HardwareOf(gp)
	case fl.gpuMemGiB > 0:
		hw, note := sizing.CustomHardware(kb, fl.gpuMemGiB)
		in.Hardware = hw
		notes = append(notes, note)
	default:
		return badInputf("size needs --gpu ID or --gpu-memory-gib N (one GPU's total as vLLM reports it)")
	}
	if fl.gpuMemGiB > 0 {
		in.Hardware.MemoryGiB = fl.gpuMemGiB
	}
	if fl.bandwidth > 0 {
		in.Hardware.BandwidthTBs = fl.bandwidth
	}
	s := &in.Settings
	s.TP, s.PP, s.Utilization, s.MaxModelLen = fl.tp, fl.pp, fl.util, fl.maxModelLen
	s.MaxNumBatchedTokens, s.MaxNumSeqs, s.BlockSize = fl.batched, fl.seqs, fl.block
	s.KVCacheDType, s.WeightsDType, s.WeightsGiBPerGPU = fl.kvDType, fl.dtype, fl.weightsGiB
	s.ContextTokens, s.GPUsPerNode, s.MinConcurrency = fl.context, fl.gpusPerNode, fl.minConcurrency
	if cmd.Flags().Changed("gpu-memory-utilization") && !(fl.util > 0 && fl.util <= 1) {
		return badInput(&sizing.InputError{Field: "--gpu-memory-utilization", Problem: fmt.Sprintf("%v is outside (0, 1]", fl.util), Allowed: "a fraction above 0 and at most 1", Hint: "vLLM's default is 0.92; 0.85–0.95 is the usual range"})
	}
	if cmd.Flags().Changed("enable-chunked-prefill") {
		on := fl.chunked
		s.ChunkedPrefill = &on
	}
	mml := s.MaxModelLen
	if mml == 0 {
		mml = in.Arch.NativeContext
	}
	d := sizing.VLLMDefaults(minor, in.Hardware.MemoryGiB, in.Hardware.Name, fl.entry, mml)
	in = sizing.Resolve(in, d)
	out := SizeOutput{Schema: "stackpick.size/v1", Engine: "vllm", EngineVersion: fl.version, Notes: notes}
	if fl.tp == 0 && fl.pp == 0 {
		fit, err := sizing.SmallestTP(in, fl.gpusPerNode, fl.nodes)
		out.Tried = fit.Tried
		if err != nil {
			return badInput(err)
		}
		out.Result = fit.Result
	} else {
		r, err := sizing.Size(in)
		if err != nil {
			return badInput(err)
		}
		out.Result = r
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	w := a.out(a.io.Stdout)
	if fl.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	_, err = io.WriteString(w, report.Sizing(out.Result, report.SizingHeader{Engine: "vLLM " + fl.version, Notes: out.Notes, Tried: out.Tried}, a.styles(), a.width(a.io.Stdout)))
	return err
}

// overrideArch applies the raw architecture flags that were given, then
// the sizing's assumptions for the widths still missing.
func overrideArch(arch *sizing.Arch, fl sizeFlags, cmd *cobra.Command, notes *[]string) {
	set := cmd.Flags().Changed
	if set("params-b") {
		arch.ParamsB = fl.paramsB
		arch.NativeWeightsGiB = 0
	}
	if set("layers") {
		arch.Layers = fl.layers
		arch.SlidingWindowLayers = min(arch.SlidingWindowLayers, max(0, fl.layers-1))
	}
	if set("attention-heads") {
		arch.Heads = fl.heads
	}
	if set("kv-heads") {
		arch.KVHeads = fl.kvHeads
	}
	if set("head-dim") {
		arch.HeadDim = fl.headDim
	}
	if set("kv-lora-rank") {
		arch.KVLoraRank = fl.kvLora
	}
	if set("qk-rope-head-dim") {
		arch.QKRopeHeadDim = fl.qkRope
	}
	if set("hidden-size") {
		arch.Hidden = fl.hidden
	}
	if set("vocab-size") {
		arch.Vocab = fl.vocab
	}
	if set("intermediate-size") {
		arch.Intermediate = fl.intermediate
	}
	assumed, more := sizing.AssumeShape(*arch)
	*arch = assumed
	*notes = append(*notes, more...)
}

// newerRelease reports whether release a ("0.31.1", "v0.32.0") is later
// than b, comparing the numbered parts in order; a part that is not a
// number (a ".dev" suffix) ends the comparison.
func newerRelease(a, b string) bool {
	pa := strings.Split(strings.TrimPrefix(strings.TrimSpace(a), "v"), ".")
	pb := strings.Split(strings.TrimPrefix(strings.TrimSpace(b), "v"), ".")
	for i := range max(len(pa), len(pb)) {
		x, y := 0, 0
		var errA, errB error
		if i < len(pa) {
			x, errA = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, errB = strconv.Atoi(pb[i])
		}
		if errA != nil || errB != nil {
			return false
		}
		if x != y {
			return x > y
		}
	}
	return false
}
