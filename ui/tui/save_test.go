package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// After saving, the screen gives the command that replays the answers and
// the file it wrote, both whole however long the path: wrapped at its
// spaces and after a /, never cut, at 80x24 and at 40x12; the first line
// says it is saved, the command is whole on the first screen, and the file
// in full is there too, if need be by scrolling (at 40x12 "✓ Saved to"
// could not be reached); c copies the command, enter goes back to the
// decision.
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
			first := ""
			for _, l := range strings.Split(view, "\n")[1:] {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "Stack: ") {
					first = l
					break
				}
			}
			if !strings.HasPrefix(first, "✓ Saved") {
				t.Errorf("the first line should say the answers are saved, not %q:\n%s", first, view)
			}
			want := "stackpick decide --answers " + path
			if got := rejoin(block(view, "Replay this decision with"), want); got != want {
				t.Errorf("the replay command is not whole on the screen:\n got %q\nwant %q\n%s", got, want, view)
			}
			text := view
			if sz.h < 24 {
				text = scrolled(d)
			}
			if got := rejoin(block(text, "✓ Saved to"), path); got != path {
				t.Errorf("the saved path is not whole on the screen:\n got %q\nwant %q\n%s", got, path, text)
			}
			d.press("home")
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
	kb, list := withOverlay(t, kbDir)
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

// The save form's hint gives the replay command broken only at its spaces
// and after a /: at 40 columns it broke --kb (and --answers) after the
// first hyphen.
func TestTheSaveFormNeverBreaksAFlag(t *testing.T) {
	dir := t.TempDir()
	kbDir := filepath.Join(dir, "kb overlay with spaces")
	kb, list := withOverlay(t, kbDir)
	for _, sz := range goldenSizes {
		for _, kbd := range []string{"", kbDir} {
			d := drive(t, New(kb, list, Options{Now: testNow, KBDir: kbd}))
			d.send(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			d.press("l", "r", "s")
			view := d.view()
			checkFits(t, view, sz.w, sz.h)
			var hint []string
			input := false
			for _, l := range strings.Split(view, "\n") {
				l = strings.TrimRight(strings.TrimPrefix(strings.TrimSpace(l), "┃ "), " ")
				if strings.HasSuffix(l, "-") {
					t.Errorf("%dx%d: a line of the form ends in a hyphen: %q\n%s", sz.w, sz.h, l, view)
				}
				if strings.HasPrefix(l, ">") {
					input = true
					break
				}
				if strings.HasPrefix(l, "stackpick decide") || len(hint) > 0 {
					hint = append(hint, l)
				}
			}
			if !input {
				t.Errorf("%dx%d: the input is not on the screen:\n%s", sz.w, sz.h, view)
			}
			want := replayCommand(kbd, "FILE")
			if got := rejoin(hint, want); kbd != "" && sz.h < 24 && got != want {
				// A long overlay path leaves no room for the input: the
				// command's shape is given, the path after saving.
				want = "stackpick decide --kb KB_FOLDER --answers FILE"
			}
			if got := rejoin(hint, want); got != want {
				t.Errorf("%dx%d: the hint's command is %q, want %q\n%s", sz.w, sz.h, got, want, view)
			}
		}
	}
}
