package decide_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Every answer EngineReads declares changes an engine configuration for
// some answers: kb check may count it live on that word.
func TestEngineReadsAreTrue(t *testing.T) {
	c := decide.Compile(kb)
	bases := []knowledge.Answers{kb.Defaults(), scenario(t, "exit-test"), scenario(t, "nvidia-fleet"), scenario(t, "k8s-fleet")}
	fp := func(a knowledge.Answers) string {
		d := c.Decide(a)
		b, _ := json.Marshal(d.EngineConfig)
		return string(b)
	}
	for key, listed := range decide.EngineReads {
		q := kb.Question(key)
		if q == nil {
			t.Errorf("%s: not a question", key)
			continue
		}
		qi := kb.QuestionIndex(key)
		var values []knowledge.Value
		switch q.Type {
		case knowledge.TypeEnum:
			for _, v := range q.Values {
				values = append(values, knowledge.Value{Str: v})
			}
			if q.Catalog == knowledge.CatalogGPU {
				values = values[:0]
				for _, g := range kb.GPUs {
					values = append(values, knowledge.Value{Str: g.ID})
				}
			}
			if q.Catalog == knowledge.CatalogModel {
				values = values[:0]
				for _, m := range kb.Models {
					values = append(values, knowledge.Value{Str: m.ID})
				}
			}
		case knowledge.TypeBool:
			values = []knowledge.Value{{Bool: false}, {Bool: true}}
		case knowledge.TypeInt:
			for _, n := range []int{0, 1, 2, 4, 8, 16, 50, 200, 1000, 32768, 131072} {
				if (q.Min == nil || n >= *q.Min) && (q.Max == nil || n <= *q.Max) {
					values = append(values, knowledge.Value{Int: n})
				}
			}
		default:
			continue
		}
		for _, v := range values {
			if q.Type == knowledge.TypeEnum && listed != nil && !slices.Contains(listed, v.Str) {
				continue
			}
			told := false
			for _, b := range bases {
				mine := fp(b.With(qi, v))
				for _, w := range values {
					if !w.Equal(v, q.Type) && fp(b.With(qi, w)) != mine {
						told = true
						break
					}
				}
				if told {
					break
				}
			}
			if !told && (q.Type != knowledge.TypeInt || len(values) > 0) {
				t.Errorf("EngineReads says %s = %s changes the engine settings; no answers show it", key, v.Plain(q.Type))
			}
			if q.Type == knowledge.TypeInt {
				break // a number is live if any value of it moves the settings
			}
		}
	}
}
