package report_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

// The one wrapper keeps flags, ranges and metric names whole, cuts only a
// word longer than a line, and never runs past the width, indents and
// hangs included.
func TestWrapKeepsFlagsWholeAndCutsOnlyOverlongWords(t *testing.T) {
	text := "raise --max-num-batched-tokens for 2048-8192 token prompts; watch vllm:num_requests_waiting at https://docs.vllm.ai/en/latest/configuration/optimization-and-tuning.html"
	for _, w := range []int{12, 20, 36, 76} {
		lines := report.Wrap(text, w, 2, 2)
		joined := strings.Join(lines, "\n")
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("width %d: line %d is %d wide: %q", w, i, lw, l)
			}
		}
		for _, word := range []string{"--max-num-batched-tokens", "2048-8192", "vllm:num_requests_waiting"} {
			if len(word) <= w-4 && !strings.Contains(joined, word) {
				t.Errorf("width %d: %q is split:\n%s", w, word, joined)
			}
		}
		// Only spaces and line breaks may differ: no character is lost.
		if strings.Join(strings.Fields(joined), "") != strings.Join(strings.Fields(text), "") {
			t.Errorf("width %d: text was lost or reordered:\n%s", w, joined)
		}
	}
}

// A styled line keeps its colour off the indentation, so a hanging indent
// is plain spaces even when the text is coloured.
func TestWrapStyledLeavesIndentationPlain(t *testing.T) {
	st := report.NewStyles(true)
	for _, l := range report.WrapStyled("one two three four five six seven", 12, 2, 2, st.Muted) {
		if !strings.HasPrefix(l, "  ") {
			t.Errorf("indent is styled: %q", l)
		}
	}
}

// A URL, a path or a hash that fits a line of its own moves to the next
// line whole (giving up indent if it must); only a word wider than the
// whole width is cut, and then after a / rather than a hyphen.
func TestWrapNeverSplitsALinkThatFitsALine(t *testing.T) {
	path := "kserve/kserve@aaac4e294dae2c7b1aa1886447793f3aa1c30912:docs/OPENSHIFT_GUIDE.md" // 78 cells
	lines := report.Wrap("[3] KServe, where it runs: kserve/kserve@aaac:README.md; "+path, 80, 0, 4)
	found := false
	for _, l := range lines {
		if len(l) > 80 {
			t.Errorf("line wider than 80: %q", l)
		}
		if strings.TrimSpace(l) == path {
			found = true
		}
	}
	if !found {
		t.Errorf("the 78-cell path was split though it fits a line:\n%s", strings.Join(lines, "\n"))
	}
	long := "https://docs.example.com/dynamo/v1.6.0/kubernetes/model-deployment/deploy-on-intel-gp-us-with-dra"
	lines = report.Wrap("see "+long, 80, 0, 4)
	if len(lines) < 2 || !strings.HasSuffix(lines[len(lines)-2], "/") {
		t.Errorf("a URL wider than the line should be cut after a /:\n%s", strings.Join(lines, "\n"))
	}
}
