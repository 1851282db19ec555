package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// A full commit id in body text is cut to its first eight digits, wherever
// it sits; shorter hex runs and longer words are left alone.
func TestShortRefsCutsOnlyFullCommitIDs(t *testing.T) {
	full := "99d7eb5d6a512cfcc5a2b104f24ebf2d6cda772b"
	for in, want := range map[string]string{
		"vllm-project/vllm@" + full + ":vllm/engine/arg_utils.py": "vllm-project/vllm@99d7eb5d:vllm/engine/arg_utils.py",
		full + "; " + full:                   "99d7eb5d; 99d7eb5d",
		"kserve commit fe1f345 (PR #4)":      "kserve commit fe1f345 (PR #4)",
		"x" + full:                           "x" + full, // part of a longer word
		"vllm/engine/arg_utils.py@99d7eb5d…": "vllm/engine/arg_utils.py@99d7eb5d…",
		"":                                   "",
	} {
		if got := report.ShortRefs(in); got != want {
			t.Errorf("ShortRefs(%q) = %q, want %q", in, got, want)
		}
	}
	if !report.HasFullRef("a@"+full) || report.HasFullRef("a@99d7eb5d") {
		t.Error("HasFullRef")
	}
	if got := report.SourceText("r@"+full+":f", "2026-09"); got != "source: r@99d7eb5d:f (checked 2026-09)" {
		t.Errorf("SourceText: %q", got)
	}
}

// What changed since the course notes comes from the knowledge base: the
// products' corrections and the flags.toml records of gone flags. A flag
// the overlay makes current again leaves the list and the count.
func TestCourseNoteChangesFollowTheKnowledgeBase(t *testing.T) {
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	all, err := report.CourseNoteChanges(kb, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 3 || all[0].Product != "vllm" {
		t.Fatalf("changes for %d products, first %+v", len(all), all[0])
	}
	vllm := all[0]
	if len(vllm.Corrections) != len(kb.Product("vllm").SeedNotes) || len(vllm.FlagsGone) != report.GoneFlagsCount(kb, "vllm") {
		t.Errorf("vLLM: %d corrections, %d flags gone", len(vllm.Corrections), len(vllm.FlagsGone))
	}
	var spec *report.GoneFlag
	for i, g := range vllm.FlagsGone {
		if g.Flag == "--speculative-model" {
			spec = &vllm.FlagsGone[i]
		}
	}
	if spec == nil || spec.Status != "removed" || spec.Instead != "--speculative-config" || !strings.Contains(spec.When, "PR #15466") || spec.Source == "" {
		t.Errorf("--speculative-model: %+v", spec)
	}
	if n := report.GoneFlagsCount(kb, "dynamo"); n != 0 {
		t.Errorf("Dynamo has no run book, %d flags gone", n)
	}

	dir := t.TempDir()
	overlay := "[[flag]]\nid = \"vllm-speculative-model\"\nengine = \"vllm\"\nname = \"--speculative-model\"\neffect = \"e\"\nstatus = \"current\"\nin_course_notes = true\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	if err := os.WriteFile(filepath.Join(dir, "flags.toml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	over, err := knowledge.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := report.GoneFlagsCount(over, "vllm"), report.GoneFlagsCount(kb, "vllm")-1; got != want {
		t.Errorf("with --speculative-model current again: %d flags gone, want %d", got, want)
	}
	one, _ := report.CourseNoteChanges(over, "vllm")
	for _, g := range one[0].FlagsGone {
		if g.Flag == "--speculative-model" {
			t.Error("a current flag is listed as gone")
		}
	}

	if _, err := report.CourseNoteChanges(kb, "vlm"); err == nil || !strings.Contains(err.Error(), `did you mean "vllm"?`) {
		t.Errorf("unknown product: %v", err)
	}
	if none, _ := report.CourseNoteChanges(kb, "ray-serve"); len(none) != 1 || !strings.Contains(report.CourseNotesMarkdown(none), "Nothing recorded.") && len(none[0].Corrections) == 0 {
		t.Errorf("one product asked for is listed even with nothing to say: %+v", none)
	}
}

// The page in every format: text wraps within the width and cites short
// ids; Markdown holds one bullet per item; JSON keeps the full sources.
func TestCourseNotesRenderings(t *testing.T) {
	kb, _ := knowledge.Load("")
	changes, _ := report.CourseNoteChanges(kb, "")
	items := 0
	for _, pc := range changes {
		items += len(pc.Corrections) + len(pc.FlagsGone)
	}
	for _, w := range []int{60, 80, 120} {
		text := report.CourseNotesText(changes, report.NewStyles(true), w)
		for _, l := range strings.Split(text, "\n") {
			if cells := ansi.StringWidth(l); cells > w {
				t.Errorf("width %d: %d-cell line %q", w, cells, l)
			}
			if report.HasFullRef(l) || strings.Contains(l, "…") {
				t.Errorf("width %d: %q", w, l)
			}
		}
		if n := strings.Count(text, "source:"); n != items {
			t.Errorf("width %d: %d sources for %d items", w, n, items)
		}
	}
	mdText := report.CourseNotesMarkdown(changes)
	if n := strings.Count(mdText, "\n- "); n != items || report.HasFullRef(mdText) {
		t.Errorf("markdown: %d bullets for %d items", n, items)
	}
	var b bytes.Buffer
	if err := report.CourseNotesJSON(&b, changes); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Products []report.ProductChanges `json:"products"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Products) != len(changes) || !report.HasFullRef(b.String()) {
		t.Errorf("json: %v, %d products", err, len(back.Products))
	}
}
