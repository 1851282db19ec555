package tui

import "testing"

// Moving through the browser with a filter typed: every key matches every
// product's fields again and redraws the preview.
func BenchmarkBrowserFilteredKeypress(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("b", "/").typeText("prefix").press("enter")
	keyBench(b, d, "right", "right", "left", "down", "up")
}

// Stepping through "What changed since the course notes" product by
// product lays the page out again on each step.
func BenchmarkChangesStep(b *testing.B) {
	d := newDriver(b, 120, 40)
	d.press("b", "w")
	keyBench(b, d, "right", "right", "left")
}
