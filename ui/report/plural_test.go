package report_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// oneOfMany is a count of one with a plural noun ("1 GPUs"), or a noun
// left to the reader to pluralise ("8 request(s)").
var oneOfMany = regexp.MustCompile(`(?:^|[^.\d])1 (GPUs|nodes|replicas|requests|prompts|checkpoints|base models|full fine-tunes|fine-tunes|steps|stages|adapters|tenants|models)\b|[a-z]\(s\)`)

// Counts read as English on every surface: "1 GPU", "8 requests", never
// "1 GPUs" or "8 request(s)". Every preset is checked, and each again with
// the answers that make the counts one: a one-GPU node, one full
// fine-tune beside one base model, one concurrent request.
func TestCountsAreSingularOrPlural(t *testing.T) {
	kb, all := presets(t)
	variants := []struct {
		name string
		set  map[string]any
	}{
		{"as is", nil},
		{"one GPU per node", map[string]any{"gpus_per_node": int64(1)}},
		{"one full fine-tune", map[string]any{"base_models": int64(1), "fine_tunes": int64(1), "fine_tune_method": "full"}},
		{"one request", map[string]any{"concurrent_requests": int64(1)}},
		{"one node of one GPU", map[string]any{"nodes": int64(1), "gpus_per_node": int64(1), "replicas": int64(1)}},
	}
	for _, sc := range all {
		for _, v := range variants {
			a := sc.Answers.Clone()
			for k, val := range v.set {
				if err := a.Set(k, val); err != nil {
					t.Fatalf("%s: %v", k, err)
				}
			}
			a, _ = a.Reconcile(sc.Answers)
			d := decide.Decide(kb, a)
			o := report.Origin{Scenario: &sc}
			outs := map[string]string{
				"text": ansi.Strip(report.Decision(kb, d, o.Header(), report.DefaultStyles(), 100)),
				"memo": report.Memo(kb, d, o.MemoInput("2026-11-30")),
			}
			var js strings.Builder
			if err := report.DecisionJSON(&js, d); err != nil {
				t.Fatal(err)
			}
			outs["json"] = js.String()
			for name, s := range outs {
				for _, line := range strings.Split(s, "\n") {
					if m := oneOfMany.FindString(line); m != "" {
						t.Errorf("%s, %s, %s: %q in %q", sc.Name, v.name, name, m, strings.TrimSpace(line))
					}
				}
			}
		}
	}
}
