package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// benchDriver is a driver for benchmarks: no command is run, so a key
// press costs exactly Update plus View.
func keyBench(b *testing.B, d *driver, keys ...string) {
	msgs := make([]tea.Msg, len(keys))
	for i, k := range keys {
		msgs[i] = keyMsg(k)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		d.m.Update(msgs[i%len(msgs)])
		_ = d.m.View()
	}
}

// A key press on the result screen at 120x40 (scrolling through the cards
// of the exit test): the promise is under 5 ms.
func BenchmarkResultKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	keyBench(b, d, "down", "down", "tab", "up", "up", "shift+tab")
}

// Opening the result on its summary at 120x40: deciding is done, this is
// wording the decision, laying the summary and the sections out and the
// first frame. The promise is under 5 ms.
func BenchmarkSummaryOpen(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.press("r")
		_ = d.m.View()
		d.press("esc")
	}
}

// Opening and closing a section of the result at 120x40 (the engine's
// why): the promise is under 5 ms of Update plus View.
func BenchmarkSectionToggle(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r", "tab")
	keyBench(b, d, "enter")
}

// Changing an answer from the result view: the edit screen re-decides on
// every move of the cursor and redraws the live stack beside the form.
func BenchmarkEditKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r", "e", "home", "down", "down", "enter")
	keyBench(b, d, "down", "up")
}

// A key press in the questionnaire (moving through a menu re-decides).
func BenchmarkFormKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("n", "pgdown", "pgdown")
	keyBench(b, d, "down", "up")
}

// After an answer changed, the result view lays its cards out again.
func BenchmarkResultRelayout(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	s := d.screen().(*resultScreen)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.m.c.session.version++
		s.relayout()
		_ = d.m.View()
	}
}

// Resizing the questionnaire rebuilds the form at the new size.
func BenchmarkFormResize(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("n", "pgdown", "pgdown", "pgdown")
	sizes := []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 120, Height: 40}}
	b.ResetTimer()
	for i := range b.N {
		d.m.Update(sizes[i%2])
		_ = d.m.View()
	}
}

// What stands between process start and the first frame, minus the Go
// runtime: load the knowledge base, parse the scenarios, build the app,
// draw the home screen.
func BenchmarkFirstFrame(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		kb, err := knowledge.Load("")
		if err != nil {
			b.Fatal(err)
		}
		list, err := scenarios.All(kb)
		if err != nil {
			b.Fatal(err)
		}
		m := New(kb, list, Options{})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		_ = m.View()
	}
}

// Scrolling the memo preview at 120x40: laid out once, so a key press is a
// scroll, like the result view.
func BenchmarkMemoPreviewKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r", "x", "ctrl+s", "enter")
	keyBench(b, d, "down", "down", "pgdown", "up", "up", "pgup")
}

// Opening the export: rendering the memo and laying out its preview.
func BenchmarkMemoPreviewOpen(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("l", "r")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.press("x", "ctrl+s", "enter")
		_ = d.m.View()
		d.press("esc", "esc")
	}
}
