package sizing

import (
	"errors"
	"strings"
	"testing"
)

// "Does not fit" counts in English: one GPU, one request, nodes of one
// GPU; never "1 GPUs" or "request(s)".
func TestDoesNotFitCountsInWords(t *testing.T) {
	cases := []struct {
		maxTP, maxPP, want int
		says               string
	}{
		{1, 1, 1, "does not fit 1 GPU of one node even at the largest layout, with 1 request of"},
		{1, 2, 8, "does not fit 2 nodes of 1 GPU (TP 1 × PP 2) even at the largest layout, with 8 requests of"},
	}
	for _, tc := range cases {
		in := catalogInput(t, "llama-3.1-405b", "l4", Settings{MaxModelLen: 8192, MinConcurrency: tc.want})
		_, err := SmallestTP(in, tc.maxTP, tc.maxPP)
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Fatalf("want a does-not-fit InputError, got %v", err)
		}
		if !strings.Contains(ie.Problem, tc.says) || strings.Contains(ie.Problem, "(s)") {
			t.Errorf("TP ≤ %d, PP ≤ %d: %q, want it to say %q", tc.maxTP, tc.maxPP, ie.Problem, tc.says)
		}
	}
}
