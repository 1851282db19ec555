package sizing

import (
	"math"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

func sglangInput(t testing.TB, model, gpu string, s Settings) Input {
	t.Helper()
	kb := knowledge.MustDefault()
	m, gp := kb.Model(model), kb.GPU(gpu)
	if m == nil || gp == nil {
		t.Fatalf("catalog lacks %s or %s", model, gpu)
	}
	s.Engine = EngineSGLang
	return Resolve(Input{Arch: ArchOf(m), Hardware: HardwareOf(gp), Settings: s}, SGLangDefaults(gp.MemoryGiB))
}

// SGLang's --mem-fraction-static by its own rule (memory_hook.py,
// handle_gpu_memory_settings) on an 80 GB H100 (79.19 GiB = 81,090.56 MiB
// in the catalog), Llama-3.1-8B, chunk 8192:
// TP 1: 512 + 1.5 × 8192 + 1 × 1/8 × 1024 + decode 256 × 2 + 58 prefill
// buckets × 8 = 13,904 MiB → (81,090.56 − 13,904) / 81,090.56 = 0.829.
// TP 8: the decode graph's batch is 512 from TP 4 and the parallel term
// 1,024: 15,312 MiB → 0.811.
func TestSGLangMemFractionFollowsItsOwnRule(t *testing.T) {
	for _, tc := range []struct {
		tp       int
		reserved float64
		frac     float64
	}{
		{1, 13904, 0.829},
		{8, 15312, 0.811},
	} {
		in := sglangInput(t, "llama-3.1-8b", "h100", Settings{TP: tc.tp, MaxModelLen: 8192})
		st := sglangStaticOf(in)
		if math.Abs(st.reservedMiB-tc.reserved) > 0.5 || st.fraction != tc.frac {
			t.Errorf("TP %d: reserved %.1f MiB, fraction %v; want %.0f, %v (%s)", tc.tp, st.reservedMiB, st.fraction, tc.reserved, tc.frac, st.formula)
		}
	}
}

// The KV pool is the fraction's share minus the weights and what else is
// in use; nothing is taken off for activations a second time.
func TestSGLangKVPoolIsTheFractionLessWeights(t *testing.T) {
	in := sglangInput(t, "llama-3.1-8b", "h100", Settings{MaxModelLen: 8192})
	r := mustSize(t, in)
	want := r.GPUMemoryUtilization*in.Hardware.MemoryGiB - r.WeightsGiBPerGPU - r.NonTorchGiB
	if math.Abs(r.KVPoolGiBPerGPU-want) > 1e-9 || !r.Fits {
		t.Fatalf("pool %.3f GiB, want %.3f (fits %v: %s)", r.KVPoolGiBPerGPU, want, r.Fits, r.Reason)
	}
	if r.BlockSize != 1 || r.KVCacheTokens != int64(math.Floor(r.KVPoolGiBPerGPU*GiB/float64(r.KVBytesPerTokenPerGPU))) {
		t.Errorf("page size %d, %d tokens: SGLang counts single tokens", r.BlockSize, r.KVCacheTokens)
	}
	for _, key := range []string{"mem_fraction_static", "kv_pool_gib_per_gpu"} {
		if fg := r.Figure(key); fg.Formula == "" || !strings.Contains(fg.Source, "memory_hook.py") {
			t.Errorf("figure %s lacks its formula or source: %+v", key, fg)
		}
	}
}

// Below 60 GiB there is no 10 GiB floor; above it, a small reserve is
// raised to the floor. MLA models reserve 1.5 GiB for the prefill graph,
// and pipeline parallelism turns the prefill graph off.
func TestSGLangReserveFloorMLAAndPipeline(t *testing.T) {
	small := sglangInput(t, "llama-3.1-8b", "h100", Settings{MaxModelLen: 8192, MaxNumBatchedTokens: 2048})
	if st := sglangStaticOf(small); st.reservedMiB != sglangBigGPUFloorMiB || !strings.Contains(st.formula, "floor") {
		t.Errorf("a 2,048 chunk on an H100: reserved %.0f MiB, want the 10 GiB floor (%s)", st.reservedMiB, st.formula)
	}
	l40s := sglangInput(t, "llama-3.1-8b", "l40s", Settings{MaxModelLen: 8192})
	if st := sglangStaticOf(l40s); st.reservedMiB >= sglangBigGPUFloorMiB || strings.Contains(st.formula, "floor") {
		t.Errorf("L40S: reserved %.0f MiB should not be floored (%s)", st.reservedMiB, st.formula)
	}
	if d := SGLangDefaults(l40s.Hardware.MemoryGiB); d.MaxNumBatchedTokens != 4096 {
		t.Errorf("L40S chunk %d, want SGLang's 4096 under 60 GiB", d.MaxNumBatchedTokens)
	}
	pp := sglangInput(t, "llama-3.1-8b", "h100", Settings{PP: 2, MaxModelLen: 8192})
	if st := sglangStaticOf(pp); !strings.Contains(st.formula, "prefill graph off") {
		t.Errorf("PP 2 keeps a prefill graph: %s", st.formula)
	}
	if n := prefillBuckets(8192); n != 58 {
		t.Errorf("prefill buckets up to 8192: %d, want 58", n)
	}
}
