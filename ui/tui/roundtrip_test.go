package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// Answers typed into the questionnaire, saved from the result view, replay
// to the decision the result view showed: through kb.ParseAnswers and
// decide, and through `stackpick decide --answers`.
func TestSavedAnswersReplayToTheShownDecision(t *testing.T) {
	kb, _ := loadKB(t)
	d := newDriver(t, 80, 24)
	d.press("n")
	// Fleet: 4 nodes, 8 GPUs each (default), H200.
	d.press("backspace").typeText("4").press("enter", "enter", "down", "enter")
	// Fleet: one GPU type, replicas worked out, substrate from kubernetes.
	d.press("enter", "enter", "enter")
	// Models: one base, 3 fine-tunes as LoRA (no adapter routing), 3 tenants,
	// embeddings too, no day-0 architectures.
	d.press("enter", "backspace").typeText("3").press("enter", "down", "enter", "enter", "backspace").typeText("3")
	d.press("enter", "down", "down", "down", "space", "enter", "enter", "enter")
	// Models: model, weights and KV cache dtypes stay at their defaults.
	d.press("enter", "enter", "enter")
	// Workload: agentic, high prefix reuse, the rest default.
	d.press("down", "enter", "down", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	// Platform: Kubernetes required, cache-aware routing, the rest default.
	d.press("down", "down", "enter", "down", "enter")
	for range 5 {
		d.press("enter")
	}
	// Team: defaults; the last enter shows the result.
	d.press("enter", "enter", "enter", "enter")

	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("walking the questionnaire ended on %q, not the result:\n%s", d.screen().Title(), d.view())
	}
	shown := d.m.c.session.decision
	a := shown.Answers
	for key, want := range map[string]string{
		"nodes": "4", "gpu": "h200", "fine_tunes": "3", "fine_tune_method": "lora", "tenants": "3",
		"other_model_types": "embedding", "workload": "agentic", "prefix_reuse": "high",
		"kubernetes": "required", "cache_aware_routing": "true", "ray_experience": "none",
	} {
		if got := a.Get(key).Plain(kb.Question(key).Type); got != want {
			t.Errorf("answer %s = %s, want %s (the form did not record what was entered)", key, got, want)
		}
	}
	if v := d.view(); !strings.Contains(v, report.StackLine(kb, shown)) {
		t.Errorf("the result view does not show the stack %q:\n%s", report.StackLine(kb, shown), v)
	}

	path := filepath.Join(t.TempDir(), "meeting.toml")
	d.press("s", "ctrl+u").typeText(path).press("enter")
	if s, ok := d.screen().(*saveScreen); !ok || s.saved != path {
		t.Errorf("no confirmation of the save:\n%s", d.view())
	}
	d.press("enter")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("saving did not return to the result:\n%s", d.view())
	}
	if d.m.c.session.unsaved() {
		t.Error("answers still marked unsaved after saving")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	back, err := kb.ParseAnswers(path, data)
	if err != nil {
		t.Fatalf("the saved file does not parse: %v\n%s", err, data)
	}
	sameJSON(t, "kb.ParseAnswers + decide", decide.Decide(kb, back), shown)

	out, err := exec.Command(stackpickBinary(t), "decide", "--answers", path, "--format", "json").Output()
	if err != nil {
		t.Fatalf("stackpick decide --answers %s: %v", path, err)
	}
	sameJSON(t, "stackpick decide --answers", json.RawMessage(out), shown)
}

// Saving over an existing file asks first; "no" keeps the file as it was.
func TestSaveNeverOverwritesSilently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.toml")
	if err := os.WriteFile(path, []byte("# keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, 80, 24)
	d.press("l", "r", "s", "ctrl+u").typeText(path).press("enter")
	if _, ok := d.screen().(*confirmScreen); !ok {
		t.Fatalf("saving over an existing file did not ask:\n%s", d.view())
	}
	d.press("n")
	if data, _ := os.ReadFile(path); string(data) != "# keep me\n" {
		t.Fatalf("answering no changed the file:\n%s", data)
	}
	if _, ok := d.screen().(*saveScreen); !ok {
		t.Fatalf("after no, expected the path prompt again:\n%s", d.view())
	}
	d.press("enter", "y")
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `kubernetes = "required"`) {
		t.Fatalf("answering yes did not replace the file:\n%s", data)
	}
}

// sameJSON compares two values by their JSON, so the comparison is the
// one a script reading `--format json` would make.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	norm := func(v any) any {
		var b []byte
		if raw, ok := v.(json.RawMessage); ok {
			b = raw
		} else if d, ok := v.(decide.Decision); ok {
			// As decide --format json writes it, manifests and all.
			var buf bytes.Buffer
			if err := report.DecisionJSON(&buf, d); err != nil {
				t.Fatal(err)
			}
			b = buf.Bytes()
		} else {
			var err error
			if b, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if !reflect.DeepEqual(norm(got), norm(want)) {
		g, _ := json.MarshalIndent(norm(got), "", " ")
		w, _ := json.MarshalIndent(norm(want), "", " ")
		t.Errorf("%s gives a different decision than the result view showed\n--- got ---\n%s\n--- shown ---\n%s", what, g, w)
	}
}
