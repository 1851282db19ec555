package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

var (
	fullCommitID = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	seedWord     = regexp.MustCompile(`(?i)\bseed`)
)

// Every product's page, at 80 and 120 columns, cites sources in its body
// by short commit ids (full ones only under Sources) and never calls the
// course notes "seed".
func TestProductPagesCiteShortIDsAndNeverSaySeed(t *testing.T) {
	d := newDriver(t, 80, 24)
	for _, p := range d.m.c.KB.Products {
		for _, w := range []int{80, 120} {
			secs := productSections(d.m.c, p, w-1, true)
			found := false
			for _, sec := range secs {
				for _, l := range append([]string{sec.title}, sec.lines...) {
					l = ansi.Strip(l)
					if seedWord.MatchString(l) {
						t.Errorf("%s at %d columns, %s: says seed: %q", p.ID, w, sec.title, l)
					}
					if sec.title != "Sources" && fullCommitID.MatchString(l) {
						t.Errorf("%s at %d columns, %s: a full commit id in body text: %q", p.ID, w, sec.title, l)
					}
				}
				found = found || sec.title == report.CourseNotesTitle
			}
			if p.ID == "vllm" && !found {
				t.Errorf("vLLM's page has no %q section", report.CourseNotesTitle)
			}
		}
	}
}

// The browser's preview of every product, at 80×24 and 120×40, wraps or
// leaves a block out: no word is cut with "…".
func TestBrowserPreviewsNeverCutWords(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		d := newDriver(t, sz.w, sz.h)
		d.press("b")
		b := d.screen().(*browserScreen)
		for range b.order() {
			v := d.view()
			if strings.Contains(v, "…") {
				t.Errorf("%dx%d, %s selected: a line is cut with …:\n%s", sz.w, sz.h, b.sel, v)
			}
			if !strings.Contains(v, d.m.c.KB.Product(b.sel).Name+" · ") {
				t.Errorf("%dx%d: no preview of %s:\n%s", sz.w, sz.h, b.sel, v)
			}
			d.press("right")
		}
	}
}

// The filter says which field matched: a flag name matches its engine by
// flag, a product name by name, and the preview shows the matching item.
func TestBrowserFilterSaysWhichFieldMatched(t *testing.T) {
	for _, c := range []struct{ q, sel, where string }{
		{"--max-loras", "vllm", "flag"},
		{"llama.cpp", "llama-cpp", "name"},
		{"orchestrator", "dynamo", "layer"},
	} {
		d := newDriver(t, 120, 40)
		d.press("b", "/").typeText(c.q)
		b := d.screen().(*browserScreen)
		first := strings.SplitN(d.view(), "\n", 3)[1]
		d.press("enter") // the filter stays; the arrows move between matches
		for range b.order() {
			if b.sel == c.sel {
				break
			}
			d.press("right")
		}
		v := d.view()
		if !strings.Contains(first, " · in ") || !strings.Contains(first, c.where) {
			t.Errorf("filter %q: the filter line does not say it matched in %s: %q", c.q, c.where, first)
		}
		said := ""
		for _, l := range strings.Split(v, "\n") {
			if strings.HasPrefix(l, `matches "`+c.q+`" in: `) {
				said = l
			}
		}
		if b.sel != c.sel || !strings.Contains(said, c.where) {
			t.Errorf("filter %q: selected %s (want %s), its preview says %q, want the field %s:\n%s", c.q, b.sel, c.sel, said, c.where, v)
		}
	}
}

// "What changed since the course notes" opens from the browser on every
// product, from a product's page on that product, and ←/→ steps through
// them.
func TestChangesPageOpensFromBrowserAndProduct(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("b", "w")
	if got := d.screen().Title(); got != report.CourseNotesTitle {
		t.Fatalf("w opened %q", got)
	}
	v := d.view()
	for _, want := range []string{"'Engines as Products'", "vLLM · ", "the course notes:", "now:", "source:"} {
		if !strings.Contains(v, want) {
			t.Errorf("changes page lacks %q:\n%s", want, v)
		}
	}
	d.press("right")
	if got := d.screen().Title(); got != report.CourseNotesTitle+" · vLLM" {
		t.Errorf("→ shows %q", got)
	}
	d.press("left")
	if got := d.screen().Title(); got != report.CourseNotesTitle {
		t.Errorf("← back shows %q", got)
	}
	d.press("q", "down", "down", "enter", "w")
	if got := d.screen().Title(); got != report.CourseNotesTitle+" · vLLM" {
		t.Errorf("w on vLLM's page opened %q", got)
	}
	d.press("q")
	if got := d.screen().Title(); got != "Knowledge · vLLM" {
		t.Errorf("back from the changes page went to %q", got)
	}
	// The result screen opens it on the picked engine.
	s := newChangesScreen(d.m.c, "sglang")
	s.SetSize(80, 20)
	if !strings.Contains(s.Title(), "SGLang") || !strings.Contains(ansi.Strip(s.View()), "--enable-radix-cache") {
		t.Errorf("newChangesScreen(sglang): %q\n%s", s.Title(), ansi.Strip(s.View()))
	}
}
