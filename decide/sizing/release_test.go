package sizing_test

import (
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// The Go fallback release and the knowledge base's vLLM release tag name the
// same release, so `stackpick size` and the launch command never disagree.
func TestCurrentVLLMIsTheKnowledgeBaseRelease(t *testing.T) {
	kb := knowledge.MustDefault()
	if got, want := decide.VLLMRelease(kb), "v"+sizing.CurrentVLLM; got != want {
		t.Errorf("knowledge base's vLLM release %s, sizing.CurrentVLLM names %s: move them together", got, want)
	}
}

// --max-cudagraph-capture-size's default: min(seqs × (1 + spec) × 2,
// ceiling), capped at the step's token budget.
func TestCUDAGraphCaptureMax(t *testing.T) {
	for _, c := range []struct{ seqs, spec, tokens, ceiling, want int }{
		{256, 0, 2048, sizing.CUDAGraphCeiling, 512},
		{1024, 0, 8192, sizing.CUDAGraphCeiling, 512},
		{1024, 0, 16384, sizing.CUDAGraphCeilingSM100, 1024},
		{128, 0, 8192, sizing.CUDAGraphCeiling, 256},
		{40, 3, 8192, sizing.CUDAGraphCeiling, 320},
		{256, 0, 256, sizing.CUDAGraphCeiling, 256},
	} {
		if got := sizing.CUDAGraphCaptureMax(c.seqs, c.spec, c.tokens, c.ceiling); got != c.want {
			t.Errorf("CUDAGraphCaptureMax(%d, %d, %d, %d) = %d, want %d", c.seqs, c.spec, c.tokens, c.ceiling, got, c.want)
		}
	}
}
