package cli_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// fullCommitID is a whole 40-digit commit id, as the knowledge base's
// sources record them.
var fullCommitID = regexp.MustCompile(`\b[0-9a-f]{40}\b`)

// seedWord is the word the course notes must not be called by.
var seedWord = regexp.MustCompile(`(?i)\bseed`)

// output is one user-facing rendering: what produced it and its text.
type output struct {
	what, text string
}

// presetNames lists every preset scenario, from the knowledge base.
func presetNames(t *testing.T) []string {
	t.Helper()
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if len(names) < 8 {
		t.Fatalf("only %d presets: %v", len(names), names)
	}
	return names
}

// mustRun runs a command that must succeed and returns its stdout.
func mustRun(t *testing.T, args ...string) output {
	t.Helper()
	code, out, stderr := run(t, nil, args...)
	if code != 0 || out == "" {
		t.Fatalf("stackpick %s: exit %d, %d bytes out, stderr %q", strings.Join(args, " "), code, len(out), stderr)
	}
	return output{strings.Join(args, " "), out}
}

// decisionOutputs is every preset's decide text, trace text (when decide
// has --trace) and Markdown memo.
func decisionOutputs(t *testing.T) []output {
	t.Helper()
	var outs []output
	trace := true
	for _, name := range presetNames(t) {
		outs = append(outs, mustRun(t, "decide", "--scenario", name))
		outs = append(outs, mustRun(t, "decide", "--scenario", name, "--format", "markdown", "--date", "2026-12-01"))
		if trace {
			code, out, stderr := run(t, nil, "decide", "--scenario", name, "--trace")
			switch {
			case code == 2 && strings.Contains(stderr, "--trace"):
				// decide has no trace view in this build: nothing to check.
				trace = false
			case code != 0:
				t.Fatalf("decide --trace: exit %d: %s", code, stderr)
			default:
				outs = append(outs, output{"decide --scenario " + name + " --trace", out})
			}
		}
	}
	return outs
}

// helpPages is `--help` of the root and of every command under it, found
// by walking each page's command list.
func helpPages(t *testing.T) []output {
	t.Helper()
	var outs []output
	queue := [][]string{{}}
	seen := map[string]bool{}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if seen[strings.Join(path, " ")] {
			continue
		}
		seen[strings.Join(path, " ")] = true
		o := mustRun(t, append(append([]string{}, path...), "--help")...)
		outs = append(outs, o)
		for _, sub := range subcommands(o.text) {
			if sub != "help" && sub != "completion" {
				queue = append(queue, append(append([]string{}, path...), sub))
			}
		}
	}
	if len(outs) < 10 {
		t.Fatalf("found only %d help pages", len(outs))
	}
	return outs
}

// subcommands reads the command names listed under a help page's
// COMMANDS heading (a line indented deeper than the first name continues
// a description).
func subcommands(help string) []string {
	var names []string
	in := false
	indent := -1
	for _, l := range strings.Split(help, "\n") {
		f := strings.Fields(l)
		depth := len(l) - len(strings.TrimLeft(l, " "))
		switch {
		case in && indent >= 0 && len(f) > 0 && depth > indent:
			continue
		case len(f) == 1 && strings.EqualFold(f[0], "COMMANDS") || strings.HasPrefix(strings.TrimSpace(l), "Available Commands"):
			in = true
		case len(f) == 0:
			if in && len(names) > 0 {
				return names
			}
		case in && len(f) == 1 && strings.ToUpper(f[0]) == f[0]:
			return names // the next heading
		case in:
			if indent < 0 {
				indent = depth
			}
			names = append(names, f[0])
		}
	}
	return names
}

// Body text cites a source by a short commit id (repo@8 hex digits): a
// whole 40-digit id appears only under a memo's Sources section.
func TestBodyTextHoldsNoFullCommitIDs(t *testing.T) {
	outs := decisionOutputs(t)
	outs = append(outs,
		mustRun(t, "kb", "rules"), mustRun(t, "kb", "rules", "--format", "markdown"),
		mustRun(t, "kb", "changes"), mustRun(t, "kb", "changes", "--format", "markdown"))
	sawSources := 0
	for _, o := range outs {
		for i, l := range strings.Split(o.text, "\n") {
			if l == "## Sources" {
				sawSources++
				break // the memo's last section: full ids belong there
			}
			if m := fullCommitID.FindString(l); m != "" {
				t.Errorf("%s, line %d holds the full commit id %s:\n%s", o.what, i+1, m, l)
			}
		}
	}
	if sawSources < 8 {
		t.Errorf("only %d memos had a Sources section", sawSources)
	}
	// The memo's Sources keep the full ids: a short one there would not
	// pin the commit.
	if memo := mustRun(t, "decide", "--scenario", "last-15-percent", "--format", "markdown", "--date", "2026-12-01").text; !fullCommitID.MatchString(memo[strings.Index(memo, "## Sources"):]) {
		t.Error("the last-15-percent memo's Sources lost their full commit ids")
	}
}

// No user-facing text calls the course notes "seed": every preset's
// decision (text, trace, memo), the rules, questions and scenarios lists,
// what changed since the course notes, and every help page. The drills'
// random seed (--seed N) is the one "seed" there is.
func TestNoUserFacingTextSaysSeed(t *testing.T) {
	outs := decisionOutputs(t)
	for _, args := range [][]string{
		{"kb", "rules"}, {"kb", "rules", "--format", "markdown"}, {"kb", "check"},
		{"kb", "changes"}, {"kb", "changes", "--format", "markdown"},
		{"questions"}, {"scenarios"},
	} {
		outs = append(outs, mustRun(t, args...))
	}
	outs = append(outs, helpPages(t)...)
	for _, o := range outs {
		seedRow := -1 // the indentation of the --seed flag's row in a help page
		for i, l := range strings.Split(o.text, "\n") {
			depth := len(l) - len(strings.TrimLeft(l, " "))
			if strings.Contains(l, "--seed") {
				seedRow = depth
				continue // the drills' random seed
			}
			if seedRow >= 0 && depth > seedRow && strings.TrimSpace(l) != "" {
				continue // its description, wrapped
			}
			seedRow = -1
			if seedWord.MatchString(l) {
				t.Errorf("%s, line %d says seed:\n%s", o.what, i+1, l)
			}
		}
	}
}

// `kb changes` lists what changed since the course notes, per product;
// PRODUCT narrows it; a wrong product or format is a usage error that says
// what to type.
func TestKBChangesListsCorrectionsAndGoneFlags(t *testing.T) {
	all := mustRun(t, "kb", "changes").text
	for _, want := range []string{"What changed since the course notes", "'Engines as Products'", "vLLM · ", "SGLang · ", "--swap-space", "--disable-radix-cache", "the course notes:", "now:", "source:"} {
		if !strings.Contains(all, want) {
			t.Errorf("kb changes lacks %q", want)
		}
	}
	one := mustRun(t, "kb", "changes", "sglang").text
	if strings.Contains(one, "vLLM · ") || !strings.Contains(one, "SGLang · ") || !strings.Contains(one, "--enable-radix-cache") {
		t.Errorf("kb changes sglang:\n%s", one)
	}
	js := mustRun(t, "kb", "changes", "vllm", "--format", "json").text
	if !strings.Contains(js, `"flags_gone"`) || !strings.Contains(js, `"flag": "--swap-space"`) {
		t.Errorf("kb changes vllm --format json:\n%s", js)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kb", "changes", "vlm"}, `stackpick: PRODUCT: vlm: no such product (allowed: vllm, sglang,`},
		{[]string{"kb", "changes", "vllm", "--format", "yaml"}, `stackpick: --format: yaml: unknown format (allowed: text, markdown, json)`},
		{[]string{"kb", "changes", "vllm", "sglng"}, `stackpick: PRODUCT: sglng: no such product`},
	} {
		code, out, stderr := run(t, nil, c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%v: exit %d, out %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
	if _, _, stderr := run(t, nil, "kb", "changes", "vlm"); !strings.Contains(stderr, `did you mean "vllm"?`) {
		t.Errorf("no did-you-mean: %q", stderr)
	}
}
