package drills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The drills menu shows a history path longer than the screen once: whole
// (wrapped) where the menu has room for it, else on one line cut in the
// middle, its start and its file name kept, never cut twice.
func TestDrillsMenuShowsALongHistoryPathOnce(t *testing.T) {
	// 45 characters and more below the temporary folder, whatever its own
	// length.
	dir := filepath.Join(t.TempDir(), "the-drill-history-of-the-platform-team")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(dir, "history.json")
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {40, 24}, {60, 20}, {30, 26}, {40, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			e := newDrillEnvAt(t, sz.w, sz.h, "", hist)
			e.press("d")
			v := e.view()
			checkFits(t, v, sz.w, sz.h)
			if n := strings.Count(v, "history.json"); n != 1 {
				t.Fatalf("the history's file name shows %d times, want once:\n%s", n, v)
			}
			var shown []string
			for _, l := range strings.Split(v, "\n") {
				shown = append(shown, strings.TrimSpace(l))
			}
			text := strings.Join(shown, "")
			if strings.Contains(text, "Results are kept in"+hist) {
				return // whole, wrapped
			}
			// Cut on one line: a start of the path, "…", its file name.
			for _, l := range shown {
				l = strings.TrimPrefix(l, "Results are kept in ")
				head, tail, ok := strings.Cut(l, "…")
				if !strings.Contains(tail, "history.json") {
					continue
				}
				if !ok || tail != "/history.json" || len(head) < 5 || !strings.HasPrefix(hist, head) {
					t.Errorf("the path should be cut in the middle keeping its start and file name: %q\n%s", l, v)
				}
				return
			}
		})
	}
}

// cutMiddle keeps a path's start and file name within n cells, and never
// runs past n however small n is.
func TestCutMiddle(t *testing.T) {
	for _, tc := range []struct {
		path string
		n    int
		want string
	}{
		{"/srv/h.json", 20, "/srv/h.json"},
		{"/home/ana/.local/state/stackpick/history.json", 30, "/home/ana/.local…/history.json"},
		{"/home/ana/.local/state/stackpick/history.json", 14, "…/history.json"},
		{"/home/ana/.local/state/stackpick/history.json", 8, "…ry.json"},
		{"a-very-long-history-file-name.json", 12, "…e-name.json"},
		{"/srv/h.json", 1, "…"},
		{"/srv/h.json", 0, ""},
	} {
		got := cutMiddle(tc.path, tc.n)
		if got != tc.want {
			t.Errorf("cutMiddle(%q, %d) = %q, want %q", tc.path, tc.n, got, tc.want)
		}
	}
}
