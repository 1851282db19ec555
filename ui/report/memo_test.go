package report_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const pinnedDate = "2026-11-30"

func memoFor(t testing.TB, kb *knowledge.KB, s scenarios.Scenario) string {
	t.Helper()
	d := decide.Decide(kb, s.Answers)
	return report.Memo(kb, d, report.Origin{Scenario: &s}.MemoInput(pinnedDate))
}

// Every preset scenario has a golden memo; .ci/run lints the goldens with
// markdownlint-cli2. Regenerate with: go test ./ui/report -run Golden -update
func TestGoldenMemoForEveryPreset(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			got := memoFor(t, kb, s)
			path := filepath.Join("testdata", "memos", s.Name+".md")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("memo differs from %s; review with -update and git diff", path)
			}
		})
	}
}

func TestMemoIsDeterministicAndPlain(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	first := memoFor(t, kb, all[0])
	if again := memoFor(t, kb, all[0]); again != first {
		t.Fatal("same decision and date gave different bytes")
	}
	if strings.Contains(first, "\x1b") {
		t.Fatal("memo contains terminal escape codes")
	}
	for _, section := range []string{"# Choose the LLM serving stack", "- Status: proposed", "- Date: " + pinnedDate, "- Deciders:",
		"## Context and problem statement", "## Decision drivers", "## Considered options", "## Decision outcome",
		"## Consequences", "## What would change this decision", "## Verify before committing", "## Sources"} {
		if !strings.Contains(first, section) {
			t.Errorf("memo lacks %q", section)
		}
	}
}

// The memo says what the decision trace says: every fired reason of every
// layer appears with its rule id.
func TestMemoCarriesEveryReasonOfTheDecision(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		memo := report.Memo(kb, d, report.MemoInput{Title: s.Title, Date: pinnedDate})
		for _, lp := range d.Layers {
			for _, r := range lp.Reasons {
				if !strings.Contains(memo, "(`"+r.Rule+"`") {
					t.Errorf("%s: memo lacks reason %s", s.Name, r.Rule)
				}
			}
		}
	}
}
