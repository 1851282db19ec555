package tui

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	dir := t.TempDir()
	path, memoPath := filepath.Join(dir, "a11y.toml"), filepath.Join(dir, "a11y.md")
	lines := []string{"2"}                                // start from the exit test (1 is the defaults)
	lines = append(lines, "6", "", "", "", "", "")        // Fleet: 6 nodes
	lines = append(lines, "", "", "", "", "", "0", "")    // Models (0 confirms the list)
	lines = append(lines, "", "", "", "")                 // Models: context_tokens, model, weights_dtype, kv_cache_dtype
	lines = append(lines, "", "", "", "", "", "", "", "") // Workload
	lines = append(lines, "", "", "", "", "", "", "")     // Platform
	lines = append(lines, "", "", "", "")                 // Team
	lines = append(lines, path, memoPath)
	var stdout, stderr bytes.Buffer
	err := Run(t.Context(), kb, list, Options{
		Accessible: true,
		Stdin:      &lineReader{lines: lines},
		Stdout:     &stdout,
		Stderr:     &stderr,
		Env:        []string{"TERM=xterm-256color"},
		Now:        testNow,
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
	memo, err := os.ReadFile(memoPath)
	if err != nil {
		t.Fatalf("memo not exported: %v\nprompts:\n%s", err, stderr.String())
	}
	if want := report.Memo(kb, d, report.Origin{Scenario: &list[0], Moved: "nodes 4 → 6"}.MemoInput("2026-11-30")); string(memo) != want {
		t.Errorf("the exported memo is not the decision's memo:\n%s", memo)
	}
	// A path too long for the line after the words starts a line of its
	// own, whole.
	if said := strings.ReplaceAll(stderr.String(), "\n", " "); !strings.Contains(said, "Exported the memo to "+memoPath) {
		t.Errorf("the prompts do not say where the memo went:\n%s", stderr.String())
	}
}

// Accessible prompts fit an 80-column line, break only at spaces, and
// read the answer on a short prompt line: the typed answer is echoed right
// after it, not after a line padded to the widest of the question's.
func TestAccessiblePromptsFitAndEchoClose(t *testing.T) {
	kb, list := loadKB(t)
	var stdout, stderr bytes.Buffer
	// Defaults, then 3 nodes; the input ends there (the rest keep their
	// answers, or the prompts stop: either way the lines so far count).
	_ = Run(t.Context(), kb, list, Options{
		Accessible: true,
		Stdin:      &lineReader{lines: []string{"1", "3"}},
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	words := map[string]bool{}
	for _, q := range kb.Questions {
		for _, w := range strings.Fields(q.Prompt + " " + q.Why) {
			words[strings.Trim(w, ".,;:()")] = true
		}
	}
	lines := strings.Split(stderr.String(), "\n")
	for i, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("prompt line %d is %d wide (over 80, the terminal would cut a word):\n%s", i, w, l)
		}
		if strings.HasSuffix(l, "  ") {
			t.Errorf("prompt line %d ends in padding: %q", i, l)
		}
		// A line that ends mid-word: its last piece is not a word of the
		// questions but joins the next line's first into one.
		f := strings.Fields(l)
		if i+1 < len(lines) && len(f) > 0 && len(strings.Fields(lines[i+1])) > 0 {
			last, next := strings.Trim(f[len(f)-1], ".,;:()"), strings.Fields(lines[i+1])[0]
			if !words[last] && words[strings.Trim(last+next, ".,;:()")] {
				t.Errorf("line %d breaks the word %q:\n%s\n%s", i, last+next, l, lines[i+1])
			}
		}
	}
	if !strings.Contains(stderr.String(), "\nnodes: ") {
		t.Errorf("the nodes answer is not read on a short prompt line:\n%s", stderr.String())
	}
}

// A bare enter at a multi-select ends it with the items as they stand, as
// it keeps the answer at every other prompt (huh wants a 0, and asked
// again, "Invalid: must be a number"); a long path in what the prompts say
// is never cut mid-word.
func TestAccessibleListTakesABareEnterAndPathsStayWhole(t *testing.T) {
	kb, list := loadKB(t)
	dir := filepath.Join(t.TempDir(), "a-folder-with-a-rather-long-name", "and-another-one-below-it")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "accessible-answers-with-a-long-file-name.toml")
	lines := []string{"1"}
	lines = append(lines, "", "", "", "", "", "")     // Fleet
	lines = append(lines, "", "", "", "", "", "", "") // Models: the list with a bare enter
	lines = append(lines, "", "", "", "")
	lines = append(lines, "", "", "", "", "", "", "", "")
	lines = append(lines, "", "", "", "", "", "", "")
	lines = append(lines, "", "", "", "")
	lines = append(lines, path, "")
	var stdout, stderr bytes.Buffer
	err := Run(t.Context(), kb, list, Options{Accessible: true, Stdin: &lineReader{lines: lines}, Stdout: &stdout, Stderr: &stderr, Now: testNow})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "Invalid") {
		t.Errorf("a bare enter was refused:\n%s", stderr.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("answers not saved (the prompts fell out of step): %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "\n"+path+".") && !strings.Contains(stderr.String(), " "+path+".") {
		t.Errorf("the saved path is cut across lines:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "\nReplay: stackpick decide --answers "+path+"\n") {
		t.Errorf("the replay command's path is cut across lines:\n%s", stderr.String())
	}
}

// The accessible prompts end where their input does: ctrl+d (or a closed
// pipe) abandons, as in the line-mode drill, and nothing is saved. Before,
// huh took every end of file for "keep the default": the questionnaire ran
// to its end with the defaults and the command exited 0.
func TestAccessibleEndOfInputAbandons(t *testing.T) {
	kb, list := loadKB(t)
	dir := t.TempDir()
	everyPage := []string{"1"}
	for _, p := range questionPages(kb) {
		for range p.questions {
			everyPage = append(everyPage, "")
		}
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"at the first prompt", nil, "nothing was saved"},
		{"after the third answer", []string{"2", "6", ""}, "nothing was saved"},
		{"at the save prompt", everyPage, "nothing was saved"},
		{"at the memo prompt, the answers saved", append(slices.Clone(everyPage), filepath.Join(dir, "saved.toml")), "the memo was not exported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := Run(t.Context(), kb, list, Options{Accessible: true, Stdin: &lineReader{lines: c.lines}, Stdout: &stdout, Stderr: &stderr, Now: testNow})
			if !errors.Is(err, ErrInputEnded) {
				t.Fatalf("the input ended %s and the prompts returned %v, want ErrInputEnded; prompts:\n%s", c.name, err, stderr.String())
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			if len(c.lines) < len(everyPage) && strings.Contains(stderr.String(), "Save the answers") {
				t.Errorf("the prompts ran on past the end of the input:\n%s", stderr.String())
			}
			if files, _ := os.ReadDir(dir); len(files) > 1 {
				t.Errorf("files written: %v", files)
			}
		})
	}
}

// The end of the input is sticky and a last line without a newline is
// still an answer: huh starts a scanner per prompt, and a terminal reads
// one end of file per ctrl+d, then waits again.
func TestInputWatchEndsAtTheStartOfALine(t *testing.T) {
	// As a terminal reads: "1", enter, "3", ctrl+d (the line so far), ctrl+d.
	w := &inputWatch{r: io.MultiReader(strings.NewReader("1\n"), strings.NewReader("3")), atLineStart: true}
	var got []string
	for range 3 {
		s := bufio.NewScanner(w)
		if s.Scan() {
			got = append(got, s.Text())
		}
		if w.ended {
			break
		}
	}
	if !slices.Equal(got, []string{"1", "3"}) || !w.ended {
		t.Errorf("read %q, ended %v; want [1 3], ended", got, w.ended)
	}
	if n, err := w.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Errorf("after the end a read gave %d, %v; want 0, EOF", n, err)
	}
}
