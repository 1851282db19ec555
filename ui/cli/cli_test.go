package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/cli"
)

// run executes the command line in-process, as the binary would.
func run(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(context.Background(), args, cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Env: env})
	return code, out.String(), errb.String()
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const answerKeys = "nodes, gpus_per_node, gpu, accelerator_mix, replicas, substrate, base_models, fine_tunes, fine_tune_method, adapter_routing, tenants, other_model_types, day0_architectures, context_tokens, model, weights_dtype, kv_cache_dtype, workload, prefix_reuse, structured_output, latency_priority, concurrent_requests, ttft_ms, itl_ms, request_pipeline, kubernetes, cache_aware_routing, disaggregation, gitops, traffic_splitting, governance, change_cadence, team_familiarity, ray_experience, orchestrator_experience, new_operator"

const usageHint = "stackpick: run 'stackpick --help' (or 'stackpick COMMAND --help') for usage\n"

// Bad input gets a clear message (what, where as file:line, what to type
// instead) on stderr, nothing on stdout, and exit code 2.
func TestBadInputIsExplainedWithExitCode2(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		env   []string
		args  []string
		want  string
	}{
		{"gpu typo", map[string]string{"a.toml": "nodes = 4\ngpu = \"h10\"\n"}, nil,
			[]string{"decide", "--answers", "a.toml"},
			`stackpick: a.toml:2: gpu: "h10" is not an allowed value (allowed: h100, h200, b200, a100-80gb, a100-40gb, l40s, l4, rtx-a6000, mi300x, rtx-4090, cpu, mi325x, mi355x, b300, gaudi3, tpu-v6e, m3-ultra-512gb); did you mean "h100"?` + "\n"},
		{"unknown key", map[string]string{"a.toml": "nodez = 4\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: nodez: unknown answer key (allowed: ` + answerKeys + `); did you mean "nodes"?` + "\n"},
		{"number written as a string", map[string]string{"a.toml": "# fleet\nnodes = \"4\"\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:2: nodes: "4" is a string, not a number (allowed: a whole number from 1 to 100000); write nodes = 4 without quotes` + "\n"},
		{"zero nodes", map[string]string{"a.toml": "nodes = 0\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			"stackpick: a.toml:1: nodes: 0 is too small (allowed: a whole number from 1 to 100000); use 1 or more\n"},
		{"too many gpus per node", map[string]string{"a.toml": "gpus_per_node = 65\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			"stackpick: a.toml:1: gpus_per_node: 65 is too large (allowed: a whole number from 0 to 64); use 64 or less\n"},
		{"decimal number", map[string]string{"a.toml": "nodes = 2.5\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			"stackpick: a.toml:1: nodes: 2.5 is not a whole number (allowed: a whole number from 1 to 100000)\n"},
		{"TOML syntax error", map[string]string{"a.toml": "nodes = 2\ngpu = [\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			"stackpick: a.toml:2: gpu: TOML syntax: unexpected EOF; expected value\n"},
		{"list written as a string", map[string]string{"a.toml": "other_model_types = \"vision\"\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: other_model_types: expected a list, got the string "vision" (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech); write other_model_types = ["vision"]` + "\n"},
		{"list item twice", map[string]string{"a.toml": "other_model_types = [\"vision\", \"vision\"]\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: other_model_types: "vision" is listed twice (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech); list each value once` + "\n"},
		{"enum typo", map[string]string{"a.toml": "kubernetes = \"requird\"\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: kubernetes: "requird" is not an allowed value (allowed: none, available, required); did you mean "required"?` + "\n"},
		{"boolean written as a string", map[string]string{"a.toml": "structured_output = \"yes\"\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: structured_output: "yes" is a string, not a boolean (allowed: true or false); write structured_output = true without quotes` + "\n"},
		{"derived key set by hand", map[string]string{"a.toml": "total_gpus = 8\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: total_gpus: is computed from other answers and cannot be set (allowed: ` + answerKeys + `); remove it` + "\n"},
		{"several problems at once, in line order", map[string]string{"a.toml": "gpu = \"b100\"\nnodes = -1\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:1: gpu: "b100" is not an allowed value (allowed: h100, h200, b200, a100-80gb, a100-40gb, l40s, l4, rtx-a6000, mi300x, rtx-4090, cpu, mi325x, mi355x, b300, gaudi3, tpu-v6e, m3-ultra-512gb); did you mean "h100"?` + "\n" +
				"stackpick: a.toml:2: nodes: -1 is too small (allowed: a whole number from 1 to 100000); use 1 or more\n"},
		{"missing answers file", nil, nil,
			[]string{"decide", "--answers", "nope.toml"},
			"stackpick: nope.toml: cannot read the answers file: no such file; check the path, or start from a preset: stackpick decide --scenario exit-test\n"},
		{"answers path is a folder", map[string]string{"dir/x.toml": ""}, nil,
			[]string{"decide", "--answers", "dir"},
			"stackpick: dir: is a folder, not an answers file; give the path of a file inside it\n"},
		{"neither answers nor scenario", nil, nil,
			[]string{"decide"},
			"stackpick: decide needs --answers FILE or --scenario NAME (see 'stackpick scenarios' and 'stackpick questions')\n"},
		{"both answers and scenario", nil, nil,
			[]string{"decide", "-a", "a.toml", "-s", "exit-test"},
			"stackpick: give --answers or --scenario, not both\n"},
		{"scenario typo", nil, nil,
			[]string{"decide", "--scenario", "exit-tset"},
			`stackpick: --scenario: exit-tset: no such scenario (allowed: exit-test, single-node, mixed-models, nvidia-fleet, k8s-fleet, gitops-rollouts, request-pipeline, last-15-percent, cpu-box); did you mean "exit-test"?` + "\n"},
		{"format typo", nil, nil,
			[]string{"decide", "-s", "exit-test", "--format", "jsn"},
			`stackpick: --format: jsn: unknown format (allowed: text, json, markdown); did you mean "json"?` + "\n"},
		{"flag typo", nil, nil,
			[]string{"decide", "--scenaro", "exit-test"},
			"stackpick: unknown flag: --scenaro; did you mean --scenario?\n" + usageHint},
		{"command typo", nil, nil,
			[]string{"decied"},
			`stackpick: unknown command "decied"; did you mean "decide"?` + "\n" + usageHint},
		{"overlay names an unknown product", map[string]string{"kb/rules.toml": "[[rule]]\nid = \"mine\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglng\"\nweight = 2\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/rules.toml:5: rule "mine" product: unknown product "sglng" (allowed: vllm, sglang, tensorrt-llm, llama-cpp, dynamo-triton, dynamo, llm-d, kserve, ray-serve, sgl-router, none); did you mean "sglang"?` + "\n"},
		{"overlay rule that can never fire, unknown key, bad value", map[string]string{"kb/rules.toml": "[[rule]]\nid = \"mine\"\nlayer = \"orchestrator\"\neffect = \"prefer\"\nproduct = \"llm-d\"\nweight = 2\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[rule.when]\nnodes = { at_least = 5, at_most = 2 }\nkubernets = { equals = \"required\" }\ngpu = { equals = \"h10\" }\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/rules.toml:10: rule "mine" when.nodes: can never fire: no nodes is both ≥ 5 and ≤ 2 (allowed: a whole number from 1 to 100000)` + "\n" +
				`stackpick: kb/rules.toml:11: rule "mine" when.kubernets: unknown answer key (allowed: nodes, gpus_per_node, gpu, accelerator_mix, replicas, substrate, total_gpus, gpu_vendor, replicas_per_model, platform, base_models, fine_tunes, fine_tune_method, adapter_routing, tenants, other_model_types, day0_architectures, context_tokens, model, weights_dtype, kv_cache_dtype, workload, prefix_reuse, structured_output, latency_priority, concurrent_requests, ttft_ms, itl_ms, request_pipeline, kubernetes, cache_aware_routing, disaggregation, gitops, traffic_splitting, governance, change_cadence, team_familiarity, ray_experience, orchestrator_experience, new_operator); did you mean "kubernetes"?` + "\n" +
				`stackpick: kb/rules.toml:12: rule "mine" when.gpu.equals: "h10" is not a value of gpu (allowed: h100, h200, b200, a100-80gb, a100-40gb, l40s, l4, rtx-a6000, mi300x, rtx-4090, cpu, mi325x, mi355x, b300, gaudi3, tpu-v6e, m3-ultra-512gb); did you mean "h100"?` + "\n"},
		{"overlay with an unknown key", map[string]string{"kb/x.toml": "[[rule]]\nid = \"a\"\nlayer = \"engine\"\nefect = \"prefer\"\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/x.toml:4: rule.efect: unknown key (allowed: id, layer, effect, product, weight, with, reason, source, when, stack, tag); did you mean "effect"?` + "\n"},
		{"overlay with a duplicate id", map[string]string{"kb/d.toml": "[[rule]]\nid = \"dup\"\nlayer = \"engine\"\neffect = \"exclude\"\nproduct = \"sglang\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n\n[[rule]]\nid = \"dup\"\nlayer = \"engine\"\neffect = \"exclude\"\nproduct = \"sglang\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/d.toml:9: rule: duplicate id "dup" (first defined at kb/d.toml:1); give each rule its own id, or delete one` + "\n"},
		{"overlay with a complement on another layer", map[string]string{"kb/c.toml": "[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"vllm\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/c.toml:6: rule "c" with: vllm is on the engine layer, not orchestrator` + "\n"},
		{"overlay TOML syntax error", map[string]string{"kb/broken.toml": "not toml [[[\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			"stackpick: kb/broken.toml:1: TOML syntax: expected '.' or '=', but got 't' instead\n"},
		{"overlay folder missing", nil, nil,
			[]string{"kb", "check", "--kb", "nowhere"},
			"stackpick: nowhere: cannot read the knowledge overlay folder: no such file or directory; pass --kb a folder of .toml files (or unset STACKPICK_KB)\n"},
		{"overlay is a file", map[string]string{"one.toml": ""}, nil,
			[]string{"kb", "check", "--kb", "one.toml"},
			"stackpick: one.toml: --kb must name a folder of .toml files, not a file; pass the folder that holds it: --kb .\n"},
		{"overlay from the environment", map[string]string{"kb/p.toml": "[[product]]\nid = \"vllm\"\nname = \"vLLM\"\nlayer = \"engin\"\nrole = \"x\"\n"}, []string{"STACKPICK_KB=kb"},
			[]string{"decide", "-s", "exit-test"},
			`stackpick: kb/p.toml:1: product "vllm": needs a source; add [[product.source]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"` + "\n" +
				`stackpick: kb/p.toml:4: product "vllm" layer: unknown layer "engin" (allowed: engine, model-server, orchestrator); did you mean "engine"?` + "\n"},
		{"out file exists", map[string]string{"decision.json": "keep me"}, nil,
			[]string{"decide", "-s", "exit-test", "-f", "json", "--out", "decision.json"},
			"stackpick: decision.json: already exists; not overwritten; pass --force to replace it, or choose another --out\n"},
		{"out folder is a file", map[string]string{"notes.txt": "x"}, nil,
			[]string{"decide", "-s", "exit-test", "--out", "notes.txt/d.txt"},
			"stackpick: notes.txt/d.txt: cannot write in notes.txt: not a directory\n"},
		{"answers written as a table", map[string]string{"a.toml": "# fleet\n[fleet]\nnodes = 2\n"}, nil,
			[]string{"decide", "-a", "a.toml"},
			`stackpick: a.toml:2: fleet: answers are plain keys, not tables (allowed: ` + answerKeys + `); remove the [fleet] header and keep its keys at the top level` + "\n"},
		{"a flag value that is not a number", nil, nil,
			[]string{"size", "--model", "llama-3.3-70b", "--gpu", "h100", "--gpu-memory-utilization", "abc"},
			`stackpick: --gpu-memory-utilization: "abc" is not a number` + "\n"},
		{"drill without a name", nil, nil,
			[]string{"drill"},
			"stackpick: drill needs one name: taxonomy, scenario, flags, explain, mock, stats (for example: stackpick drill taxonomy)\n"},
		{"overlay value of the wrong type", map[string]string{"kb/r.toml": "[[rule]]\nid = \"w\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglang\"\nweight = \"two\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			"stackpick: kb/r.toml:6: rule.weight: wrong type: a quoted string where a whole number goes\n"},
		{"overlay offers a value Go does not understand", map[string]string{"kb/questions.toml": "[[question]]\nkey = \"latency_priority\"\npage = \"Workload\"\ntype = \"enum\"\nvalues = [\"latency\", \"balanced\", \"throughput\", \"interactive\"]\ndefault = \"balanced\"\nprompt = \"p\"\nwhy = \"w\"\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/questions.toml:5: question "latency_priority" values: "interactive" is not a value stackpick's sizing understands (it understands: latency, balanced, throughput); remove "interactive" from values: a new value needs Go code that knows what to do with it` + "\n"},
		{"overlay rule that can never fire through a derived answer", map[string]string{"kb/r.toml": "[[rule]]\nid = \"odd\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglang\"\nweight = 1\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[rule.when]\ngpu = { equals = \"mi300x\" }\ngpu_vendor = { equals = \"nvidia\" }\n"}, nil,
			[]string{"kb", "check", "--kb", "kb"},
			`stackpick: kb/r.toml:9: rule "odd" when: can never fire: no gpu and gpus_per_node allowed here give a gpu_vendor that meets its condition` + "\n"},
		{"out is a folder", map[string]string{"adr/keep.md": "x"}, nil,
			[]string{"decide", "-s", "exit-test", "--out", "adr", "--force"},
			"stackpick: adr: is a folder; give a file name inside it, for example --out adr/decision.md\n"},
		{"a scenario for a drill that has none", nil, nil,
			[]string{"drill", "taxonomy", "--scenario", "exit-test"},
			"stackpick: --scenario applies to the scenario and mock drills, not taxonomy\n"},
		{"no terminal for the interactive app", nil, nil,
			[]string{},
			"stackpick: the interactive app needs a terminal (stdin and stdout are not both one).\nFor scripts and pipes, use a command instead:\n  stackpick decide --answers FILE [--format text|json]\n  stackpick decide --scenario exit-test\n  stackpick size --model ID --gpu ID\n  stackpick drill taxonomy | scenario | flags | explain | mock | stats\n  stackpick scenarios | questions | kb check | kb rules | kb changes\n  stackpick compare dynamo llm-d kserve\nRun 'stackpick --help' for more.\n"},
	}
	if len(cases) < 20 {
		t.Fatalf("the issue asks for at least 20 bad inputs, have %d", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			for name, content := range c.files {
				write(t, filepath.Join(dir, name), content)
			}
			code, stdout, stderr := run(t, c.env, c.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
			if stderr != c.want {
				t.Errorf("stderr:\n got: %q\nwant: %q", stderr, c.want)
			}
			if c.name == "out file exists" {
				if b, _ := os.ReadFile("decision.json"); string(b) != "keep me" {
					t.Errorf("existing file changed: %q", b)
				}
			}
		})
	}
}

func TestDecideWritesJSONAndRefusesToOverwriteWithoutForce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := run(t, nil, "decide", "-s", "exit-test", "-f", "json", "-o", "d.json")
	if code != 0 || stdout != "" || stderr != "wrote d.json\n" {
		t.Fatalf("code %d stdout %q stderr %q", code, stdout, stderr)
	}
	raw, _ := os.ReadFile("d.json")
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil || v["schema"] != "stackpick.decision/v3" {
		t.Fatalf("bad JSON: %v %s", err, raw[:min(80, len(raw))])
	}
	if code, _, _ := run(t, nil, "decide", "-s", "single-node", "-f", "json", "-o", "d.json", "--force"); code != 0 {
		t.Fatalf("--force exit %d", code)
	}
	after, _ := os.ReadFile("d.json")
	if bytes.Equal(raw, after) {
		t.Fatal("--force did not replace the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestAnswersFromStdinAndPlainTextWhenPiped(t *testing.T) {
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), []string{"decide", "-a", "-"}, cli.IO{Stdin: strings.NewReader("nodes = 4\nkubernetes = \"required\"\ncache_aware_routing = true\n"), Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Error("piped output contains terminal escape codes")
	}
	if !strings.Contains(out.String(), "Stack: vLLM · no model server · llm-d + KServe") {
		t.Errorf("unexpected stack line:\n%s", out.String()[:300])
	}
}

func TestListingCommandsSucceed(t *testing.T) {
	for _, args := range [][]string{{"scenarios"}, {"questions"}, {"kb", "check"}, {"kb", "rules"}, {"kb", "rules", "-f", "markdown"}, {"version"}, {"--help"}} {
		code, stdout, stderr := run(t, nil, args...)
		if code != 0 || stdout == "" || stderr != "" {
			t.Errorf("%v: code %d, stdout %d bytes, stderr %q", args, code, len(stdout), stderr)
		}
	}
	_, out, _ := run(t, nil, "questions")
	for _, key := range strings.Split(answerKeys, ", ") {
		if !strings.Contains(out, key+" (") {
			t.Errorf("questions does not list %s", key)
		}
	}
}

func TestMarkdownMemoToStdoutAndFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--date", "2026-11-30", "--out", "-")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "# The exit test") || !strings.Contains(stdout, "- Date: 2026-11-30\n") {
		t.Fatalf("code %d stderr %q stdout %.120q", code, stderr, stdout)
	}
	// SOURCE_DATE_EPOCH pins the date when --date is absent.
	_, stdout2, _ := run(t, []string{"SOURCE_DATE_EPOCH=1795996800"}, "decide", "-s", "exit-test", "-f", "markdown")
	if stdout2 != stdout {
		t.Error("SOURCE_DATE_EPOCH for 2026-11-30 gave a different memo than --date 2026-11-30")
	}
	if code, _, _ := run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--date", "2026-11-30", "-o", "adr-0001.md"); code != 0 {
		t.Fatalf("write exit %d", code)
	}
	first, _ := os.ReadFile("adr-0001.md")
	if string(first) != stdout {
		t.Error("the file differs from the stdout memo")
	}
	code, _, stderr = run(t, nil, "decide", "-s", "single-node", "-f", "markdown", "-o", "adr-0001.md")
	if code != 2 || !strings.Contains(stderr, "already exists; not overwritten; pass --force") {
		t.Fatalf("second export: code %d stderr %q", code, stderr)
	}
	if again, _ := os.ReadFile("adr-0001.md"); string(again) != string(first) {
		t.Error("a refused export changed the file")
	}
	code, _, stderr = run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--date", "30/11/2026")
	if code != 2 || !strings.Contains(stderr, "--date: 30/11/2026: not a date (allowed: YYYY-MM-DD)") {
		t.Fatalf("bad date: code %d stderr %q", code, stderr)
	}
}

func TestAFileNeverGetsColourCodes(t *testing.T) {
	t.Chdir(t.TempDir())
	if code, _, stderr := run(t, []string{"COLORTERM=truecolor", "TERM=xterm-256color", "CLICOLOR_FORCE=1"}, "decide", "-s", "exit-test", "-o", "d.txt"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile("d.txt"); bytes.Contains(b, []byte("\x1b[")) || !bytes.Contains(b, []byte("Stack: vLLM")) {
		t.Fatalf("file has escape codes or lacks the stack:\n%.300s", b)
	}
}
