package sizing

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/stackpick/stackpick/knowledge"
)

// observation is the part of a kv-observations.toml entry the test reads.
type observation struct {
	ID                   string  `toml:"id"`
	VLLMVersion          string  `toml:"vllm_version"`
	GPUModel             string  `toml:"gpu_model"`
	GPUTotalGiB          float64 `toml:"gpu_total_memory_gib"`
	TP                   int     `toml:"tensor_parallel_size"`
	AssumedTP            int     `toml:"assumed_tensor_parallel_size"`
	PP                   int     `toml:"pipeline_parallel_size"`
	ModelKey             string  `toml:"model_key"`
	DType                string  `toml:"dtype"`
	Quantization         string  `toml:"quantization"`
	KVCacheDType         string  `toml:"kv_cache_dtype"`
	Utilization          float64 `toml:"gpu_memory_utilization"`
	MaxModelLen          int     `toml:"max_model_len"`
	BlockSize            int     `toml:"block_size"`
	AvailableKVGiB       float64 `toml:"available_kv_cache_gib"`
	KVCacheTokens        int64   `toml:"kv_cache_tokens"`
	GPUBlocks            int64   `toml:"gpu_blocks"`
	CPUBlocks            int64   `toml:"cpu_blocks"`
	MaxConcurrencyTokens int     `toml:"max_concurrency_request_tokens"`
	Outcome              string  `toml:"outcome"`
	Notes                string  `toml:"notes"`
}

// context is what the test must know about an observation that the file
// does not hold as a field: facts stated in the source (its notes, command
// or date), never numbers chosen to make a prediction come out right.
type context struct {
	version string // vLLM release when the file has none, from the source's date
	entry   string // EntryServe or EntryLLM, from the command in the source
	// atDefaults: the source says the engine args it does not print are at
	// their defaults, so the release's defaults are real inputs.
	atDefaults bool
	// chunkedOff: the tool that produced the log turned chunked prefill off.
	chunkedOff bool
	gpu        string // catalog id of the card
	draft      *Draft // speculative draft whose layers share the pool
	why        string
}

var contexts = map[string]context{
	"vllm10517-3090-llama31-8b-20k": {version: "0.6", entry: EntryServe, gpu: "",
		why: "2024-12 comment with a V0-format profiling line: a V0 release (V1 became default in 0.8.0)"},
	"vllmpr4454-a6000-meta-llama-3-8b-instruct": {version: "0.4", entry: EntryLLM, atDefaults: true, gpu: "rtx-a6000",
		why: "main at 2024-04-29 (v0.4.x); python -c 'LLM(<model>)' with all engine args at defaults"},
	"vllmpr4454-a6000-llama-2-7b-gptq": {version: "0.4", entry: EntryLLM, atDefaults: true, gpu: "rtx-a6000",
		why: "as above; GPTQ 4-bit checkpoint"},
	"vllm21348-4xh100-qwen3-235b-fp8": {version: "0.10", entry: EntryServe, atDefaults: true, gpu: "h100",
		why: "issue of 2025-07-22 (v0.9.2/v0.10.0 era); 'vllm serve … --tensor-parallel-size 4', utilization and max_model_len left at defaults"},
	"idx57428438798-rtx4080-qwen25-7b-awq": {entry: EntryServe,
		why: "entry point not stated; vllm serve assumed. RTX 4080 is not in the catalog: the logged total is used"},
	"vllm19996-h100-llama31-8b-eagle": {entry: EntryServe, gpu: "h100", draft: &Draft{Layers: 1, KVHeads: 8, HeadDim: 128},
		why: "EAGLE draft head: one decoder layer with Llama 3.1 8B's attention shape (8 KV heads × 128); settings not shown"},
	"kor-l40s-qwen3-14b-bf16-default": {entry: EntryServe, atDefaults: true, gpu: "l40s",
		why: "command 'vllm serve Qwen/Qwen3-14B --disable-log-stats', everything else at defaults"},
	"kor-2xl4-tp2-qwen3-14b-awq": {entry: EntryServe, gpu: "l4",
		why: "settings for these runs not stated"},
	"idx34680831065-80gb-llava16-mistral-7b": {entry: EntryLLM, gpu: "h100",
		why: "python script using the LLM class; a 79.19 GiB card, which the catalog knows as the H100"},
	"mi300x-1x-llama3-8b-8k": {entry: EntryLLM, chunkedOff: true, gpu: "mi300x",
		why: "benchmark_latency passes enable_chunked_prefill=False unless asked"},
	"mi300x-8x-tp8-llama31-8b-131k-profiled": {entry: EntryLLM, chunkedOff: true, gpu: "mi300x",
		why: "benchmark_throughput passes enable_chunked_prefill=False unless asked"},
	"mi300x-2x-tp2-mixtral-8x7b-32k": {entry: EntryLLM, chunkedOff: true, gpu: "mi300x",
		why: "benchmark_throughput passes enable_chunked_prefill=False unless asked"},
}

// v0SwapGiB is V0's default --swap-space (GiB per GPU): with it, the logged
// "# CPU blocks" is a second reading of the KV bytes per token.
const v0SwapGiB = 4

// observationsPath is the real vLLM logs the accuracy tests read: a copy
// kept inside the module (testdata/README.md says where it came from), so
// Go's test cache sees a change to it and a missing file fails the test.
func observationsPath(t *testing.T) string {
	t.Helper()
	p := filepath.Join("testdata", "kv-observations.toml")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the real vLLM logs the accuracy test checks against are missing: %v (see testdata/README.md)", err)
	}
	return p
}

type row struct {
	group, id        string
	predicted, given float64
	unit, note       string
}

func (r row) err() float64 { return math.Abs(r.predicted-r.given) / r.given }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestKVEstimateMatchesRealVLLMLogs is the promise behind every KV number
// stackpick prints: on real vLLM start-up logs it has not been tuned to,
// (a) the bytes per token turn the logged KV memory into the logged token
// count within 1% (median), and (b) from the catalog and the settings
// alone it predicts the KV memory and tokens within 10% (median).
func TestKVEstimateMatchesRealVLLMLogs(t *testing.T) {
	path := observationsPath(t)
	var file observationsFile
	if _, err := toml.DecodeFile(path, &file); err != nil {
		t.Fatal(err)
	}
	kb := knowledge.MustDefault()
	var rows []row
	for _, o := range file.Observation {
		c, known := contexts[o.ID]
		if !known {
			t.Logf("%s: new observation without context; sized with defaults only in group (a)", o.ID)
		}
		m := kb.Model(o.ModelKey)
		if m == nil {
			t.Logf("%s: model %q not in the catalog; skipped", o.ID, o.ModelKey)
			continue
		}
		in := Input{Arch: ArchOf(m), Draft: c.draft}
		in.Settings.TP = max(o.TP, o.AssumedTP, 1)
		in.Settings.PP = max(o.PP, 1)
		in.Settings.BlockSize = max(o.BlockSize, 16)
		in.Settings.KVCacheDType = kvDTypeOf(o.KVCacheDType)
		in.Settings.WeightsDType = weightsDTypeOf(o)
		tokensLogged := float64(o.KVCacheTokens)
		if tokensLogged == 0 && o.GPUBlocks > 0 {
			tokensLogged = float64(o.GPUBlocks * int64(in.Settings.BlockSize))
		}
		bpt := kvPerToken(in).total
		blockBytes := float64(bpt) * float64(in.Settings.BlockSize)

		// (a) tokens from the logged KV memory.
		if o.AvailableKVGiB > 0 && tokensLogged > 0 {
			pred := math.Floor(o.AvailableKVGiB*GiB/blockBytes) * float64(in.Settings.BlockSize)
			rows = append(rows, row{group: "a: tokens from logged KV GiB", id: o.ID, predicted: pred, given: tokensLogged, unit: "tokens", note: fmt.Sprintf("%d B/token/GPU", bpt)})
		}
		if o.CPUBlocks > 0 {
			pred := math.Floor(v0SwapGiB * GiB / blockBytes)
			rows = append(rows, row{group: "a': CPU blocks from V0's 4 GiB swap", id: o.ID, predicted: pred, given: float64(o.CPUBlocks), unit: "blocks", note: fmt.Sprintf("%d B/token/GPU", bpt)})
		}

		// (b) first principles: catalog + settings, no logged breakdown.
		if !known || !eligibleB(o, c) {
			continue
		}
		version := o.VLLMVersion
		if version == "" {
			version = c.version
		}
		hw, ok := hardwareFor(kb, o, c)
		if !ok {
			continue
		}
		in.Hardware = hw
		d := VLLMDefaults(VLLMMinor(version), hw.MemoryGiB, hw.Name, c.entry, firstNonZero(o.MaxModelLen, m.NativeContext))
		in.Settings.Utilization = o.Utilization
		in.Settings.MaxModelLen = o.MaxModelLen
		if c.chunkedOff {
			off := false
			in.Settings.ChunkedPrefill = &off
			if d.MaxNumBatchedTokens < firstNonZero(o.MaxModelLen, m.NativeContext) {
				d.MaxNumBatchedTokens = max(firstNonZero(o.MaxModelLen, m.NativeContext), 2048)
			}
		}
		in = Resolve(in, d)
		r, err := Size(in)
		if err != nil {
			t.Errorf("%s: %v", o.ID, err)
			continue
		}
		kvGiven, note := o.AvailableKVGiB, "logged"
		if kvGiven == 0 {
			kvGiven, note = float64(o.GPUBlocks)*blockBytes/GiB, "from logged blocks"
		}
		rows = append(rows,
			row{group: "b: KV GiB per GPU from first principles", id: o.ID, predicted: r.KVPoolGiBPerGPU, given: kvGiven, unit: "GiB", note: note},
			row{group: "b: KV tokens from first principles", id: o.ID, predicted: float64(r.KVCacheTokens), given: tokensLogged, unit: "tokens",
				note: fmt.Sprintf("v%s %s util %.2f, weights %.2f, act %.2f, non-torch %.2f", version, c.entry, in.Settings.Utilization, r.WeightsGiBPerGPU, r.ActivationPeakGiB, r.NonTorchGiB)})
	}

	groups := map[string][]float64{}
	var order []string
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-40s %-44s %14s %14s %8s  %s\n", "group", "observation", "predicted", "logged", "error", "note")
	for _, r := range rows {
		if _, seen := groups[r.group]; !seen {
			order = append(order, r.group)
		}
		groups[r.group] = append(groups[r.group], r.err())
		fmt.Fprintf(&b, "%-40s %-44s %14.2f %14.2f %7.2f%%  %s\n", r.group, r.id, r.predicted, r.given, 100*r.err(), r.note)
	}
	fmt.Fprintf(&b, "\n%-40s %4s %10s %10s\n", "group", "n", "median", "worst")
	for _, gname := range order {
		errs := groups[gname]
		fmt.Fprintf(&b, "%-40s %4d %9.2f%% %9.2f%%\n", gname, len(errs), 100*median(errs), 100*slices.Max(errs))
	}
	t.Log(b.String())

	limits := map[string]float64{
		"a: tokens from logged KV GiB":            0.01,
		"a': CPU blocks from V0's 4 GiB swap":     0.01,
		"b: KV GiB per GPU from first principles": 0.10,
		"b: KV tokens from first principles":      0.10,
	}
	for gname, limit := range limits {
		errs := groups[gname]
		if len(errs) < 3 {
			t.Errorf("group %q has %d observations; the test needs at least 3", gname, len(errs))
			continue
		}
		if m := median(errs); m > limit {
			t.Errorf("group %q: median error %.2f%% exceeds %.0f%%", gname, 100*m, 100*limit)
		}
	}
}

type observationsFile struct {
	Observation []observation `toml:"observation"`
	Model       []struct {
		Key      string `toml:"key"`
		Layers   int    `toml:"num_hidden_layers"`
		Heads    int    `toml:"num_attention_heads"`
		KVHeads  int    `toml:"num_key_value_heads"`
		HeadDim  int    `toml:"head_dim"`
		SourceOK string `toml:"source_repo"`
	} `toml:"model"`
}

// TestCatalogAgreesWithTheLogsModelEntries checks the catalog's KV
// geometry against the config.json copies cited beside the logs.
func TestCatalogAgreesWithTheLogsModelEntries(t *testing.T) {
	var file observationsFile
	if _, err := toml.DecodeFile(observationsPath(t), &file); err != nil {
		t.Fatal(err)
	}
	kb := knowledge.MustDefault()
	checked := 0
	for _, m := range file.Model {
		c := kb.Model(m.Key)
		if c == nil || m.Layers == 0 {
			continue
		}
		checked++
		got := [4]int{c.Layers, c.Heads, c.KVHeads, c.HeadDim}
		want := [4]int{m.Layers, m.Heads, m.KVHeads, m.HeadDim}
		if got != want {
			t.Errorf("%s: catalog layers/heads/kv heads/head dim %v, the logs' model entry says %v", m.Key, got, want)
		}
	}
	if checked < 5 {
		t.Errorf("only %d models cross-checked", checked)
	}
}

// eligibleB says whether an observation has enough inputs for a
// first-principles prediction: the GPU's total (logged or catalogued), the
// utilization and max-model-len (logged, or stated to be at defaults), and
// no draft model whose weights are unknown.
func eligibleB(o observation, c context) bool {
	if c.draft != nil {
		return false
	}
	if o.GPUTotalGiB == 0 && c.gpu == "" {
		return false
	}
	if (o.Utilization == 0 || o.MaxModelLen == 0) && !c.atDefaults {
		return false
	}
	return o.Outcome == "started"
}

func hardwareFor(kb *knowledge.KB, o observation, c context) (Hardware, bool) {
	var hw Hardware
	if gp := kb.GPU(c.gpu); gp != nil {
		hw = HardwareOf(gp)
	} else if o.GPUTotalGiB > 0 && strings.Contains(strings.ToLower(o.GPUModel), "nvidia") {
		// An NVIDIA card the catalog lacks: its logged total, and the
		// software overhead every NVIDIA entry shares.
		ref := kb.GPU(ReferenceGPU)
		hw = HardwareOf(ref)
		hw.Name = o.GPUModel
	} else {
		return hw, false
	}
	if o.GPUTotalGiB > 0 {
		hw.MemoryGiB = o.GPUTotalGiB
	}
	return hw, true
}

func kvDTypeOf(s string) string {
	if strings.HasPrefix(s, "fp8") {
		return "fp8"
	}
	return "auto"
}

func weightsDTypeOf(o observation) string {
	q := strings.ToLower(o.Quantization + " " + o.Notes)
	switch {
	case strings.HasPrefix(q, "awq"), strings.HasPrefix(q, "gptq"), strings.Contains(q, "gptq weight-quantized"):
		return "int4"
	case strings.HasPrefix(q, "fp8"):
		return "fp8"
	}
	return "bf16"
}

func firstNonZero(xs ...int) int {
	for _, x := range xs {
		if x != 0 {
			return x
		}
	}
	return 0
}
