package sizing

import (
	"errors"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

func catalogInput(t testing.TB, model, gpu string, s Settings) Input {
	t.Helper()
	kb := knowledge.MustDefault()
	m, gp := kb.Model(model), kb.GPU(gpu)
	if m == nil || gp == nil {
		t.Fatalf("catalog lacks %s or %s", model, gpu)
	}
	in := Input{Arch: ArchOf(m), Hardware: HardwareOf(gp), Settings: s}
	d := VLLMDefaults(VLLMMinor(CurrentVLLM), gp.MemoryGiB, gp.ID, EntryServe, s.MaxModelLen)
	return Resolve(in, d)
}

func mustSize(t testing.TB, in Input) Result {
	t.Helper()
	r, err := Size(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestKVBytesPerTokenFollowsTheArchitecture(t *testing.T) {
	cases := []struct {
		name  string
		model string
		s     Settings
		want  int64
	}{
		{"GQA: 2 × 80 layers × 8 KV heads × 128 × 2 B", "llama-3.3-70b", Settings{TP: 1}, 2 * 80 * 8 * 128 * 2},
		{"TP 4 splits the 8 KV heads to 2 per GPU", "llama-3.3-70b", Settings{TP: 4}, 2 * 80 * 2 * 128 * 2},
		{"TP 8 beyond 4 KV heads replicates one head per GPU", "qwen3-235b-a22b", Settings{TP: 8}, 2 * 94 * 1 * 128 * 2},
		{"PP 2 halves the layers per GPU", "llama-3.3-70b", Settings{TP: 1, PP: 2}, 2 * 40 * 8 * 128 * 2},
		{"fp8 KV halves the bytes", "llama-3.3-70b", Settings{TP: 1, KVCacheDType: "fp8_e4m3"}, 2 * 80 * 8 * 128},
		{"MLA stores latent + rope once per layer, on every TP rank", "deepseek-v3", Settings{TP: 8}, 61 * (512 + 64) * 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := catalogInput(t, c.model, "h200", c.s)
			if got := kvPerToken(in).total; got != c.want {
				t.Errorf("got %d B, want %d", got, c.want)
			}
		})
	}
}

func TestADraftModelAddsItsLayersToTheKVCache(t *testing.T) {
	in := catalogInput(t, "llama-3.1-8b", "h100", Settings{})
	base := kvPerToken(in).total
	in.Draft = &Draft{Layers: 1, KVHeads: 8, HeadDim: 128}
	if got := kvPerToken(in).total; got != base+2*8*128*2 {
		t.Errorf("with an EAGLE layer: %d B, want %d", got, base+2*8*128*2)
	}
}

func TestSlidingWindowLayersKeepOnlyTheWindowPerRequest(t *testing.T) {
	in := catalogInput(t, "gemma-3-27b", "h100", Settings{TP: 2, MaxModelLen: 32768})
	k := kvPerToken(in)
	full := int64(roundUp(32768, 16)) * (k.total - k.sliding)
	if got := k.perRequest(32768, 16); got >= full+int64(32768)*k.sliding || got <= full {
		t.Errorf("per request %d B: sliding layers should add only about the 1024-token window", got)
	}
}

func TestSeedExample70BOnFourH100sFitsWithRoom(t *testing.T) {
	r := mustSize(t, catalogInput(t, "llama-3.3-70b", "h100", Settings{TP: 4, MaxModelLen: 8192}))
	if !r.Fits || r.MaxConcurrency < 50 {
		t.Fatalf("70B on 4×H100 at 8K: fits=%v concurrency %.1f (%s)", r.Fits, r.MaxConcurrency, r.Reason)
	}
	if r.WeightsGiBPerGPU < 32.5 || r.WeightsGiBPerGPU > 33.2 {
		t.Errorf("weights per GPU %.2f GiB, want about 32.85 (70.55 B × 2 B / 4 / 2^30)", r.WeightsGiBPerGPU)
	}
	for _, fg := range r.Figures {
		if fg.Formula == "" || strings.Contains(fg.Formula, "%!") {
			t.Errorf("figure %s has a broken formula: %q", fg.Key, fg.Formula)
		}
	}
}

func TestVLLMRefusesWhatDoesNotFit(t *testing.T) {
	r := mustSize(t, catalogInput(t, "llama-3.3-70b", "h100", Settings{TP: 1, MaxModelLen: 131072}))
	if r.Fits || r.Reason == "" {
		t.Fatalf("70B bf16 on one H100 at 128K should not fit; got fits=%v", r.Fits)
	}
}

func TestSmallestTPForThe70BIsFourOnH100AndTwoOnH200(t *testing.T) {
	for gpu, want := range map[string]int{"h100": 4, "h200": 2} {
		in := catalogInput(t, "llama-3.3-70b", gpu, Settings{MaxModelLen: 8192, MinConcurrency: 4})
		fit, err := SmallestTP(in, 8, 1)
		if err != nil {
			t.Fatal(err)
		}
		if fit.Result.TensorParallelSize != want {
			t.Errorf("%s: smallest TP %d, want %d (tried %+v)", gpu, fit.Result.TensorParallelSize, want, fit.Tried)
		}
	}
}

func TestA405BNeedsMoreThanFourL4s(t *testing.T) {
	in := catalogInput(t, "llama-3.1-405b", "l4", Settings{MaxModelLen: 8192})
	_, err := SmallestTP(in, 4, 1)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Problem, "does not fit") {
		t.Fatalf("want a does-not-fit InputError, got %v", err)
	}
}

func TestImpossibleSettingsAreInputErrors(t *testing.T) {
	cases := map[string]Settings{
		"utilization 0":          {Utilization: -0.5},
		"utilization above 1":    {Utilization: 1.2},
		"TP not dividing heads":  {TP: 3},
		"context above native":   {MaxModelLen: 1 << 20},
		"unknown kv cache dtype": {KVCacheDType: "fp4"},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			in := catalogInput(t, "llama-3.1-8b", "h100", s)
			var ie *InputError
			if _, err := Size(in); !errors.As(err, &ie) {
				t.Errorf("want InputError, got %v", err)
			}
		})
	}
}

func TestVLLMDefaultsDependOnGPUAndRelease(t *testing.T) {
	if d := VLLMDefaults(29, 79.19, "h100", EntryServe, 8192); d.MaxNumSeqs != 1024 || d.MaxNumBatchedTokens != 8192 || d.Utilization != 0.92 {
		t.Errorf("H100 on v0.29: %+v", d)
	}
	if d := VLLMDefaults(29, 79.15, "a100-80gb", EntryServe, 8192); d.MaxNumSeqs != 256 || d.MaxNumBatchedTokens != 2048 {
		t.Errorf("A100 on v0.29: %+v", d)
	}
	if d := VLLMDefaults(6, 23.58, "rtx 3090", EntryServe, 20000); d.ChunkedPrefill || d.MaxNumBatchedTokens != 20000 || d.Utilization != 0.9 {
		t.Errorf("V0: %+v", d)
	}
	for v, want := range map[string]int{"0.26.0": 26, "v0.9.1.dev705+g01220ce89": 9, "0.6.4.dev9+g5d264f4a (ROCm build)": 6, "nonsense": 0} {
		if got := VLLMMinor(v); got != want {
			t.Errorf("VLLMMinor(%q) = %d, want %d", v, got, want)
		}
	}
}

func BenchmarkSize(b *testing.B) {
	in := catalogInput(b, "llama-3.3-70b", "h100", Settings{TP: 4, MaxModelLen: 8192})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Size(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSmallestTP(b *testing.B) {
	in := catalogInput(b, "llama-3.1-405b", "h100", Settings{MaxModelLen: 8192, MinConcurrency: 4})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SmallestTP(in, 8, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func TestARawArchitectureIsAssumedTheWidthsItLeavesOut(t *testing.T) {
	cases := []struct {
		name       string
		arch       Arch
		hidden     int
		assumption string
	}{
		{"heads × head dim", Arch{Heads: 32, HeadDim: 128, Layers: 32}, 4096, "attention heads × head dim"},
		{"from params and layers", Arch{ParamsB: 8, Layers: 32}, 4564, "12 × layers × hidden²"},
		{"nothing to go on", Arch{}, AssumedHidden, "assumed 4096"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, notes := AssumeShape(c.arch)
			if got.Hidden != c.hidden || got.Vocab != AssumedVocab || got.Intermediate != c.hidden*7/2 {
				t.Errorf("got hidden %d, vocab %d, intermediate %d", got.Hidden, got.Vocab, got.Intermediate)
			}
			if len(notes) != 2 || !strings.Contains(notes[0], c.assumption) || !strings.Contains(notes[1], "151,936") {
				t.Errorf("notes: %q", notes)
			}
		})
	}
	if _, notes := AssumeShape(Arch{Hidden: 4096, Vocab: 32000, Intermediate: 14336}); len(notes) != 0 {
		t.Errorf("a full architecture needs no assumption: %q", notes)
	}
}

func TestAGPUGivenByItsMemoryBorrowsTheReferenceOverhead(t *testing.T) {
	kb := knowledge.MustDefault()
	h, note := CustomHardware(kb, 40)
	ref := kb.GPU(ReferenceGPU)
	if h.Name != "custom" || h.MemoryGiB != 40 || h.BandwidthTBs != 0 || h.NonTorchGiB != ref.NonTorchGiB || !strings.Contains(note, "AMD") {
		t.Errorf("got %+v, %q", h, note)
	}
}
