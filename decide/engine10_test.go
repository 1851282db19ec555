package decide

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// kb10 is the built-in knowledge base, which defines the issue-10
// questions the engine reads.
func kb10(t *testing.T) *knowledge.KB {
	t.Helper()
	return knowledge.MustDefault()
}

func answersFromTable(t *testing.T, kb *knowledge.KB, set map[string]any) knowledge.Answers {
	t.Helper()
	a := kb.Defaults()
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := set[k]
		if i, ok := v.(int); ok {
			v = int64(i)
		}
		if err := a.Set(k, v); err != nil {
			t.Fatalf("%s = %v: %v", k, v, err)
		}
	}
	return a
}

func flagValues(ec *EngineConfig) map[string][]string {
	out := map[string][]string{}
	for _, l := range ec.Command {
		out[l.Flag] = append(out[l.Flag], l.Value)
	}
	return out
}

func notesContain(ec *EngineConfig, s string) bool {
	for _, n := range ec.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func gpusPerReplica(ec *EngineConfig) int {
	return ec.Sizing.TensorParallelSize * ec.Sizing.PipelineParallelSize
}

// A stated latency (latency first, a ttft_ms or an itl_ms target) never
// gets a smaller layout than balanced for the same answers; today latency
// first takes TP 2 on 8×H100 and halves balanced's TP 4 decode ceiling.
func TestLatencyTargetsNeverShrinkTheLayoutBelowBalanced(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	latency := []map[string]any{
		{"latency_priority": "latency"},
		{"ttft_ms": 300},
		{"itl_ms": 200},
		{"latency_priority": "latency", "workload": "rag"},
	}
	checked := 0
	for _, gpu := range []string{"h100", "h200", "a100-80gb", "l40s", "mi300x", "b200"} {
		for _, ctx := range []int{8192, 32768, 131072} {
			for _, model := range []string{"llama-3.3-70b", "qwen3-32b", "llama-3.1-8b"} {
				for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
					baseSet := map[string]any{"gpu": gpu, "context_tokens": ctx, "model": model, "nodes": 2}
					bal := engineConfig(c, answersFromTable(t, kb, baseSet), engine)
					if !bal.Covered {
						continue
					}
					for _, l := range latency {
						set := map[string]any{}
						for k, v := range baseSet {
							set[k] = v
						}
						for k, v := range l {
							set[k] = v
						}
						if w, ok := l["workload"]; ok {
							bs := map[string]any{"workload": w}
							for k, v := range baseSet {
								bs[k] = v
							}
							bal = engineConfig(c, answersFromTable(t, kb, bs), engine)
						}
						ec := engineConfig(c, answersFromTable(t, kb, set), engine)
						name := fmt.Sprintf("%s/%s/%d/%s/%v", engine, gpu, ctx, model, l)
						if !ec.Covered {
							t.Errorf("%s: not covered (%s) where balanced is", name, ec.Note)
							continue
						}
						checked++
						if gpusPerReplica(ec) < gpusPerReplica(bal) || ec.Sizing.DecodeTokensPerSecond < bal.Sizing.DecodeTokensPerSecond-1e-9 {
							t.Errorf("%s: TP %d × PP %d (%.0f tokens/s), balanced TP %d × PP %d (%.0f tokens/s)", name,
								ec.Sizing.TensorParallelSize, ec.Sizing.PipelineParallelSize, ec.Sizing.DecodeTokensPerSecond,
								bal.Sizing.TensorParallelSize, bal.Sizing.PipelineParallelSize, bal.Sizing.DecodeTokensPerSecond)
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func TestLatencyFirstSaysWhatItTradesInReplicas(t *testing.T) {
	kb := kb10(t)
	ec := engineConfig(Compile(kb), answersFromTable(t, kb, map[string]any{"latency_priority": "latency", "nodes": 2}), knowledge.EngineVLLM)
	if got := flagValues(ec)["--tensor-parallel-size"]; !slices.Equal(got, []string{"4"}) {
		t.Fatalf("latency first on 2×8 H100, 70B bf16: TP %v, want 4 (balanced's)", got)
	}
	for _, want := range []string{"latency against replicas: TP 4 × PP 1 instead of TP 2 × PP 1", "93 tokens/s instead of 47", "for 4 replicas", "instead of 8 (2 per node instead of 4)"} {
		if !notesContain(ec, want) {
			t.Errorf("notes lack %q: %q", want, ec.Notes)
		}
	}
	if d := ec.Command[0].Defense; !strings.Contains(d, "balanced's TP 4") || !strings.Contains(d, "batch-1 step") {
		t.Errorf("TP defense: %q", d)
	}
}

// itl_ms is held against the batch-1 step (weights and KV bytes per GPU
// over the bandwidth): the smallest TP that meets it, or a note that none
// does.
func TestAnInterTokenTargetPicksTheSmallestTPThatMeetsIt(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, tc := range []struct {
		itl    int
		tp     string
		saying string
	}{
		{itl: 0, tp: "4"}, // balanced as today
		{itl: 15, tp: "4", saying: "itl_ms 15 is reachable at TP 4"},    // 10.7 ms at TP 4
		{itl: 8, tp: "8", saying: "TP 8 is the smallest that meets it"}, // 10.7 ms at TP 4, 5.7 at TP 8
		{itl: 2, tp: "8", saying: "itl_ms 2 is not reachable inside one node of 8 GPUs"},
	} {
		for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
			ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"itl_ms": tc.itl}), engine)
			tpFlag := "--tensor-parallel-size"
			if engine == knowledge.EngineSGLang {
				tpFlag = "--tp-size"
			}
			if got := flagValues(ec)[tpFlag]; !slices.Equal(got, []string{tc.tp}) {
				t.Errorf("%s itl_ms %d: TP %v, want %s (%q)", engine, tc.itl, got, tc.tp, ec.Notes)
			}
			if tc.saying != "" && !notesContain(ec, tc.saying) {
				t.Errorf("%s itl_ms %d: notes lack %q: %q", engine, tc.itl, tc.saying, ec.Notes)
			}
		}
	}
}

// disaggregation = true writes the prefill and the decode instances'
// commands, or says why it cannot.
func TestDisaggregationWritesPrefillAndDecodeCommands(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, tc := range []struct {
		engine        string
		set           map[string]any
		prefill, dec  string
		whyNot        string
		sharedPresent string
	}{
		{engine: knowledge.EngineVLLM, set: map[string]any{"nodes": 2},
			prefill: `--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"`, dec: `--kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_consumer"`},
		{engine: knowledge.EngineSGLang, set: map[string]any{"nodes": 2},
			prefill: "--disaggregation-mode prefill", dec: "--disaggregation-mode decode", sharedPresent: "--disaggregation-transfer-backend mooncake"},
		{engine: knowledge.EngineVLLM, set: map[string]any{"nodes": 2, "workload": "scoring"}, whyNot: "no decode phase"},
		{engine: knowledge.EngineSGLang, set: map[string]any{"nodes": 2, "model": "llama-3.1-8b", "gpus_per_node": 1, "base_models": 2}, whyNot: "no room for a prefill instance and a decode instance"},
		{engine: knowledge.EngineVLLM, set: map[string]any{"nodes": 1}, whyNot: "on one node"},
	} {
		set := map[string]any{"disaggregation": true}
		for k, v := range tc.set {
			set[k] = v
		}
		ec := engineConfig(c, answersFromTable(t, kb, set), tc.engine)
		name := fmt.Sprintf("%s %v", tc.engine, tc.set)
		if !ec.Covered {
			t.Fatalf("%s: not covered: %s", name, ec.Note)
		}
		if tc.whyNot != "" {
			if len(ec.Roles) != 0 || !notesContain(ec, "disaggregation is not set up") || !notesContain(ec, tc.whyNot) {
				t.Errorf("%s: want no roles and a note saying %q; roles %d, notes %q", name, tc.whyNot, len(ec.Roles), ec.Notes)
			}
			continue
		}
		if len(ec.Roles) != 2 || ec.Roles[0].Role != "prefill" || ec.Roles[1].Role != "decode" {
			t.Fatalf("%s: roles %+v", name, ec.Roles)
		}
		p, d := ec.Roles[0].CommandText, ec.Roles[1].CommandText
		if !strings.Contains(p, tc.prefill) || strings.Contains(p, tc.dec) || !strings.Contains(d, tc.dec) || strings.Contains(d, tc.prefill) {
			t.Errorf("%s:\nprefill %s\ndecode %s", name, p, d)
		}
		if strings.Contains(p, "--dp-size") || strings.Contains(p, "--data-parallel-size") {
			t.Errorf("%s: a role's instance is one TP group, counted by the split; the command holds several: %s", name, p)
		}
		if tc.sharedPresent != "" && (!strings.Contains(p, tc.sharedPresent) || !strings.Contains(d, tc.sharedPresent)) {
			t.Errorf("%s: both roles need %s", name, tc.sharedPresent)
		}
		if !strings.Contains(ec.CommandText, "# prefill instances: start with ") || !strings.Contains(ec.CommandText, "# decode instances: start with ") {
			t.Errorf("%s: the command text does not label the roles with their split: %s", name, ec.CommandText)
		}
		if ec.Roles[0].Instances < 1 || ec.Roles[1].Instances < 1 || !strings.Contains(ec.Roles[0].Split, "not sized") || !notesContain(ec, "not sized") {
			t.Errorf("%s: the prefill/decode split is not said: %+v, notes %q", name, ec.Roles, ec.Notes)
		}
		for _, l := range ec.Command {
			if l.Role != "" && !strings.HasPrefix(l.Defense, l.Role+" instances") {
				t.Errorf("%s: %s for %s says %q", name, l.Flag, l.Role, l.Defense)
			}
		}
	}
	// Off, nothing changes.
	ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"nodes": 2}), knowledge.EngineVLLM)
	if len(ec.Roles) != 0 || strings.Contains(ec.CommandText, "kv-transfer") {
		t.Errorf("disaggregation off: %s", ec.CommandText)
	}
}

// A replica that spans nodes carries its pipeline and multi-node arguments:
// today the arithmetic says TP 8 × PP 2 while SGLang gets only --tp-size 8.
func TestAReplicaThatSpansNodesCarriesItsMultiNodeArguments(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	set := map[string]any{"nodes": 2, "context_tokens": 131072, "latency_priority": "throughput"}
	for _, tc := range []struct {
		engine string
		want   map[string]string
	}{
		{knowledge.EngineVLLM, map[string]string{"--tensor-parallel-size": "8", "--pipeline-parallel-size": "2", "--nnodes": "2", "--node-rank": "${NODE_RANK}", "--master-addr": "${HEAD_NODE_IP}"}},
		{knowledge.EngineSGLang, map[string]string{"--tp-size": "8", "--pp-size": "2", "--nnodes": "2", "--node-rank": "${NODE_RANK}", "--dist-init-addr": "${HEAD_NODE_IP}:5000"}},
	} {
		ec := engineConfig(c, answersFromTable(t, kb, set), tc.engine)
		if !ec.Covered || ec.Sizing.PipelineParallelSize != 2 {
			t.Fatalf("%s: %+v", tc.engine, ec.Note)
		}
		got := flagValues(ec)
		for f, v := range tc.want {
			if !slices.Equal(got[f], []string{v}) {
				t.Errorf("%s: %s = %v, want %s", tc.engine, f, got[f], v)
			}
		}
	}
	// Inside one node: no multi-node flags.
	ec := engineConfig(c, kb.Defaults(), knowledge.EngineSGLang)
	for _, f := range []string{"--pp-size", "--nnodes", "--node-rank", "--dist-init-addr"} {
		if _, ok := flagValues(ec)[f]; ok {
			t.Errorf("one node: %s emitted", f)
		}
	}
}

// Every layout the sizing chose is in its command: across models, GPUs,
// node counts and engines, a replica of more GPUs than a node names its
// stages and its nodes.
func TestEveryCommandHoldsTheLayoutItsArithmeticSized(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	spanned := 0
	for _, m := range kb.Models {
		for _, gpu := range []string{"h100", "l40s", "a100-40gb"} {
			for _, nodes := range []int{1, 2, 4} {
				for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
					a := answersFromTable(t, kb, map[string]any{"model": m.ID, "gpu": gpu, "nodes": nodes, "context_tokens": 32768})
					ec := engineConfig(c, a, engine)
					if !ec.Covered {
						continue
					}
					got := flagValues(ec)
					pp, nn := "--pipeline-parallel-size", "--nnodes"
					if engine == knowledge.EngineSGLang {
						pp = "--pp-size"
					}
					r := ec.Sizing
					if r.PipelineParallelSize > 1 && !slices.Equal(got[pp], []string{fmt.Sprint(r.PipelineParallelSize)}) {
						t.Errorf("%s/%s/%s/%d: PP %d sized, command %v", engine, m.ID, gpu, nodes, r.PipelineParallelSize, got[pp])
					}
					span := (r.TensorParallelSize*r.PipelineParallelSize + 7) / 8
					if span > 1 {
						spanned++
						if !slices.Equal(got[nn], []string{fmt.Sprint(span)}) {
							t.Errorf("%s/%s/%s/%d: spans %d nodes, command --nnodes %v", engine, m.ID, gpu, nodes, span, got[nn])
						}
					} else if _, ok := got[nn]; ok {
						t.Errorf("%s/%s/%s/%d: one node, yet --nnodes", engine, m.ID, gpu, nodes)
					}
				}
			}
		}
	}
	if spanned == 0 {
		t.Fatal("no layout spanned nodes")
	}
}

// engineFingerprint is what a person reads of the engine settings: the
// command, every defense and every note.
func engineFingerprint(ec *EngineConfig) string {
	var b strings.Builder
	b.WriteString(ec.CommandText)
	for _, l := range ec.Command {
		b.WriteString("\n" + l.Defense)
	}
	for _, n := range ec.Defaults {
		b.WriteString("\n" + n.Note)
	}
	for _, n := range ec.Notes {
		b.WriteString("\n" + n)
	}
	return b.String()
}

// Every workload value changes the engine settings for some answers, with
// the change it promises; chat and agentic keep today's settings (agentic's
// difference is the prefix-reuse rules').
func TestEveryWorkloadValueChangesTheEngineSettings(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	bases := []map[string]any{{}, {"context_tokens": 32768}, {"latency_priority": "latency"}}
	for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
		for _, tc := range []struct {
			workload string
			check    func(chat, ec *EngineConfig) string
		}{
			{"agentic", func(chat, ec *EngineConfig) string {
				if engineFingerprint(ec) != engineFingerprint(chat) {
					return "agentic must keep chat's engine settings"
				}
				return ""
			}},
			{"batch", func(chat, ec *EngineConfig) string {
				if ec.Sizing.MaxNumBatchedTokens < 16384 || !strings.Contains(engineFingerprint(ec), "workload batch") {
					return fmt.Sprintf("batch wants the throughput plan: step %d", ec.Sizing.MaxNumBatchedTokens)
				}
				return ""
			}},
			{"rag", func(chat, ec *EngineConfig) string {
				if ec.Sizing.MaxNumBatchedTokens < 16384 || !strings.Contains(engineFingerprint(ec), "workload rag") {
					return fmt.Sprintf("rag wants a long-prompt step: %d", ec.Sizing.MaxNumBatchedTokens)
				}
				return ""
			}},
			{"scoring", func(chat, ec *EngineConfig) string {
				fp := engineFingerprint(ec)
				if ec.Sizing.MaxNumBatchedTokens < min(ec.Sizing.MaxModelLen, scoringMaxStep) || !strings.Contains(fp, "prefill-only") {
					return fmt.Sprintf("scoring wants a step that holds a prompt: %d for %d", ec.Sizing.MaxNumBatchedTokens, ec.Sizing.MaxModelLen)
				}
				if engine == knowledge.EngineSGLang && !strings.Contains(ec.CommandText, "--max-prefill-tokens") || !strings.Contains(fp, "score") {
					return "scoring wants its prefill budget and endpoint"
				}
				return ""
			}},
			{"mixed", func(chat, ec *EngineConfig) string {
				fp := engineFingerprint(ec)
				if engine == knowledge.EngineVLLM && (!strings.Contains(ec.CommandText, "--max-num-partial-prefills 4") || !strings.Contains(ec.CommandText, "--long-prefill-token-threshold")) {
					return "mixed wants vLLM's partial-prefill limits"
				}
				if !strings.Contains(fp, "workload mixed") {
					return "mixed must say what it does"
				}
				return ""
			}},
		} {
			changed := false
			for _, b := range bases {
				chatSet := map[string]any{"workload": "chat"}
				set := map[string]any{"workload": tc.workload}
				for k, v := range b {
					chatSet[k], set[k] = v, v
				}
				chat := engineConfig(c, answersFromTable(t, kb, chatSet), engine)
				ec := engineConfig(c, answersFromTable(t, kb, set), engine)
				if !chat.Covered || !ec.Covered {
					t.Fatalf("%s %v: not covered", engine, set)
				}
				if msg := tc.check(chat, ec); msg != "" && tc.workload != "batch" {
					t.Errorf("%s %v: %s", engine, set, msg)
				} else if tc.workload == "batch" && b["latency_priority"] == nil && msg != "" {
					t.Errorf("%s %v: %s", engine, set, msg)
				}
				if engineFingerprint(ec) != engineFingerprint(chat) {
					changed = true
				}
			}
			if tc.workload != "agentic" && !changed {
				t.Errorf("%s: workload %s changes nothing in the engine settings", engine, tc.workload)
			}
		}
	}
	// batch with latency stated keeps the latency plan.
	ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"workload": "batch", "latency_priority": "latency"}), knowledge.EngineVLLM)
	if ec.Sizing.MaxNumSeqs > 64 || ec.Sizing.MaxNumBatchedTokens != 2048 {
		t.Errorf("batch with latency first: seqs %d, step %d; want the latency plan", ec.Sizing.MaxNumSeqs, ec.Sizing.MaxNumBatchedTokens)
	}
}

// concurrent_requests sets each replica's batch cap (its share of the
// fleet's peak) and the notes say whether the KV pool holds that many.
func TestConcurrentRequestsSetTheBatchCapPerReplica(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, tc := range []struct {
		concurrent int
		seqs       string
		saying     string
	}{
		{0, "256", ""},
		{8, "4", "so it holds them all at full length"},          // 2 replicas of TP 4
		{1000, "500", "the KV pool holds only 59.3 requests of"}, // 500 each, 61 at full length
		{100000, "1024", "capped at 1,024 (the rest queue)"},
	} {
		for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang} {
			ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"concurrent_requests": tc.concurrent}), engine)
			cap := "--max-num-seqs"
			if engine == knowledge.EngineSGLang {
				cap = "--max-running-requests"
			}
			if got := flagValues(ec)[cap]; !slices.Equal(got, []string{tc.seqs}) {
				t.Errorf("%s concurrent %d: %s %v, want %s (%q)", engine, tc.concurrent, cap, got, tc.seqs, ec.Notes)
			}
			saying := tc.saying
			if engine == knowledge.EngineSGLang && tc.concurrent == 1000 {
				saying = "the KV pool holds only 50.1 requests of" // SGLang's reserve is larger than vLLM's activation peak
			}
			if saying != "" && !strings.Contains(engineFingerprint(ec), saying) {
				t.Errorf("%s concurrent %d: lacks %q: %q", engine, tc.concurrent, saying, ec.Notes)
			}
		}
	}
}

// A workload's plan that asks more than the fleet holds falls back to
// latency_priority's plan, saying so, rather than losing the command.
func TestAWorkloadNeverTakesAwayALaunchCommand(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, set := range []map[string]any{
		{"model": "llama-3.1-8b", "gpu": "l4", "gpus_per_node": 1, "latency_priority": "latency", "workload": "rag"},
		{"model": "llama-3.1-8b", "gpu": "l4", "gpus_per_node": 1, "latency_priority": "latency", "workload": "scoring"},
		{"context_tokens": 131072, "workload": "batch"},
	} {
		ec := engineConfig(c, answersFromTable(t, kb, set), knowledge.EngineVLLM)
		if !ec.Covered || !notesContain(ec, "do not fit this fleet") {
			t.Errorf("%v: covered %v, note %q, notes %q", set, ec.Covered, ec.Note, ec.Notes)
		}
	}
}

// Stated traffic reaches the tensor-parallel search: a layout must hold
// min(the plan's concurrency, ceil(concurrent_requests / replicas)), at
// least 1, so one RTX 4090 serving one request gets a command (finding 8).
func TestConcurrentRequestsReachTheTensorParallelSearch(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, tc := range []struct {
		set      map[string]any
		wantTP   int
		wantHold string
	}{
		{map[string]any{"gpu": "rtx-4090", "gpus_per_node": 1, "concurrent_requests": 1, "model": "llama-3.1-8b"}, 1, "≥ 1 request of"},
		{map[string]any{"concurrent_requests": 1}, 2, "≥ 1 request of"},
		// More than the plan asks: the plan's 8 stands.
		{map[string]any{"concurrent_requests": 500}, 4, "≥ 8 requests of"},
	} {
		ec := engineConfig(c, answersFromTable(t, kb, tc.set), knowledge.EngineVLLM)
		if !ec.Covered {
			t.Errorf("%v: no command: %s", tc.set, ec.Note)
			continue
		}
		if ec.Sizing.TensorParallelSize != tc.wantTP {
			t.Errorf("%v: TP %d, want %d", tc.set, ec.Sizing.TensorParallelSize, tc.wantTP)
		}
		if !strings.Contains(ec.Command[0].Defense, tc.wantHold) {
			t.Errorf("%v: TP defense %q lacks %q", tc.set, ec.Command[0].Defense, tc.wantHold)
		}
	}
	// "1 GPUs" is never written.
	ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"gpu": "rtx-4090", "gpus_per_node": 1, "model": "llama-3.3-70b"}), knowledge.EngineVLLM)
	if ec.Covered || !strings.Contains(ec.Note, "1 GPU of one node") || strings.Contains(ec.Note, "1 GPUs") {
		t.Errorf("70B on one RTX 4090: %s", ec.Note)
	}
}

// On one node holding several replicas, vLLM runs them as one server in its
// data-parallel mode so they are balanced; on several nodes the orchestrator
// balances them and the flag stays out (finding 9).
func TestOneNodeOfSeveralReplicasRunsDataParallel(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	for _, tc := range []struct {
		set    map[string]any
		engine string
		flag   string
		want   string
	}{
		{map[string]any{}, knowledge.EngineVLLM, "--data-parallel-size", "2"},
		{map[string]any{"nodes": 4}, knowledge.EngineVLLM, "--data-parallel-size", ""},
		{map[string]any{"gpus_per_node": 4}, knowledge.EngineVLLM, "--data-parallel-size", ""},
		{map[string]any{}, knowledge.EngineSGLang, "--dp-size", "2"},
	} {
		ec := engineConfig(c, answersFromTable(t, kb, tc.set), tc.engine)
		got := flagValues(ec)[tc.flag]
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s %v: %s %v, want none", tc.engine, tc.set, tc.flag, got)
		case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
			t.Errorf("%s %v: %s %v, want %s", tc.engine, tc.set, tc.flag, got, tc.want)
		}
		if tc.want != "" {
			for _, l := range ec.Command {
				if l.Flag == tc.flag && !strings.Contains(l.Defense, "replicas") {
					t.Errorf("%s: defense %q", tc.flag, l.Defense)
				}
			}
		}
	}
	if f := kb.Flag(knowledge.FlagVLLMDataParallelSize); f == nil || f.Status != knowledge.FlagCurrent || len(f.Sources) == 0 {
		t.Errorf("the flag record: %+v", f)
	}
}

// More fine-tunes than GPU adapter slots keep every adapter warm in CPU
// memory: --max-cpu-loras = fine_tunes, defended with its host memory
// (finding 15).
func TestManyAdaptersAreKeptWarmInCPUMemory(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"fine_tune_method": "lora", "fine_tunes": 200}), knowledge.EngineVLLM)
	if got := flagValues(ec)["--max-cpu-loras"]; len(got) != 1 || got[0] != "200" {
		t.Fatalf("--max-cpu-loras %v, want 200", got)
	}
	for _, l := range ec.Command {
		if l.Flag == "--max-cpu-loras" && !strings.Contains(l.Defense, "host RAM") {
			t.Errorf("defense %q", l.Defense)
		}
	}
	ec = engineConfig(c, answersFromTable(t, kb, map[string]any{"fine_tune_method": "lora", "fine_tunes": 3}), knowledge.EngineVLLM)
	if got := flagValues(ec)["--max-cpu-loras"]; len(got) != 0 {
		t.Errorf("3 adapters fit the GPU slots: --max-cpu-loras %v", got)
	}
}

// The defenses read right for their case (findings 22 and 23): SGLang's
// scoring batch cap is scoring's, not vLLM's step budget; the TP defense
// never ends on a layout with nothing said about it; a replica that spans
// nodes is not "0 replicas per node".
func TestEngineDefensesFitTheirCase(t *testing.T) {
	kb := kb10(t)
	c := Compile(kb)
	ec := engineConfig(c, answersFromTable(t, kb, map[string]any{"workload": "scoring"}), knowledge.EngineSGLang)
	for _, l := range ec.Command {
		if l.Flag == "--max-running-requests" && (strings.Contains(l.Defense, "vLLM's step budget") || strings.Contains(l.Defense, "balanced") || !strings.Contains(l.Defense, "scoring")) {
			t.Errorf("scoring's --max-running-requests: %q", l.Defense)
		}
	}
	ec = engineConfig(c, answersFromTable(t, kb, map[string]any{"nodes": 2, "model": "llama-3.1-405b"}), knowledge.EngineVLLM)
	if !ec.Covered || ec.Sizing.PipelineParallelSize < 2 {
		t.Fatalf("405B on 2 × 8 H100: %s %+v", ec.Note, ec.Sizing)
	}
	tp := ec.Command[0].Defense
	if strings.HasSuffix(strings.TrimSpace(tp), ":") || !strings.Contains(tp, "TP 8: weights") {
		t.Errorf("TP defense: %q", tp)
	}
	for _, fg := range ec.Sizing.Figures {
		if strings.Contains(fg.Name, "Replicas per node") && fg.Value == 0 {
			t.Errorf("figure %q = 0", fg.Name)
		}
		if fg.Key == "nodes_per_replica" && fg.Name+": "+fg.Text() != "1 replica spans: 2 nodes" {
			t.Errorf("figure %q: %s", fg.Name, fg.Text())
		}
	}
}
