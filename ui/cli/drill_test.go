package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/cli"
)

func runWithInput(t *testing.T, env []string, input string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), args, cli.IO{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb, Env: env})
	return code, out.String(), errb.String()
}

func TestTaxonomyDrillGradesAndRecords(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.json")
	env := []string{"STACKPICK_HISTORY=" + hist}
	kb := knowledge.MustDefault()
	c, _ := drill.Load(kb)
	var input strings.Builder
	for _, id := range c.TaxonomyQuiz(3, nil) {
		input.WriteString(map[string]string{"engine": "e", "model-server": "m", "orchestrator": "o"}[kb.Product(id).Layer] + "\n")
	}
	code, out, stderr := runWithInput(t, env, input.String(), "drill", "taxonomy", "--seed", "3")
	if code != 0 || stderr != "" || !strings.Contains(out, "Result: 9 of 9 (100%)") {
		t.Fatalf("code %d stderr %q\n%s", code, stderr, out)
	}
	// A wrong answer is graded with the reason, and asked first next time.
	wrong := strings.Replace(input.String(), "m\n", "o\n", 1)
	_, out, _ = runWithInput(t, env, wrong, "drill", "taxonomy", "--seed", "3")
	if !strings.Contains(out, "✗ Dynamo-Triton: you said orchestrator. Dynamo-Triton is a model server: it serves many models of many frameworks (ONNX, PyTorch, TensorRT, Python, XGBoost) from a versioned model repository, behind one HTTP/gRPC API, with ensembles for mixed model fleets. Not an orchestrator: its name says Dynamo, but it is the renamed Triton Inference Server") {
		t.Fatalf("no reason for the wrong placement:\n%s", out)
	}
	_, out, _ = runWithInput(t, env, "", "drill", "taxonomy", "--seed", "3")
	if !strings.Contains(out, "1/9  Dynamo-Triton:") {
		t.Errorf("the missed product should be asked first:\n%s", out)
	}
	_, stats, _ := run(t, env, "drill", "stats")
	if !strings.Contains(stats, "Taxonomy    2 attempts  last  89%  best 100%  100% → 89%") || !strings.Contains(stats, "1× Taxonomy: Dynamo-Triton") {
		t.Errorf("stats:\n%s", stats)
	}
	var f struct{ Records []map[string]any }
	raw, _ := os.ReadFile(hist)
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Records) != 2 {
		t.Fatalf("history holds %d records (%v); the abandoned drill must not be recorded", len(f.Records), err)
	}
}

func TestScenarioDrillOnThePresetExitTest(t *testing.T) {
	env := []string{"STACKPICK_HISTORY=" + filepath.Join(t.TempDir(), "h.json")}
	// The orchestrator typed as the stack reads it, complement first
	// ("llm-d + KServe" is the answer): a typeable answer in either order.
	input := "vllm\nmulti-LoRA for the tenants' fine-tunes; llm-d runs vLLM\nnone\nonly LLMs\nKServe + llm-d\nKubernetes-native, cache-aware routing\n"
	code, out, stderr := runWithInput(t, env, input, "drill", "scenario", "--scenario", "exit-test")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	for _, want := range []string{"SCENARIO: The exit test", "✓ Engine: you picked vLLM; stackpick picks vLLM", "✓ Orchestrator: you picked llm-d; stackpick picks llm-d + KServe", "      ✓ "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The feedback is words only: rule ids belong to the trace and JSON.
	for _, r := range knowledge.MustDefault().Rules {
		if strings.Contains(out, r.ID+":") {
			t.Errorf("the feedback shows the rule id %s:\n%s", r.ID, out)
		}
	}
}

func TestExplainDrillChecksKeyPoints(t *testing.T) {
	env := []string{"STACKPICK_HISTORY=" + filepath.Join(t.TempDir(), "h.json")}
	input := "Dynamo-Triton is the renamed Triton Inference Server, a general model server.\nDynamo orchestrates LLM engines across a fleet with KV-cache-aware routing.\n\n"
	code, out, _ := runWithInput(t, env, input, "drill", "explain")
	if code != 0 || !strings.Contains(out, "Result: 4 of 6") || !strings.Contains(out, "Reference explanation:") {
		t.Fatalf("code %d\n%s", code, out)
	}
}

// The line mode runs on the command line's clock, as memos do: with
// SOURCE_DATE_EPOCH the record is stamped with it, the seed comes from it,
// and the explanation is timed by it.
func TestALineModeDrillRunsOnTheInjectedClock(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "h.json")
	env := []string{"STACKPICK_HISTORY=" + hist, "SOURCE_DATE_EPOCH=1764493200"}
	input := "Dynamo-Triton is the renamed Triton Inference Server.\n\n"
	code, out, _ := runWithInput(t, env, input, "drill", "explain")
	if code != 0 || !strings.Contains(out, " in 0 s\n") {
		t.Fatalf("code %d\n%s", code, out)
	}
	var f struct {
		Records []struct {
			At   string `json:"at"`
			Seed uint64 `json:"seed"`
		}
	}
	raw, _ := os.ReadFile(hist)
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Records) != 1 {
		t.Fatalf("history: %v, %d records", err, len(f.Records))
	}
	if r := f.Records[0]; r.At != "2025-11-30T09:00:00Z" || r.Seed != 1764493200*1_000_000_000 {
		t.Errorf("record %+v", r)
	}
}

func TestDrillInputProblems(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.json")
	env := []string{"STACKPICK_HISTORY=" + hist}
	code, _, stderr := run(t, env, "drill", "taxonmy")
	if code != 2 || stderr != `stackpick: drill: taxonmy: no such drill (allowed: taxonomy, scenario, flags, explain, mock, stats); did you mean "taxonomy"?`+"\n" {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	os.WriteFile(hist, []byte("not json"), 0o644)
	code, out, stderr := run(t, env, "drill", "stats")
	if code != 0 || !strings.Contains(stderr, "was set aside as "+hist+".unreadable-") || !strings.Contains(out, "No drills finished yet") {
		t.Errorf("code %d stderr %q out %q", code, stderr, out)
	}
}

// Each flag question is graded as soon as it is answered: the verdict, the
// right answer and its source come before the next question.
func TestFlagsDrillGivesFeedbackAfterEachQuestion(t *testing.T) {
	env := []string{"STACKPICK_HISTORY=" + filepath.Join(t.TempDir(), "h.json")}
	kb := knowledge.MustDefault()
	c, _ := drill.Load(kb)
	qs := c.FlagQuiz(kb, 4, nil)
	var input strings.Builder
	for _, q := range qs {
		if q.Mode == drill.ModeName {
			input.WriteString("--max-num-seq\n") // a typo of one flag, right for at most one question
		} else {
			input.WriteString("nonsense\n1\n")
		}
	}
	code, out, stderr := runWithInput(t, env, input.String(), "drill", "flags", "--seed", "4")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q\n%s", code, stderr, out)
	}
	second := strings.Index(out, "2/"+strconv.Itoa(len(qs))+" ")
	if second < 0 {
		t.Fatalf("no second question:\n%s", out)
	}
	first := out[:second]
	f := kb.Flag(qs[0].FlagID)
	for _, want := range []string{"✗ ", "Source: " + f.Sources.Cite(false)} {
		if !strings.Contains(first, want) {
			t.Errorf("feedback on question 1 lacks %q before question 2:\n%s", want, first)
		}
	}
	if qs[0].Mode == drill.ModeName && !strings.Contains(first, "Did you mean --max-num-seqs?") && qs[0].FlagID != "vllm-max-num-seqs" {
		t.Errorf("a near-miss name should get a did-you-mean:\n%s", first)
	}
	if !strings.Contains(out, "Result: ") {
		t.Errorf("no result at the end:\n%s", out)
	}
}

// The review saw "1 attempt , best": one attempt reads as one, without a
// trend of a single score.
func TestDrillStatsAfterOneAttempt(t *testing.T) {
	env := []string{"STACKPICK_HISTORY=" + filepath.Join(t.TempDir(), "h.json")}
	if code, out, _ := runWithInput(t, env, strings.Repeat("e\n", 9), "drill", "taxonomy", "--seed", "1"); code != 0 {
		t.Fatalf("code %d\n%s", code, out)
	}
	_, stats, _ := run(t, env, "drill", "stats")
	line := strings.Split(stats, "\n")[1]
	if !strings.HasPrefix(strings.TrimSpace(line), "Taxonomy    1 attempt   last  44%  best  44%") || strings.Contains(line, "→") || strings.Contains(stats, " ,") {
		t.Errorf("stats line %q", line)
	}
}

// The line-mode scenario drill numbers its choices as the app does and
// takes the number, the id or the name.
func TestScenarioDrillTakesNumberedChoices(t *testing.T) {
	env := []string{"STACKPICK_HISTORY=" + filepath.Join(t.TempDir(), "h.json")}
	kb := knowledge.MustDefault()
	orch := kb.ProductsOn(knowledge.LayerOrchestrator)
	llmd := 0
	for i, p := range orch {
		if p.ID == "llm-d" {
			llmd = i + 1
		}
	}
	input := "1\nmulti-LoRA\n7\n" + strconv.Itoa(len(kb.ProductsOn(knowledge.LayerModelServer))+1) + "\nonly LLMs\n" + strconv.Itoa(llmd) + "\ncache-aware routing\n"
	code, out, stderr := runWithInput(t, env, input, "drill", "scenario", "--scenario", "exit-test")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q\n%s", code, stderr, out)
	}
	for _, want := range []string{"  1) vLLM", "  " + strconv.Itoa(len(orch)+1) + ") no orchestrator", "type a number from 1 to 2", "✓ Engine: you picked vLLM", "✓ Model server: you picked no model server", "✓ Orchestrator: you picked llm-d"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
