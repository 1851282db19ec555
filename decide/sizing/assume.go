package sizing

import (
	"fmt"
	"math"

	"github.com/stackpick/stackpick/knowledge"
)

// What a raw architecture is assumed to have when it leaves out the widths
// the activation estimate needs.
const (
	// AssumedHidden is the hidden size when neither the attention heads nor
	// the parameters give one.
	AssumedHidden = 4096
	// AssumedVocab is Qwen3's vocabulary, among the larger ones, so the
	// sampler's share of the activation peak is not underestimated.
	AssumedVocab = 151936
	// paramsPerLayerHidden2: a transformer layer holds about 12 × hidden²
	// parameters.
	paramsPerLayerHidden2 = 12
)

// What the smallest-TP search assumes when the caller does not say.
const (
	// SearchGPUsPerNode is an 8-GPU (HGX or DGX class) node.
	SearchGPUsPerNode = 8
	// SearchMinConcurrency is the headroom asked of the KV pool: requests
	// of the context length it must hold at once.
	SearchMinConcurrency = 4
)

// ReferenceGPU is the catalog GPU whose non-torch memory a GPU given only by
// its memory borrows: every NVIDIA entry shares the same software overhead.
const ReferenceGPU = knowledge.GPUReference

// AssumeShape fills the hidden, vocabulary and intermediate widths a raw
// architecture left out, and says what it assumed.
func AssumeShape(a Arch) (Arch, []string) {
	var notes []string
	if a.Hidden == 0 {
		switch {
		case a.Heads > 0 && a.HeadDim > 0:
			a.Hidden = a.Heads * a.HeadDim
			notes = append(notes, fmt.Sprintf("hidden size not given: assumed %d (attention heads × head dim) for the activation estimate", a.Hidden))
		case a.ParamsB > 0 && a.Layers > 0:
			a.Hidden = int(math.Sqrt(a.ParamsB * 1e9 / (paramsPerLayerHidden2 * float64(a.Layers))))
			notes = append(notes, fmt.Sprintf("hidden size not given: assumed %d from params ≈ 12 × layers × hidden² for the activation estimate", a.Hidden))
		default:
			a.Hidden = AssumedHidden
			notes = append(notes, fmt.Sprintf("hidden size not given: assumed %d for the activation estimate", AssumedHidden))
		}
	}
	if a.Vocab == 0 {
		a.Vocab = AssumedVocab
		notes = append(notes, "vocabulary size not given: assumed 151,936 (Qwen3's, among the larger ones) for the sampler's share of the activation peak")
	}
	if a.Intermediate == 0 && a.Experts == 0 {
		// The MLP is about 3.5 × hidden wide in the dense catalog models.
		a.Intermediate = a.Hidden * 7 / 2
	}
	return a, notes
}

// CustomHardware is a GPU given only by its memory: the reference GPU's
// non-torch overhead, no bandwidth, and a note saying so. kb may lack the
// reference (a trimmed overlay); the overhead is then zero.
func CustomHardware(kb *knowledge.KB, memGiB float64) (Hardware, string) {
	var h Hardware
	if ref := kb.GPU(ReferenceGPU); ref != nil {
		h = HardwareOf(ref)
	}
	h.Name, h.BandwidthTBs, h.MemoryGiB = "custom", 0, memGiB
	return h, "non-torch memory taken from the NVIDIA catalog entries; pass --gpu for AMD cards"
}
