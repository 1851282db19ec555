package knowledge_test

import (
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

func answers(t *testing.T, src string) knowledge.Answers {
	t.Helper()
	a, err := kb.ParseAnswers("a.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type change struct{ key, from, to string }

func changes(cs []knowledge.AnswerChange) []change {
	var out []change
	for _, c := range cs {
		out = append(out, change{c.Q.Key, c.FromText(), c.ToText()})
	}
	return out
}

func TestDiffListsTheAnswersThatMovedInQuestionOrderWithoutDerivedOnes(t *testing.T) {
	from := answers(t, "nodes = 2\ngpu = \"h100\"\nkubernetes = \"required\"\n")
	to := answers(t, "nodes = 4\ngpu = \"mi300x\"\nkubernetes = \"required\"\nother_model_types = [\"vision\"]\n")
	got := changes(kb.Diff(from, to))
	// total_gpus and gpu_vendor moved too, but follow from nodes and gpu.
	want := []change{{"nodes", "2", "4"}, {"gpu", "h100", "mi300x"}, {"other_model_types", "(none)", "vision"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if d := kb.Diff(to, to); len(d) != 0 {
		t.Errorf("an answer set differs from itself: %v", changes(d))
	}
}

func TestChangedIsTheDiffFromTheDefaults(t *testing.T) {
	if c := kb.Changed(kb.Defaults()); len(c) != 0 {
		t.Errorf("the defaults differ from themselves: %v", changes(c))
	}
	got := changes(kb.Changed(answers(t, "latency_priority = \"throughput\"\n")))
	if len(got) != 1 || got[0] != (change{"latency_priority", "balanced", "throughput"}) {
		t.Errorf("got %v", got)
	}
}

func TestSameComparesEveryAnswer(t *testing.T) {
	a := answers(t, "nodes = 2\n")
	if !kb.Same(a, a.Clone()) {
		t.Error("a clone is not the same")
	}
	if kb.Same(a, kb.Defaults()) {
		t.Error("nodes = 2 is the same as the defaults")
	}
	// Lists compare as sets in the question's order, as ParseAnswers keeps them.
	if !kb.Same(answers(t, "other_model_types = [\"tabular\", \"vision\"]\n"), answers(t, "other_model_types = [\"vision\", \"tabular\"]\n")) {
		t.Error("the same list in another order is not the same")
	}
}

func TestCheckSaysWhichAnswerIsNotAllowed(t *testing.T) {
	cases := []struct {
		key  string
		v    knowledge.Value
		want string
	}{
		{"nodes", knowledge.Value{Int: 0}, "answers: nodes: 0 is too small (allowed: a whole number from 1 to 100000)"},
		{"gpus_per_node", knowledge.Value{Int: 65}, "answers: gpus_per_node: 65 is too large (allowed: a whole number from 0 to 64)"},
		{"latency_priority", knowledge.Value{Str: "interactive"}, `answers: latency_priority: "interactive" is not an allowed value (allowed: latency, balanced, throughput)`},
		{"other_model_types", knowledge.Value{List: []string{"vision", "vision"}}, `answers: other_model_types: "vision" is listed twice (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech)`},
		{"other_model_types", knowledge.Value{List: []string{"audio"}}, `answers: other_model_types: "audio" is not an allowed value (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech)`},
	}
	for _, c := range cases {
		a := kb.Defaults()
		a.Put(kb.QuestionIndex(c.key), c.v)
		err := kb.Check(a)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s = %+v: got %v, want %s", c.key, c.v, err, c.want)
		}
	}
	if err := kb.Check(kb.Defaults()); err != nil {
		t.Errorf("the defaults are not allowed: %v", err)
	}
	if q := kb.Question("nodes"); q.Check(knowledge.Value{Int: 1}) != nil || q.Check(knowledge.Value{Int: 100000}) != nil {
		t.Error("the ends of the range are not allowed")
	}
}
