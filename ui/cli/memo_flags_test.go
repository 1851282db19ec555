package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

const memoAnswers = `nodes = 2
kubernetes = "required"

[memo]
title = "Serve the support bot from the new cluster"
status = "proposed"
deciders = ["Ana Ruiz"]
date = 2026-10-01
problem = "Support chat moves off the vendor API by Q1."
`

// The answers file's [memo] table heads the memo; flags override it field
// by field.
func TestMemoFlagsOverrideTheAnswersFilesMemoTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fleet.toml")
	write(t, path, memoAnswers)
	code, out, stderr := run(t, nil, "decide", "-a", path, "-f", "markdown")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	for _, want := range []string{"# Serve the support bot from the new cluster\n", "- Status: proposed\n", "- Deciders: Ana Ruiz\n", "- Date: 2026-10-01\n", "\nSupport chat moves off the vendor API by Q1.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("memo from the file lacks %q", want)
		}
	}
	code, out, stderr = run(t, nil, "decide", "-a", path, "-f", "markdown", "--status", "accepted", "--deciders", "Ana Ruiz, Ben Okafor", "--date", "2026-12-02", "--title", "Support bot stack", "--problem", "Cut the API bill.")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	for _, want := range []string{"# Support bot stack\n", "- Status: accepted\n", "- Deciders: Ana Ruiz, Ben Okafor\n", "- Date: 2026-12-02\n", "\nCut the API bill.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("memo with flags lacks %q", want)
		}
	}
	if strings.Contains(out, "vendor API") {
		t.Error("--problem did not replace the file's problem")
	}
}

func TestBadMemoMetadataExitsTwoAndSaysWhatToType(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	write(t, bad, "nodes = 2\n\n[memo]\nstatus = \"acepted\"\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"decide", "-a", bad, "-f", "markdown"}, bad + `:4: memo.status: "acepted" is not a decision record's status (allowed: proposed, accepted, rejected, deprecated, superseded); did you mean "accepted"?`},
		{[]string{"decide", "-s", "exit-test", "-f", "markdown", "--status", "approved"}, `--status: "approved" is not a decision record's status (allowed: proposed, accepted, rejected, deprecated, superseded)`},
		{[]string{"decide", "-s", "exit-test", "-f", "markdown", "--status", "acepted"}, `did you mean --status "accepted"?`},
		{[]string{"decide", "-s", "exit-test", "-f", "markdown", "--date", "1 Dec 2026"}, `--date`},
		{[]string{"decide", "-s", "exit-test", "--title", "x"}, `--title only sets the markdown memo: add --format markdown`},
		// --date dates the memo; any other format has no date to set.
		{[]string{"decide", "-s", "exit-test", "--date", "2026-12-02"}, `--date only sets the markdown memo: add --format markdown`},
		{[]string{"decide", "-s", "exit-test", "-f", "json", "--date", "2026-12-02", "--status", "accepted"}, `--status, --date only set the markdown memo: add --format markdown`},
	} {
		code, out, stderr := run(t, nil, c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d stdout %q stderr %q, want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
}

// --pinned lists another decision under the options: an answers file, or
// a preset by name.
func TestPinnedFlagPutsTheOtherDecisionUnderTheOptions(t *testing.T) {
	dir := t.TempDir()
	pinned := filepath.Join(dir, "one-node.toml")
	write(t, pinned, "nodes = 1\n")
	code, out, stderr := run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--pinned", pinned)
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	options := out[strings.Index(out, "## Considered options"):strings.Index(out, "## Decision outcome")]
	for _, want := range []string{"### The pinned alternative: one-node.toml\n", "Pinned stack: vLLM · no model server · no orchestrator.", "- `nodes`: pinned `1` → chosen `4`.", "Orchestrator: the pinned decision chose no orchestrator"} {
		if !strings.Contains(options, want) {
			t.Errorf("options lack %q:\n%s", want, options)
		}
	}
	code, out, _ = run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--pinned", "single-node")
	if code != 0 || !strings.Contains(out, "### The pinned alternative: One node, one model, on-prem\n") {
		t.Errorf("--pinned with a preset's name: code %d", code)
	}
	code, _, stderr = run(t, nil, "decide", "-s", "exit-test", "-f", "markdown", "--pinned", "single-nod")
	if code != 2 || !strings.Contains(stderr, `--pinned: single-nod: no such answers file or preset`) || !strings.Contains(stderr, `did you mean "single-node"?`) {
		t.Errorf("a misspelt --pinned: code %d stderr %q", code, stderr)
	}
}
