package tui

import (
	"strings"
	"testing"
)

// Pin the exit test's decision as A, change one answer (four nodes to
// one, which drops the orchestrator), and d shows A beside B: both stacks,
// the answer that moved, and the layer it moved.
func TestPinChangeAnAnswerAndSeeABesideB(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		d := newDriver(t, sz.w, sz.h)
		d.press("l", "r", "p")
		if v := d.view(); !strings.Contains(v, "Pinned as A") || !strings.Contains(strings.Split(v, "\n")[0], "A pinned") {
			t.Fatalf("%dx%d: p should pin and the header say so:\n%s", sz.w, sz.h, v)
		}
		d.press("e", "home", "enter", "backspace").typeText("1").press("enter")
		d.press("d")
		if _, ok := d.screen().(*diffScreen); !ok {
			t.Fatalf("%dx%d: d should open A beside B, got %q:\n%s", sz.w, sz.h, d.screen().Title(), d.view())
		}
		v := d.view()
		checkFits(t, v, sz.w, sz.h)
		for _, want := range []string{"A · B", "A · pinned", "B · now", "vLLM · no model server · llm-d", "no orchestrator", "nodes", "ORCHESTRATOR"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: A beside B does not show %q:\n%s", sz.w, sz.h, want, v)
			}
		}
		if side := strings.Contains(v, "│ B · now"); side != (sz.w >= 100) {
			t.Errorf("%dx%d: side by side = %v:\n%s", sz.w, sz.h, side, v)
		}
		d.press("esc")
		if _, ok := d.screen().(*resultScreen); !ok {
			t.Errorf("%dx%d: esc should go back to the result, got %q", sz.w, sz.h, d.screen().Title())
		}
	}
}

// p again on the same answers unpins; on other answers it re-pins; the
// status says which. d with nothing pinned says what to do first.
func TestPinAgainUnpinsOrRepins(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "d")
	if _, ok := d.screen().(*resultScreen); !ok || !strings.Contains(d.view(), "Nothing is pinned") {
		t.Fatalf("d with nothing pinned should stay and say so:\n%s", d.view())
	}
	d.press("p", "p")
	if v := d.view(); !strings.Contains(v, "Unpinned A") || d.m.c.session.pinned != nil || strings.Contains(strings.Split(v, "\n")[0], "A pinned") {
		t.Fatalf("p twice on the same answers should unpin:\n%s", v)
	}
	d.press("p", "e", "home", "enter", "backspace").typeText("1").press("enter", "p")
	if v := d.view(); !strings.Contains(v, "Re-pinned A") {
		t.Fatalf("p on other answers should re-pin:\n%s", v)
	}
	if got := d.m.c.session.pinned.answers.Get("nodes").Int; got != 1 {
		t.Errorf("the re-pinned A has nodes = %d, want 1", got)
	}
	// Identical A and B say so.
	d.press("d")
	if v := d.view(); !strings.Contains(v, "same decision") {
		t.Errorf("A beside an unchanged B should say they are the same:\n%s", v)
	}
}

// A pinned decision outlives starting another preset, so two presets can
// be compared.
func TestThePinOutlivesAnotherPreset(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("l", "r", "p", "esc", "esc")
	d.press("l", "down", "r", "d")
	v := d.view()
	if _, ok := d.screen().(*diffScreen); !ok {
		t.Fatalf("d after another preset should show A beside B, got %q:\n%s", d.screen().Title(), v)
	}
	if !strings.Contains(v, "The exit test") || !strings.Contains(v, "One node, one model") {
		t.Errorf("A should be the exit test and B the single node:\n%s", v)
	}
}

// Pinning a decision on the result screen at 120x40: Update and View of
// the key press (pin, then unpin), under the 5 ms promise.
func BenchmarkPinKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	keyBench(b, d, "p")
}

// Opening A beside B at 120x40: the diff is built from the two traces and
// laid out, then drawn.
func BenchmarkDiffOpen(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r", "p", "e", "home", "enter", "backspace").typeText("1").press("enter")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.press("d")
		_ = d.m.View()
		d.press("esc")
	}
}

// B, with answers changed from the preset, is labelled with what changed,
// not with the preset's title alone; the memo's pinned heading says
// "pinned" once; the About step does not prefill the preset's title.
func TestPinnedAndChangedDecisionsAreLabelledHonestly(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("l", "r", "p", "e", "home", "enter", "backspace").typeText("1").press("enter")
	d.press("d")
	ds := d.screen().(*diffScreen)
	if !strings.HasSuffix(ds.diff.B.Label, "(changed: nodes)") || strings.Contains(ds.diff.A.Label, "changed") {
		t.Errorf("labels: A %q, B %q", ds.diff.A.Label, ds.diff.B.Label)
	}
	d.press("esc", "x")
	about := d.screen().(*exportScreen)
	if strings.HasPrefix(about.about.title, "The exit test") {
		t.Errorf("the About step prefills the preset's title for changed answers: %q", about.about.title)
	}
	d.press("ctrl+s")
	if strings.Contains(about.memo, "pinned · ") || !strings.Contains(about.memo, "### The pinned alternative: The exit test") {
		i := strings.Index(about.memo, "pinned alternative")
		t.Errorf("pinned heading: %q", about.memo[max(i-10, 0):min(i+120, len(about.memo))])
	}
}
