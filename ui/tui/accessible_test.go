package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// lineReader hands out one line per Read, as a terminal in line mode does;
// huh's accessible prompts start a new scanner for every question.
type lineReader struct{ lines []string }

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.lines) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.lines[0]+"\n")
	r.lines = r.lines[1:]
	return n, nil
}

// Accessible mode asks the same questions with the same defaults as plain
// numbered prompts, prints the decision to stdout without escape codes,
// and saves answers that replay to it.
func TestAccessibleQuestionnaire(t *testing.T) {
	kb, list := loadKB(t)
	path := filepath.Join(t.TempDir(), "a11y.toml")
	lines := []string{"2"}                                // start from the exit test (1 is the defaults)
	lines = append(lines, "6", "", "", "", "", "")        // Fleet: 6 nodes
	lines = append(lines, "", "", "", "", "", "0", "")    // Models (0 confirms the list)
	lines = append(lines, "", "", "", "")                 // Models: context_tokens, model, weights_dtype, kv_cache_dtype
	lines = append(lines, "", "", "", "", "", "", "", "") // Workload
	lines = append(lines, "", "", "", "", "", "", "")     // Platform
	lines = append(lines, "", "", "", "")                 // Team
	lines = append(lines, path)
	var stdout, stderr bytes.Buffer
	err := Run(t.Context(), kb, list, Options{
		Accessible: true,
		Stdin:      &lineReader{lines: lines},
		Stdout:     &stdout,
		Stderr:     &stderr,
		Env:        []string{"TERM=xterm-256color"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := list[0].Answers.Clone()
	if err := want.Set("nodes", int64(6)); err != nil {
		t.Fatal(err)
	}
	d := decide.Decide(kb, want)
	if !strings.Contains(stdout.String(), report.StackLine(kb, d)) {
		t.Errorf("stdout does not show the decision %q:\n%s", report.StackLine(kb, d), stdout.String())
	}
	for name, s := range map[string]string{"prompts": stderr.String(), "decision": stdout.String()} {
		if strings.Contains(s, "\x1b[") {
			t.Errorf("accessible %s contain escape codes (screen readers read them aloud):\n%q", name, s)
		}
	}
	for _, q := range []string{"How many GPU nodes", "Why it matters", "Page 5 of 5: Team"} {
		if !strings.Contains(stderr.String(), q) {
			t.Errorf("prompts lack %q:\n%s", q, stderr.String())
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("answers not saved: %v\nprompts:\n%s", err, stderr.String())
	}
	back, err := kb.ParseAnswers(path, data)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "the saved accessible answers", decide.Decide(kb, back), d)
}
