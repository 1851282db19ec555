package knowledge

import (
	"strings"
	"testing"
)

func overlayErrors(t *testing.T, name, src string) string {
	t.Helper()
	_, err := Build(Embedded(), []SourceFile{{Name: name, Data: []byte(src)}})
	if err == nil {
		t.Fatalf("overlay %s loaded without error", name)
	}
	return err.Error()
}

func TestEveryModelAndFlagHasASourceAndDate(t *testing.T) {
	kb := MustDefault()
	if len(kb.Models) < 10 || len(kb.Flags) < 20 {
		t.Fatalf("%d models, %d flags", len(kb.Models), len(kb.Flags))
	}
	for _, want := range []string{"llama-3.1-8b", "llama-3.3-70b", "llama-3.1-405b", "qwen3-8b", "qwen3-32b", "qwen3-235b-a22b", "deepseek-v3", "mixtral-8x7b", "gemma-3-27b", "gpt-oss-120b"} {
		if kb.Model(want) == nil {
			t.Errorf("catalog lacks %s", want)
		}
	}
	for _, f := range kb.Flags {
		if f.Status != FlagCurrent && f.ReplacedBy == "" {
			t.Errorf("%s is %s but names no replacement", f.ID, f.Status)
		}
	}
}

func TestAModelOverlayWithATypoSaysWhere(t *testing.T) {
	msg := overlayErrors(t, "extra.toml", `[[model]]
id = "tiny"
name = "Tiny"
hf_id = "x/tiny"
params_b = 1.0
layers = 4
attention_heads = 6
kv_heads = 4
head_dim = 64
hidden_size = 384
intermediate_size = 1024
vocab_size = 32000
native_context = 2048
native_dtype = "bf16"
sorce = "typo"
as_of = "2026-11"
`)
	for _, want := range []string{"extra.toml:15", "unknown key", `did you mean "source"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

func TestAModelWhoseHeadsDoNotGroupIsRejected(t *testing.T) {
	msg := overlayErrors(t, "extra.toml", `[[model]]
id = "odd"
name = "Odd"
hf_id = "x/odd"
params_b = 1.0
layers = 4
attention_heads = 6
kv_heads = 4
head_dim = 64
hidden_size = 384
intermediate_size = 1024
vocab_size = 32000
native_context = 2048
native_dtype = "bf16"
source = [{ kind = "notes", section = "s", quote = "q", checked_on = "2026-12-01" }]
`)
	if !strings.Contains(msg, "cannot be grouped") {
		t.Errorf("error %q", msg)
	}
}

func TestAFlagReplacedByAnUnknownFlagSuggestsTheNearest(t *testing.T) {
	msg := overlayErrors(t, "flags.toml", `[[flag]]
id = "vllm-old"
engine = "vllm"
name = "--old"
effect = "gone"
status = "removed"
removed = "v0.1"
replaced_by = "vllm-max-num-seq"
source = [{ kind = "notes", section = "s", quote = "q", checked_on = "2026-12-01" }]
`)
	if !strings.Contains(msg, `did you mean "vllm-max-num-seqs"`) {
		t.Errorf("error %q", msg)
	}
}

func TestTheModelQuestionTakesItsValuesFromTheCatalog(t *testing.T) {
	kb := MustDefault()
	q := kb.Question("model")
	if q == nil || len(q.Values) != len(kb.Models) {
		t.Fatalf("model question: %+v", q)
	}
	a := kb.Defaults()
	err := a.Set("model", "llama-3.3-70")
	if err == nil || !strings.Contains(err.Error(), `did you mean "llama-3.3-70b"`) {
		t.Errorf("got %v", err)
	}
}
