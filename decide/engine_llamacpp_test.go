package decide

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// llamaFlags maps each emitted flag to its value.
func llamaFlags(t *testing.T, ec *EngineConfig) map[string]string {
	t.Helper()
	if ec == nil || !ec.Covered || ec.Engine != knowledge.EngineLlamaCpp {
		t.Fatalf("want a covered llama.cpp config, got %+v", ec)
	}
	if !strings.HasPrefix(ec.CommandText, "llama-server \\\n") {
		t.Errorf("command text: %q", ec.CommandText)
	}
	out := map[string]string{}
	for _, l := range ec.Command {
		if l.Defense == "" {
			t.Errorf("%s has no defense", l.Flag)
		}
		out[l.Flag] = l.Value
	}
	return out
}

// The CPU-only preset gets a llama-server command: a Q4_K_M GGUF file, the
// context of all slots (-c = 8192 per slot × 4 slots), --metrics and a
// reachable address, and no -ngl (there is no GPU to offload to).
func TestACPUBoxGetsALlamaServerCommand(t *testing.T) {
	kb := knowledge.MustDefault()
	ec := Decide(kb, scenarioAnswers(t, kb, "cpu-box")).EngineConfig
	f := llamaFlags(t, ec)
	want := map[string]string{"-m": "llama-3.1-8b-Q4_K_M.gguf", "-c": "32768", "-np": "4", "--metrics": "", "--host": "0.0.0.0", "--port": "8080"}
	for k, v := range want {
		if got, ok := f[k]; !ok || got != v {
			t.Errorf("%s = %q (present %v), want %q", k, got, ok, v)
		}
	}
	if _, ok := f["-ngl"]; ok {
		t.Error("a CPU-only host gets no -ngl")
	}
	if ec.Sizing == nil || ec.Sizing.Figure("ram_gib").Value <= 0 || ec.Sizing.Figure("compute_buffer_gib").Name != "Compute buffer (estimated)" {
		t.Errorf("the sizing must show the RAM it needs and say the compute buffer is estimated: %+v", ec.Sizing)
	}
	if !strings.Contains(ec.EngineVersion, "llama.cpp") {
		t.Errorf("engine version %q", ec.EngineVersion)
	}
}

// Every flag the llama.cpp command names is a llama-cpp flag of the
// knowledge base with a repository source read at a commit.
func TestLlamaCppFlagsHaveRepoSources(t *testing.T) {
	kb := knowledge.MustDefault()
	cases := []map[string]any{
		{"nodes": 1, "gpus_per_node": 0, "gpu": "cpu", "model": "llama-3.1-8b"},
		{"nodes": 1, "gpus_per_node": 1, "gpu": "m3-ultra-512gb", "model": "llama-3.3-70b"},
		{"nodes": 1, "gpus_per_node": 1, "gpu": "rtx-4090", "model": "llama-3.3-70b", "concurrent_requests": 1, "kv_cache_dtype": "fp8_e4m3"},
	}
	for _, set := range cases {
		ec := engineConfig(Compile(kb), answersFromTable(t, kb, set), knowledge.EngineLlamaCpp)
		names := []string{}
		for _, l := range ec.Command {
			names = append(names, l.FlagID)
		}
		for _, n := range ec.Defaults {
			names = append(names, n.FlagID)
		}
		for _, id := range names {
			fl := kb.Flag(id)
			if fl == nil || fl.Engine != knowledge.EngineLlamaCpp {
				t.Errorf("%v: flag %s is not a llama-cpp flag of the knowledge base", set, id)
				continue
			}
			ok := false
			for _, s := range fl.Sources.OfRepo() {
				ok = ok || (s.Commit != "" && s.Quote != "")
			}
			if !ok {
				t.Errorf("%s has no repository source read at a commit", id)
			}
		}
	}
}

// On a GPU the quant is the largest whose layers all fit, and -ngl offloads
// every layer; a model too big for the card keeps some layers on the CPU,
// and a quantized KV cache comes with -fa on.
func TestLlamaCppOffloadsWhatFits(t *testing.T) {
	kb := knowledge.MustDefault()
	mac := engineConfig(Compile(kb), answersFromTable(t, kb, map[string]any{"nodes": 1, "gpus_per_node": 1, "gpu": "m3-ultra-512gb", "model": "llama-3.1-8b"}), knowledge.EngineLlamaCpp)
	f := llamaFlags(t, mac)
	if f["-m"] != "llama-3.1-8b-Q8_0.gguf" || f["-ngl"] != "33" {
		t.Errorf("8B on 512 GB of unified memory: -m %s -ngl %s, want Q8_0 and all 32 layers + output (33)", f["-m"], f["-ngl"])
	}
	ws := engineConfig(Compile(kb), answersFromTable(t, kb, map[string]any{"nodes": 1, "gpus_per_node": 1, "gpu": "rtx-4090", "model": "llama-3.3-70b", "concurrent_requests": 1, "kv_cache_dtype": "fp8_e4m3"}), knowledge.EngineLlamaCpp)
	f = llamaFlags(t, ws)
	if f["-m"] != "llama-3.3-70b-Q4_K_M.gguf" || f["-ctk"] != "q8_0" || f["-ctv"] != "q8_0" || f["-fa"] != "on" {
		t.Errorf("70B on one 24 GB card with an fp8 cache: %v", f)
	}
	if n := ws.Sizing.Figure("gpu_layers").Value; n <= 0 || n >= 80 || f["-ngl"] == "" {
		t.Errorf("70B at Q4_K_M does not fit 24 GB: want some of its 80 layers on the GPU, got %v (-ngl %s)", n, f["-ngl"])
	}
	bf := engineConfig(Compile(kb), answersFromTable(t, kb, map[string]any{"nodes": 1, "gpus_per_node": 0, "gpu": "cpu", "model": "llama-3.1-8b", "weights_dtype": "bf16"}), knowledge.EngineLlamaCpp)
	if f := llamaFlags(t, bf); f["-m"] != "llama-3.1-8b-F16.gguf" {
		t.Errorf("weights_dtype bf16: -m %s, want the F16 file", f["-m"])
	}
}

// On a CPU an impossible size is not emitted silently: a -c beyond what
// llama-server's integer option holds writes no command, and a RAM need
// above one host's bound writes the command with an "implausible" note.
func TestLlamaCppOnACPUFlagsImpossibleSizes(t *testing.T) {
	kb := knowledge.MustDefault()
	cpu := func(ctx, conc int) *EngineConfig {
		return engineConfig(Compile(kb), answersFromTable(t, kb, map[string]any{"nodes": 1, "gpus_per_node": 0, "gpu": "cpu", "model": "llama-3.1-8b",
			"context_tokens": ctx, "concurrent_requests": conc}), knowledge.EngineLlamaCpp)
	}
	if ec := cpu(10_000_000, 100_000); ec.Covered || !strings.Contains(ec.Note, "2,147,483,647") {
		t.Errorf("-c above 2^31-1: covered %v, note %q; want no command and a note naming the bound", ec.Covered, ec.Note)
	}
	ec := cpu(8192, 20_000)
	llamaFlags(t, ec)
	if !strings.Contains(strings.Join(ec.Notes, "\n"), "implausible") {
		t.Errorf("20,000 slots of 8,192 tokens need far more RAM than a host holds; notes: %q", ec.Notes)
	}
	if ok := cpu(8192, 4); strings.Contains(strings.Join(ok.Notes, "\n"), "implausible") {
		t.Errorf("4 slots of 8,192 tokens is not implausible: %q", ok.Notes)
	}
}

// Every flag a launch command emits carries its source from the flag's
// record, in the short form (8-hex commits), for every engine.
func TestEveryEmittedFlagCarriesItsSource(t *testing.T) {
	kb := knowledge.MustDefault()
	for _, name := range []string{"cpu-box", "single-node", "exit-test", "nvidia-fleet"} {
		ec := Decide(kb, scenarioAnswers(t, kb, name)).EngineConfig
		if ec == nil || !ec.Covered {
			continue
		}
		for _, l := range ec.Command {
			f := kb.Flag(l.FlagID)
			if f == nil || l.Source == "" || l.Source != flagSource(f.Sources) {
				t.Errorf("%s: %s has source %q", name, l.Flag, l.Source)
			}
		}
	}
}
