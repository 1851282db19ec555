package report_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/ui/report"
)

// flipRows are the summary's flip lines, stripped: the lines from the
// "Nearest flips"/"Flips" label to the next blank line.
func flipRows(lines []string) []string {
	var out []string
	in := false
	for _, l := range lines {
		l = ansi.Strip(l)
		if strings.HasPrefix(l, "Nearest flips") || strings.HasPrefix(l, "Flips:") {
			in = true
		}
		if in && strings.TrimSpace(l) == "" || in && strings.Contains(l, "course-notes") || in && strings.Contains(l, "course notes") {
			break
		}
		if in {
			out = append(out, l)
		}
	}
	return out
}

// A flip in the summary says what it changes: each one is one line at
// 80x24 and 120x40 that ends in the layers it moves, whole ("⇒
// orchestrator: none"); a long answer gives up its values, never the
// result. Every preset shows three flips at 80x24 when it has three.
func TestSummaryFlipsSayWhatTheyChange(t *testing.T) {
	kb, all := presets(t)
	moved := regexp.MustCompile(`⇒ [^…]+$`)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		// A small stack can have fewer flips than three (a CPU-only box
		// moves only on answers that change the engine): want all it has.
		want := min(3, len(flipRows(report.Summary(kb, d, report.DefaultStyles(), 200, 80))))
		for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
			rows := flipRows(report.Summary(kb, d, report.DefaultStyles(), sz.w, sz.h))
			if len(rows) != want {
				t.Errorf("%s at %dx%d: %d flip rows, want %d one-line flips:\n%s", sc.Name, sz.w, sz.h, len(rows), want, strings.Join(rows, "\n"))
			}
			for _, r := range rows {
				if !moved.MatchString(r) {
					t.Errorf("%s at %dx%d: the flip does not end in the layer it moves, whole: %q", sc.Name, sz.w, sz.h, r)
				}
			}
		}
	}
	kb, d := decideScenario(t, "gitops-rollouts")
	text := strings.Join(flipRows(report.Summary(kb, d, report.DefaultStyles(), 80, 24)), "\n")
	for _, want := range []string{"kubernetes: required → none ⇒ orchestrator: none", "other_model_types → vision | … ⇒ model server: Dynamo-Triton"} {
		if !strings.Contains(text, want) {
			t.Errorf("gitops-rollouts at 80x24: the flips lack %q:\n%s", want, text)
		}
	}
}

// At 40x12 the rows a summary has left go to the flips: every preset
// shows at least two, each ending in the pick it leads to.
func TestSummaryNarrowUsesItsRowsForFlips(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		lines := report.SummaryWith(kb, d, report.DefaultStyles(), 40, 10, report.SummaryOptions{NoStackLine: true, NotesHint: "press n to see them"})
		rows := flipRows(lines)
		if len(rows) < min(2, len(flipRows(report.Summary(kb, d, report.DefaultStyles(), 200, 80)))) {
			t.Errorf("%s at 40x10: %d flips, want 2 at least:\n%s", sc.Name, len(rows), ansi.Strip(strings.Join(lines, "\n")))
		}
		for _, r := range rows {
			if !strings.Contains(r, "⇒ ") || strings.HasSuffix(r, "…") {
				t.Errorf("%s at 40x10: the flip is cut before its result: %q", sc.Name, r)
			}
		}
	}
}

// An engine that does not fit the fleet leads the summary with a warning,
// in the app's summary and in the command line's text, at every size.
func TestSummaryLeadsWithAnEngineThatDoesNotFit(t *testing.T) {
	kb, d := decideTOML(t, "nodes = 1\ngpus_per_node = 1\ngpu = \"l4\"\nmodel = \"llama-3.1-405b\"\n")
	want := "! Will not run: llama-3.1-405b does not fit 1 GPU"
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 12}} {
		lines := report.SummaryWith(kb, d, report.DefaultStyles(), sz.w, sz.h, report.SummaryOptions{NoStackLine: true})
		checkSummary(t, kb, d, fmt.Sprintf("nofit at %dx%d", sz.w, sz.h), lines, sz.w, sz.h)
		if first := ansi.Strip(lines[0]); !strings.HasPrefix(first, want[:min(len(want), sz.w)]) && !strings.HasPrefix(want, strings.TrimSuffix(strings.TrimSuffix(first, "…"), " ")) {
			t.Errorf("nofit at %dx%d: the summary does not lead with the warning: %q", sz.w, sz.h, first)
		}
	}
	text := ansi.Strip(report.Decision(kb, d, report.Header{Title: "Answers from nofit.toml"}, report.DefaultStyles(), 100))
	if lines := strings.Split(text, "\n"); !strings.HasPrefix(lines[2], want) || !strings.Contains(text, "raise the tensor-parallel size or quantize\n\nStack: ") {
		t.Errorf("the text does not lead with the warning whole:\n%s", text[:min(len(text), 600)])
	}
	_, fits := decideScenario(t, "exit-test")
	if report.FitWarning(fits) != "" {
		t.Error("a fleet that fits gets a warning")
	}
}

// The command line's text cuts nothing: every why line, close call and
// assumption is whole (wrapped), and the tensor-parallel flag's defense
// ends in what to do, not in "…".
func TestDecisionTextCutsNoWhyLine(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		text := ansi.Strip(report.Decision(kb, d, report.Header{}, report.DefaultStyles(), 80))
		summary := text[:strings.Index(text, "── ")]
		for _, l := range strings.Split(summary, "\n") {
			if strings.HasSuffix(l, "…") && !strings.Contains(l, "⇒") {
				t.Errorf("%s: a summary line is cut: %q", sc.Name, l)
			}
		}
		if strings.Contains(text, "GiB); …") {
			t.Errorf("%s: the tensor-parallel defense is cut", sc.Name)
		}
	}
}

// At 80x24 a why line that cannot be whole is cut after a clause, never
// inside one.
func TestSummaryCutsWhyLinesAfterAClause(t *testing.T) {
	kb, all := presets(t)
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		for _, l := range report.Summary(kb, d, report.DefaultStyles(), 80, 24) {
			l = ansi.Strip(l)
			// Assumptions (key = value) and flips (⇒) are not why lines.
			if strings.Contains(l, "…") && !strings.HasSuffix(l, " …") && !strings.HasSuffix(l, " …)") && !strings.Contains(l, "=") && !strings.Contains(l, "⇒") {
				t.Errorf("%s at 80x24: cut inside a word: %q", sc.Name, l)
			}
		}
	}
}

// The trace's stacks line up: the chosen one's mark and the others' blank
// take the same column, the scores are right-aligned.
func TestTraceStacksLineUp(t *testing.T) {
	kb, d := decideScenario(t, "exit-test")
	lines := report.TraceLines(kb, d, report.DefaultStyles(), 100)
	col := -1
	for _, l := range lines[1:] {
		l = ansi.Strip(l)
		if l == "" {
			break
		}
		rest := strings.TrimLeft(l[strings.Index(l, " ")+1:], " ") // past the mark and the score's padding
		rest = rest[strings.Index(rest, " "):]                     // past the score
		j := len(l) - len(strings.TrimLeft(rest, " "))
		if col >= 0 && ansi.StringWidth(l[:j]) != col {
			t.Errorf("the stack %q starts at column %d, the first at %d", l, ansi.StringWidth(l[:j]), col)
		}
		col = ansi.StringWidth(l[:j])
		if !strings.HasPrefix(l, "▸ ") && !strings.HasPrefix(l, "  ") {
			t.Errorf("the row %q has no mark column", l)
		}
	}
}
