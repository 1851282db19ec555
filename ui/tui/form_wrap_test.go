package tui

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// "Why it matters" wraps at spaces only, as every other text of the app:
// no "first-" / "class" split after a hyphen, no "needs;" left alone on a
// line while the next words would fit beside it.
func TestWhyItMattersWrapsEvenly(t *testing.T) {
	kb, _ := loadKB(t)
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		for _, p := range questionPages(kb) {
			for _, q := range p.questions {
				d := newDriver(t, sz.w, sz.h)
				d.press("l", "r").editAnswer(q.Key)
				s := d.screen().(*editScreen)
				fw, _ := s.formSize()
				want := report.Wrap("Why it matters: "+q.Why, fw-2, 0, 0)
				lines := strings.Split(d.view(), "\n")
				at := -1
				for i, l := range lines {
					if strings.HasPrefix(strings.TrimPrefix(l, "┃ "), "Why it matters:") {
						at = i
						break
					}
				}
				if at < 0 && q.Type == knowledge.TypeList && sz.h < 24 {
					continue // the why gives way to the items on a short terminal
				}
				if at < 0 {
					t.Errorf("%dx%d %s: no why shown:\n%s", sz.w, sz.h, q.Key, d.view())
					continue
				}
				for i, w := range want {
					if at+i >= len(lines)-2 {
						break // the rest is below the fold
					}
					got := strings.TrimRight(strings.TrimPrefix(lines[at+i], "┃ "), " ")
					if got != w {
						t.Errorf("%dx%d %s: why line %d is %q, want %q", sz.w, sz.h, q.Key, i+1, got, w)
						break
					}
				}
			}
		}
	}
}
