package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// After saving, the screen gives the command that replays the answers and
// the file it wrote, both whole however long the path: wrapped at its
// spaces and after a /, never cut, at 80x24 and at 40x12; c copies the
// command, enter goes back to the decision.
func TestSavedScreenGivesTheWholeReplayCommand(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			// 45 characters and more below the temporary folder, whatever
			// its own length: longer than a 40-column line.
			dir := filepath.Join(t.TempDir(), "decisions-of-the-platform-team")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "exit-test-four-h200-nodes.toml")
			d := newDriver(t, sz.w, sz.h)
			d.press("l", "r", "s", "ctrl+u").typeText(path).press("enter")
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("not saved: %v\n%s", err, d.view())
			}
			view := d.view()
			checkFits(t, view, sz.w, sz.h)
			if header := strings.TrimSpace(strings.Split(view, "\n")[0]); header != "stackpick › Answers saved" {
				t.Errorf("a 45-character path should need no scrolling:\n%s", view)
			}
			want := "stackpick decide --answers " + path
			if got := rejoin(block(view, "Replay this decision with"), want); got != want {
				t.Errorf("the replay command is not whole on the screen:\n got %q\nwant %q\n%s", got, want, view)
			}
			if sz.h >= 24 {
				if got := rejoin(block(view, "✓ Saved to"), path); got != path {
					t.Errorf("the saved path is not whole on the screen:\n got %q\nwant %q\n%s", got, path, view)
				}
			}
			screentest.CheckHelpComplete(t, d.Driver, "saved", sz.w, sz.h)
			s, ok := d.screen().(*saveScreen)
			if !ok {
				t.Fatalf("saving should stay on the saved screen, got %s:\n%s", d.screen().Title(), view)
			}
			cmd := s.Update(keyMsg("c"))
			if cmd == nil || !reflect.DeepEqual(cmd(), tea.SetClipboard(want)()) {
				t.Errorf("c should put the replay command on the clipboard")
			}
			d.press("enter")
			if _, ok := d.screen().(*resultScreen); !ok {
				t.Fatalf("enter should go back to the decision:\n%s", d.view())
			}
			if v := d.view(); !strings.Contains(v, "Saved exit-test-four-h200-nodes.toml") {
				t.Errorf("back at the decision, the status should name the file saved:\n%s", v)
			}
		})
	}
}

// With a knowledge overlay the replay command is longer (it names the
// overlay's folder, quoted): still whole at 40x12, scrolled through when
// it is longer than the screen.
func TestSavedScreenGivesTheWholeReplayCommandWithTheOverlay(t *testing.T) {
	dir := t.TempDir()
	kbDir := filepath.Join(dir, "the platform team's kb")
	if err := os.MkdirAll(kbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kbDir, "gpus.toml"), []byte(overlayGPU), 0o644); err != nil {
		t.Fatal(err)
	}
	kb, err := knowledge.Load(kbDir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	d := drive(t, New(kb, list, Options{Now: testNow, KBDir: kbDir}))
	d.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	path := filepath.Join(dir, "lab.toml")
	d.press("l", "r", "s", "ctrl+u").typeText(path).press("enter")
	checkFits(t, d.view(), 40, 12)
	want := replayCommand(kbDir, path)
	if !strings.Contains(want, "--kb '") {
		t.Fatalf("the overlay's folder should be quoted: %q", want)
	}
	text := scrolled(d)
	checkFits(t, d.view(), 40, 12)
	if got := rejoin(block(text, "Replay this decision with"), want); got != want {
		t.Errorf("the replay command is not whole on the screen:\n got %q\nwant %q\n%s", got, want, text)
	}
}

// The saved screen fits every size it is resized to, down to 40x12, with
// the replay command whole at each.
func TestSavedScreenResizes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a-name-long-enough-to-need-a-second-line.toml")
	d := newDriver(t, 80, 24)
	d.press("l", "r", "s", "ctrl+u").typeText(path).press("enter")
	want := "stackpick decide --answers " + path
	for w := 30; w <= 165; w += 15 {
		for h := 8; h <= 53; h += 9 {
			d.resize(w, h)
			checkFits(t, d.view(), w, h)
			if w < 40 || h < 12 {
				continue // the frame asks for a bigger window
			}
			text := scrolled(d)
			if got := rejoin(block(text, "Replay this decision with"), want); got != want {
				t.Errorf("%dx%d: the replay command is not whole:\n got %q\nwant %q\n%s", w, h, got, want, text)
			}
			d.press("home")
		}
	}
}

// scrolled is every line of the screen's body, scrolled through with
// ↓ to its end as a user would read it, one view's lines joined by "\n".
func scrolled(d *driver) string {
	body := func() []string {
		ls := strings.Split(d.view(), "\n")
		return ls[1 : len(ls)-1] // header, footer
	}
	seen := body()
	for range 100 {
		before := d.view()
		d.press("down")
		if d.view() == before {
			break
		}
		b := body()
		seen = append(seen, b[len(b)-1])
	}
	return strings.Join(seen, "\n")
}

// block is the lines under the line that reads heading, up to the next
// blank line.
func block(text, heading string) []string {
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		if strings.TrimSpace(l) != heading {
			continue
		}
		var out []string
		for _, l := range ls[i+1:] {
			if strings.TrimSpace(l) == "" {
				break
			}
			out = append(out, l)
		}
		return out
	}
	return nil
}

// rejoin joins wrapped lines back into the text want they should hold: a
// line break stands for a space where want has one, else for nothing (a
// path broken after a /). Anything cut, added or out of order shows as a
// difference from want.
func rejoin(lines []string, want string) string {
	got := ""
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(want, got); i > 0 && ok && strings.HasPrefix(rest, " ") {
			got += " "
		}
		got += strings.TrimSpace(l)
	}
	return got
}
