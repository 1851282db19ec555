package check

import (
	"slices"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

func testKB(t testing.TB) *knowledge.KB {
	t.Helper()
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return kb
}

var goodVLLMArgs = []string{"vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct",
	"--tensor-parallel-size", "2", "--max-model-len", "32768", "--enable-prefix-caching",
	"--kv-cache-dtype", "fp8", "--speculative-config", `{"method":"eagle3","num_speculative_tokens":3}`}

func TestEngineArgsPassesGoodLists(t *testing.T) {
	kb := testKB(t)
	for _, args := range [][]string{
		goodVLLMArgs,
		{"-tp", "2", "--no-enable-prefix-caching", "--max-model-len=32768"},
		{"--swap-space", "4"}, // removed at v0.18.0, so fine at v0.17.1
	} {
		rel := "v0.33.0"
		if args[0] == "--swap-space" {
			rel = "v0.17.1"
		}
		if ps := EngineArgs(kb, "vllm", rel, args); len(ps) != 0 {
			t.Errorf("%q: %v", args, ps)
		}
	}
	if ps := EngineArgs(kb, "sglang", "", []string{"sglang", "serve", "--model-path", "Qwen/Qwen3-8B", "--tp-size", "2", "--chunked-prefill-size", "-1", "--enable-metrics"}); len(ps) != 0 {
		t.Errorf("sglang: %v", ps)
	}
}

// TestEveryPresetsLaunchCommandPassesItsEngineArgs: the container
// arguments a manifest takes are the launch command (decide.Argv), so
// every preset's command, for every role, passes at the engine's release.
func TestEveryPresetsLaunchCommandPassesItsEngineArgs(t *testing.T) {
	kb := testKB(t)
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		ec := d.EngineConfig
		if ec == nil || !ec.Covered || len(ec.Command) == 0 {
			continue
		}
		roles := []string{""}
		for _, l := range ec.Command {
			if l.Role != "" && !slices.Contains(roles, l.Role) {
				roles = append(roles, l.Role)
			}
		}
		for _, role := range roles {
			checked++
			if ps := EngineArgs(kb, ec.Engine, ec.Release, ec.Argv(role)); len(ps) != 0 {
				t.Errorf("%s (%s, role %q): %v", s.Name, ec.Engine, role, ps)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no preset has a launch command")
	}
}

func TestEngineArgsRejectsMutations(t *testing.T) {
	kb := testKB(t)
	for _, c := range []struct {
		name    string
		args    []string
		path    string
		message string
	}{
		{"unknown flag, nearest named", []string{"--tensor-paralel-size", "2"}, "/0", "did you mean --tensor-parallel-size"},
		{"unknown flag after a positional", []string{"vllm", "serve", "m", "--max-model-length", "4096"}, "/3", "unknown flag --max-model-length"},
		{"flag given twice", []string{"--max-model-len", "4096", "--max-model-len", "8192"}, "/2", "given twice"},
		{"flag given twice, by its alias", []string{"--tensor-parallel-size", "2", "-tp", "4"}, "/2", "given twice (first as --tensor-parallel-size)"},
		{"a value for a switch", []string{"--enable-prefix-caching", "true"}, "/1", "is a switch and takes no value"},
		{"a value for a switch, inline", []string{"--enforce-eager=false"}, "/0", "is a switch"},
		{"a value for a negated switch", []string{"--no-enable-chunked-prefill", "1"}, "/1", "is a switch"},
		{"missing value at the end", []string{"--max-model-len", "4096", "--tensor-parallel-size"}, "/2", "missing its value"},
		{"missing value before a flag", []string{"--gpu-memory-utilization", "--enforce-eager"}, "/0", "missing its value"},
		{"missing value, inline", []string{"--block-size="}, "/0", "missing its value"},
		{"a stray word", []string{"--enforce-eager", "--max-num-seqs", "8", "16"}, "/3", "follows no flag"},
		{"removed flag at its release", []string{"--max-seq-len-to-capture", "8192"}, "/0", "removed (v0.11.0"},
		{"removed flag, release not pinned", []string{"--speculative-model", "x"}, "/0", "is removed"},
		{"no negation the record does not name", []string{"--no-enforce-eager"}, "/0", "unknown flag"},
		{"another engine's flag", []string{"--tp-size", "2"}, "/0", "unknown flag"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := EngineArgs(kb, "vllm", "v0.33.0", c.args)
			wantProblem(t, mutation{name: c.name, path: c.path, message: c.message}, ps)
		})
	}
	if ps := EngineArgs(kb, "no-such-engine", "", []string{"--x"}); len(ps) != 1 {
		t.Errorf("unknown engine: %v", ps)
	}
	if ps := EngineArgs(nil, "vllm", "", nil); len(ps) != 1 {
		t.Errorf("nil KB: %v", ps)
	}
}

func TestReleaseOrder(t *testing.T) {
	for _, c := range [][2]string{{"v0.9.0", "v0.10.0"}, {"0.10.0", "v0.11.0"}, {"r25.09", "r25.10"}, {"v1.2", "v1.2.1"}} {
		if !releaseLess(c[0], c[1]) || releaseLess(c[1], c[0]) {
			t.Errorf("%s < %s wrong", c[0], c[1])
		}
	}
	if releaseLess("v0.33.0", "v0.33.0") {
		t.Error("a release is less than itself")
	}
}

func BenchmarkEngineArgs(b *testing.B) {
	kb := testKB(b)
	for b.Loop() {
		if ps := EngineArgs(kb, "vllm", "v0.33.0", goodVLLMArgs); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}
