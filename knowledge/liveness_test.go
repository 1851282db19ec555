package knowledge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// engineToday is what the engine settings read before decide exports it:
// the CLI's list, less workload (whose values the rules must keep live on
// their own).
var engineToday = map[string][]string{
	knowledge.KeyModel: nil, knowledge.KeyGPU: nil, knowledge.KeyContextTokens: nil,
	knowledge.KeyWeightsDType: nil, knowledge.KeyKVCacheDType: nil, knowledge.KeyLatencyPriority: nil,
	knowledge.KeyFineTunes: nil, knowledge.KeyFineTuneMethod: nil, knowledge.KeyNodes: nil,
	knowledge.KeyGPUsPerNode: nil, knowledge.KeyDisaggregation: nil, knowledge.KeyConcurrentRequests: nil,
	knowledge.KeyTTFTMs: nil, knowledge.KeyITLMs: nil, knowledge.KeyBaseModels: nil,
}

const liveQuestions = `[[question]]
key = "colour"
page = "Test"
type = "enum"
values = ["red", "green", "blue"]
default = "red"
prompt = "p"
why = "w"

[[question]]
key = "pets"
page = "Test"
type = "list"
values = ["cat", "dog", "fish"]
default = []
prompt = "p"
why = "w"

[[question]]
key = "loud"
page = "Test"
type = "bool"
default = false
prompt = "p"
why = "w"

[[question]]
key = "quiet"
page = "Test"
type = "bool"
default = true
prompt = "p"
why = "w"

[[question]]
key = "count"
page = "Test"
type = "int"
min = 0
default = 0
prompt = "p"
why = "w"
`

const liveRules = `[[rule]]
id = "green-sglang"
layer = "engine"
effect = "prefer"
product = "sglang"
weight = 1
reason = "r"
source = [{ kind = "notes", section = "s", quote = "q", checked_on = "2026-12-01" }]
[rule.when]
colour = { equals = "green" }
pets = { one_of = ["dog"] }
quiet = { equals = false }
`

func deadIn(t *testing.T, rules string, reads map[string][]string) []string {
	t.Helper()
	kb, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{
		{Name: "kb/q.toml", Data: []byte(liveQuestions)},
		{Name: "kb/r.toml", Data: []byte(rules)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range knowledge.DeadValues(kb, reads) {
		if d.Question.Page == "Test" {
			out = append(out, d.Question.Key+"="+d.Value)
		}
	}
	return out
}

func TestAValueNoRuleTellsApartIsDead(t *testing.T) {
	cases := []struct {
		name  string
		rules string
		reads map[string][]string
		want  []string
	}{
		{"nothing reads the test questions", "", nil,
			[]string{"colour=green", "colour=blue", "pets=cat", "pets=dog", "pets=fish", "loud=true", "quiet=false", "count=any value"}},
		{"a rule makes green, dog and quiet=false live; blue, cat, fish and loud stay dead", liveRules, nil,
			[]string{"colour=blue", "pets=cat", "pets=fish", "loud=true", "count=any value"}},
		{"a list count notices every item", liveRules + "[rule.when.pets]\n", nil, nil},
		{"the engine reads a value, or every value", liveRules, map[string][]string{"colour": {"blue"}, "loud": {"true"}, "count": nil, "pets": nil},
			nil},
	}
	cases[2].rules = strings.Replace(liveRules, `pets = { one_of = ["dog"] }`, `pets = { at_least = 1 }`, 1)
	cases[2].want = []string{"colour=blue", "loud=true", "count=any value"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := deadIn(t, c.rules, c.reads)
			if !slices.Equal(got, c.want) {
				t.Errorf("dead %v, want %v", got, c.want)
			}
		})
	}
}

func TestAThresholdMakesAnIntLive(t *testing.T) {
	rules := strings.Replace(liveRules, `colour = { equals = "green" }`, `count = { at_least = 50 }`, 1)
	if got := deadIn(t, rules, nil); slices.Contains(got, "count=any value") {
		t.Errorf("count is compared, still dead: %v", got)
	}
}

func TestADerivedKeysConditionCountsForItsInputs(t *testing.T) {
	// platform = bare-metal tests substrate and kubernetes; substrate =
	// bare-metal differs from auto only once Kubernetes is available, which
	// DeadValues tries. replicas_per_model ≥ 2 compares replicas.
	rule := `[[rule]]
id = "bare-metal-replicas"
layer = "engine"
effect = "prefer"
product = "sglang"
weight = 1
reason = "r"
source = [{ kind = "notes", section = "s", quote = "q", checked_on = "2026-12-01" }]
[rule.when]
platform = { equals = "bare-metal" }
replicas_per_model = { at_least = 2 }
`
	kb, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{{Name: "kb/r.toml", Data: []byte(rule)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range knowledge.DeadValues(kb, engineToday) {
		switch d.Question.Key {
		case knowledge.KeySubstrate, knowledge.KeyReplicas, knowledge.KeyKubernetes:
			t.Errorf("%s", d)
		}
	}
}

func TestADeadValueNamesItsQuestionsFileAndLine(t *testing.T) {
	kb, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{{Name: "kb/q.toml", Data: []byte(liveQuestions)}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range knowledge.DeadValues(kb, nil) {
		lines = append(lines, d.String())
	}
	for _, want := range []string{
		"kb/q.toml:1: colour = blue: no rule, landmine or engine setting tells it apart from red",
		"kb/q.toml:10: pets = fish: no rule, landmine or engine setting tells it apart from without it",
		"kb/q.toml:27: quiet = false: no rule, landmine or engine setting tells it apart from true",
		"kb/q.toml:35: count: no rule, landmine or engine setting compares it, so no number changes the decision",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %q in\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

func TestTheBuiltInKnowledgeBaseHasNoDeadAnswer(t *testing.T) {
	for _, d := range knowledge.DeadValues(knowledge.MustDefault(), engineToday) {
		t.Error(d)
	}
}
