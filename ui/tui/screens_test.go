package tui

import (
	"fmt"
	"strings"
	"testing"
)

// journeys are the ways a user reaches each screen, as key presses from
// the home screen. Each is rendered at every golden size.
var journeys = []struct {
	name string
	keys func(d *driver)
}{
	{"home", func(d *driver) {}},
	{"help", func(d *driver) { d.press("?") }},
	{"scenarios", func(d *driver) { d.press("l") }},
	{"form-fleet", func(d *driver) { d.press("n") }},
	{"form-platform", func(d *driver) { d.press("n", "pgdown", "pgdown", "pgdown") }},
	{"form-help", func(d *driver) { d.press("n", "?") }},
	{"form-scenario", func(d *driver) { d.press("l", "enter", "pgdown") }},
	{"result-exit-test", func(d *driver) { d.press("l", "r") }},
	{"result-help", func(d *driver) { d.press("l", "r", "?") }},
	{"result-orchestrator", func(d *driver) { d.press("l", "r", "tab", "tab", "tab") }},
	{"result-section-open", func(d *driver) { d.press("l", "r", "tab", "enter") }},
	{"result-launch-command", func(d *driver) { d.press("l", "r", "o").scrollTo("Launch command") }},
	{"result-arithmetic", func(d *driver) { d.press("l", "r", "o").scrollTo("The arithmetic behind it") }},
	{"result-launch-not-covered", func(d *driver) {
		d.press("l", "up", "up", "r", "o").scrollTo("Launch command") // last-15-percent: TensorRT-LLM
	}},
	{"result-launch-llamacpp", func(d *driver) {
		d.press("l", "up", "r", "o").scrollTo("Launch command") // cpu-box: llama.cpp on a CPU
	}},
	{"launch-plain", func(d *driver) { d.press("l", "r", "l") }},
	{"launch-plain-roles", func(d *driver) { d.press("l", "down", "down", "down", "r", "l") }}, // nvidia-fleet: prefill and decode
	{"open", func(d *driver) { d.press("o").typeText("testdata/no-such-answers.toml").press("enter") }},
	{"result-course-notes", func(d *driver) { d.press("l", "r", "n") }},
	{"result-trace", func(d *driver) { d.press("l", "r", "t", "tab", "enter") }},
	{"diff-exit-test-one-node", func(d *driver) {
		d.press("l", "r", "p", "e", "home", "enter", "backspace").typeText("1").press("enter", "d") // A beside B
	}},
	{"answers", func(d *driver) { d.press("l", "r", "e") }},
	{"edit-fine-tune-method", func(d *driver) { d.press("l", "r").editAnswer("fine_tune_method").press("down") }},
	{"edit-other-model-types", func(d *driver) { d.press("l", "r").editAnswer("other_model_types").press("down", "space") }},
	{"save", func(d *driver) { d.press("l", "r", "s") }},
	{"export-about", func(d *driver) { d.press("l", "r", "x") }},
	{"export-path", func(d *driver) { d.press("l", "r", "x", "ctrl+s") }},
	{"export-preview", func(d *driver) { d.press("l", "r", "x", "ctrl+s", "enter") }},
	{"export-preview-launch", func(d *driver) {
		d.press("l", "r", "x", "ctrl+s", "enter").scrollTo("Engine settings")
	}},
	{"export-preview-capacity", func(d *driver) {
		d.press("l", "r", "x", "ctrl+s", "enter").scrollTo("Capacity arithmetic")
	}},
	{"export-replace", func(d *driver) {
		// testdata/existing-memo.md exists: the export asks before replacing it.
		d.press("l", "r", "x", "ctrl+s", "ctrl+u").typeText("testdata/existing-memo.md").press("enter", "enter")
	}},
	{"browser", func(d *driver) { d.press("b") }},
	{"browser-filter", func(d *driver) { d.press("b", "/").typeText("lora") }},
	{"product-vllm", func(d *driver) { d.press("b", "down", "down") }},
	{"product-detail", func(d *driver) { d.press("b", "down", "down", "enter") }},
	{"product-changes", func(d *driver) { d.press("b", "down", "down", "enter").scrollTo("What changed") }},
	{"changes", func(d *driver) { d.press("b", "w") }},
	{"changes-sglang", func(d *driver) { d.press("b", "w", "right", "right") }},
	{"changes-from-product", func(d *driver) { d.press("b", "down", "down", "enter", "w") }},
	{"compare-dynamo-llm-d", func(d *driver) { d.press("b", "c", "right", "c", "enter") }},
	{"compare-vllm-sglang", func(d *driver) { d.press("b", "down", "down", "c", "right", "c", "enter") }},
	{"compare-dynamo-dynamo-triton", func(d *driver) { d.press("b", "c", "down", "c", "enter") }},
}

var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}, {40, 12}}

// Every screen at 80x24, 120x40 and 40x12 matches its golden file and
// fits the terminal exactly.
func TestScreensGolden(t *testing.T) {
	for _, j := range journeys {
		for _, sz := range goldenSizes {
			name := fmt.Sprintf("%s-%dx%d", j.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				d := newDriver(t, sz.w, sz.h)
				j.keys(d)
				checkFits(t, d.view(), sz.w, sz.h)
				d.golden(name)
			})
		}
	}
}

// Every screen survives being resized through a sweep of sizes, down to
// 30x8 and past 160 columns, and is re-laid out to fit each one.
func TestScreensResize(t *testing.T) {
	for _, j := range journeys {
		t.Run(j.name, func(t *testing.T) {
			d := newDriver(t, 80, 24)
			j.keys(d)
			before := d.screen()
			for w := 30; w <= 165; w += 15 {
				for h := 8; h <= 53; h += 9 {
					d.resize(w, h)
					checkFits(t, d.view(), w, h)
				}
			}
			d.resize(80, 24)
			if d.screen() != before {
				t.Errorf("resizing changed the screen from %s to %s", before.Title(), d.screen().Title())
			}
		})
	}
}

// Below the smallest usable size the app says so instead of drawing a
// broken screen.
func TestTooSmall(t *testing.T) {
	d := newDriver(t, 20, 5)
	if v := d.view(); !strings.Contains(v, "40×12") {
		t.Errorf("tiny terminal: %q", v)
	}
}

// scrollTo presses down until a line starting with heading (inside a card's
// border, or indented) is the first line under the screen's top line, as a
// user scrolls to it.
func (d *driver) scrollTo(heading string) *driver {
	d.t.Helper()
	for range 3000 {
		ls := strings.Split(d.view(), "\n")
		if len(ls) > 2 && strings.HasPrefix(strings.TrimLeft(ls[2], "│ "), heading) {
			return d
		}
		d.press("down")
	}
	d.t.Fatalf("scrolled 3000 lines without reaching %q:\n%s", heading, d.view())
	return d
}

// editAnswer opens the answers list and the editor of the answer key, as a
// user moves the cursor to it.
func (d *driver) editAnswer(key string) *driver {
	d.t.Helper()
	d.press("e", "home")
	for range 100 {
		s, ok := d.screen().(*answersScreen)
		if !ok {
			d.t.Fatalf("looking for %s: not on the answers list but %q", key, d.screen().Title())
		}
		if s.qs[s.cursor].Key == key {
			return d.press("enter")
		}
		d.press("down")
	}
	d.t.Fatalf("the answers list has no %s", key)
	return d
}
