package cli_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// complete asks for the shell's completions as the completion scripts
// do, through cobra's hidden __complete command, and returns the values
// offered (without their descriptions) and the directive line.
func complete(t *testing.T, args ...string) (values []string, directive string) {
	t.Helper()
	code, out, stderr := run(t, nil, append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d, stderr %q", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, lines[len(lines)-1]
}

func TestShellCompletionOffersPresetsFormatsGPUsModelsAndAnswerKeys(t *testing.T) {
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	var presets, gpus, models, keys, products []string
	for _, s := range all {
		presets = append(presets, s.Name)
	}
	for _, g := range kb.GPUs {
		gpus = append(gpus, g.ID)
	}
	for _, m := range kb.Models {
		models = append(models, m.ID)
	}
	for _, p := range kb.Products {
		products = append(products, p.ID)
	}
	keys = kb.AnswerKeys()
	noFiles := ":4" // cobra.ShellCompDirectiveNoFileComp
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"decide", "--scenario", ""}, presets},
		{[]string{"decide", "-s", "exit"}, []string{"exit-test"}},
		{[]string{"drill", "scenario", "--scenario", ""}, presets},
		{[]string{"decide", "--format", ""}, []string{"text", "json", "markdown"}},
		{[]string{"diff", "a.toml", "b.toml", "--format", ""}, []string{"text", "json", "markdown"}},
		{[]string{"compare", "vllm", "sglang", "-f", ""}, []string{"text", "markdown", "json"}},
		{[]string{"size", "--format", ""}, []string{"text", "json"}},
		{[]string{"kb", "rules", "--format", ""}, []string{"text", "markdown"}},
		{[]string{"kb", "changes", "--format", ""}, []string{"text", "markdown", "json"}},
		{[]string{"kb", "verify", "--format", ""}, []string{"text", "json"}},
		{[]string{"size", "--gpu", ""}, gpus},
		{[]string{"size", "--model", ""}, models},
		{[]string{"size", "-m", "llama-3.3"}, []string{"llama-3.3-70b"}},
		{[]string{"questions", ""}, keys},
		{[]string{"questions", "gpu", "gpus"}, []string{"gpus_per_node"}},
		{[]string{"compare", "vllm", ""}, slices.DeleteFunc(slices.Clone(products), func(p string) bool { return p == "vllm" })},
		{[]string{"drill", ""}, []string{"taxonomy", "scenario", "flags", "explain", "mock", "stats"}},
		{[]string{"decide", "--format", "markdown", "--status", ""}, knowledge.MemoStatuses},
		// No fourth product (compare takes two or three), nothing after
		// a drill's name, no file names for a seed or a vLLM release.
		{[]string{"compare", "dynamo", "llm-d", "kserve", ""}, nil},
		{[]string{"drill", "stats", ""}, nil},
		{[]string{"drill", "sc"}, []string{"scenario"}},
		{[]string{"drill", "scenario", "--seed", ""}, nil},
		{[]string{"size", "--vllm-version", ""}, []string{strings.TrimPrefix(decide.VLLMRelease(kb), "v")}},
	}
	for _, c := range cases {
		got, directive := complete(t, c.args...)
		if !slices.Equal(got, c.want) || directive != noFiles {
			t.Errorf("stackpick __complete %s:\n got %q %s\nwant %q %s", strings.Join(c.args, " "), got, directive, c.want, noFiles)
		}
	}
}

// Every command with a --format flag completes the values its own check
// allows (the list its error gives for a format it does not know).
func TestEveryFormatFlagCompletesWhatTheCommandAccepts(t *testing.T) {
	for _, args := range [][]string{
		{"decide", "-s", "exit-test"}, {"diff", "a.toml", "b.toml"}, {"compare", "vllm", "sglang"},
		{"size", "--model", "llama-3.1-8b", "--gpu", "h100"}, {"kb", "rules"}, {"kb", "changes"}, {"kb", "verify", "--sources", "."},
	} {
		cmd := args[:1]
		if args[0] == "kb" {
			cmd = args[:2]
		}
		got, _ := complete(t, append(slices.Clone(cmd), "--format", "")...)
		_, _, stderr := run(t, nil, append(slices.Clone(args), "--format", "nope")...)
		want := "unknown format (allowed: " + strings.Join(got, ", ") + ")"
		if len(got) < 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v --format completes %q, but the command says %q", cmd, got, stderr)
		}
	}
}

// The answers file completes to TOML files, an overlay to folders.
func TestFileFlagsCompleteFilesOfTheirKind(t *testing.T) {
	for _, c := range []struct {
		args      []string
		directive string
	}{
		{[]string{"decide", "--answers", ""}, ":8"}, // FilterFileExt: toml
		{[]string{"open", ""}, ":8"},
		{[]string{"kb", "check", "--kb", ""}, ":16"}, // FilterDirs
	} {
		_, directive := complete(t, c.args...)
		if directive != c.directive {
			t.Errorf("%v: directive %s, want %s", c.args, directive, c.directive)
		}
	}
}

// questions KEY narrows the list to those keys; a key that is not an
// answer key exits 2 with a did-you-mean.
func TestQuestionsNarrowsToTheKeysGiven(t *testing.T) {
	code, out, stderr := run(t, nil, "questions", "model", "gpu")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if !strings.HasPrefix(out, "── FLEET\ngpu (enum)") || !strings.Contains(out, "\nmodel (enum)") || strings.Contains(out, "nodes (int)") {
		t.Errorf("questions model gpu printed:\n%s", out)
	}
	code, out, stderr = run(t, nil, "questions", "gpx")
	if code != 2 || out != "" || !strings.Contains(stderr, `stackpick: questions: gpx: not an answer key (allowed: nodes, `) || !strings.Contains(stderr, `did you mean "gpu"?`) {
		t.Errorf("questions gpx: exit %d stdout %q stderr %q", code, out, stderr)
	}
}
