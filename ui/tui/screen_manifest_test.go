package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report/manifest"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// newDeployDriver is newDriver with the version the files' headers name.
func newDeployDriver(t *testing.T, w, h int) *driver {
	t.Helper()
	kb := knowledge.MustDefault()
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	d := drive(t, New(kb, list, Options{Now: testNow, Version: "dev"}))
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// The single-node preset's result: l, down, r.
func (d *driver) singleNode() *driver { return d.press("l", "down", "r") }

// m on the result opens the files that deploy the stack: the list with
// each file's kind, what the selected one deploys, the placeholders, and
// the file's own text; ↓ selects the next file and shows its text. It
// fits 80x24, 120x40 and 40x12, matches its goldens, and its help names
// every key.
func TestManifestsScreenListsThePreviewsAndFits(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			d := newDeployDriver(t, sz.w, sz.h).singleNode()
			if !strings.Contains(d.view(), "m files") && sz.w >= 80 {
				t.Errorf("the result's help bar does not show m:\n%s", d.view())
			}
			d.press("m")
			s, ok := d.screen().(*manifestScreen)
			if !ok || s.set == nil {
				t.Fatalf("m should open the manifests screen with files:\n%s", d.view())
			}
			v := d.view()
			checkFits(t, v, sz.w, sz.h)
			for _, want := range []string{"▸ compose.yaml", "Compose file", "Deploys: one vLLM", "─ compose.yaml ", "# Compose file, written by"} {
				if !strings.Contains(v, want) {
					t.Errorf("the screen lacks %q:\n%s", want, v)
				}
			}
			d.golden(fmt.Sprintf("manifests-single-node-%dx%d", sz.w, sz.h))
			d.press("down")
			v = d.view()
			if !strings.Contains(v, "▸ docker-run.sh") || !strings.Contains(v, "#!/bin/sh") {
				t.Errorf("down should select docker-run.sh and show its text:\n%s", v)
			}
			d.press("down", "down", "down")
			if v = d.view(); !strings.Contains(v, "▸ MANIFESTS.md") || !strings.Contains(v, "# Deployable files for") {
				t.Errorf("the last file is the index, with its text:\n%s", v)
			}
			screentest.CheckHelpComplete(t, d.Driver, "manifests", sz.w, sz.h)
			d.press("q")
			if _, ok := d.screen().(*resultScreen); !ok {
				t.Errorf("q should go back to the result, not %s", d.screen().Title())
			}
		})
	}
}

// The preview scrolls through the whole file, and the list scrolls to the
// selected file when a small screen cannot show every row.
func TestManifestsPreviewScrollsTheWholeFile(t *testing.T) {
	d := newDeployDriver(t, 40, 12).singleNode().press("m")
	s := d.screen().(*manifestScreen)
	last := ""
	for _, l := range previewLines(s.files[0].Data, 40, func(s ...string) string { return strings.Join(s, "") }) {
		if strings.TrimSpace(l) != "" {
			last = l
		}
	}
	d.press("end")
	if v := d.view(); !strings.Contains(v, strings.TrimSpace(last)) || !strings.Contains(v, "100%") {
		t.Errorf("end should show the file's last line %q:\n%s", last, v)
	}
	d.press("down", "down")
	if v := d.view(); !strings.Contains(v, "▸ MANIFESTS.md") {
		t.Errorf("the list should scroll to the selected file:\n%s", v)
	}
}

// w writes the set to a folder: the files are those `stackpick manifest`
// writes (their headers name the command for that folder), the screen
// lists them, and a second write asks before replacing; no keeps them.
func TestManifestsScreenWritesTheSet(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out", "deploy")
			d := newDeployDriver(t, sz.w, sz.h).singleNode().press("m", "w", "ctrl+u").typeText(dir).press("enter")
			v := d.view()
			checkFits(t, v, sz.w, sz.h)
			if !strings.Contains(v, "✓ Wrote 3 files to") {
				t.Fatalf("after writing, the screen should say so:\n%s", v)
			}
			for _, name := range []string{"compose.yaml", "docker-run.sh", manifest.IndexPath} {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				text := strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(string(data), " \\\n# ", " "), "\n# ", " ")), " ")
				if name != manifest.IndexPath && !strings.Contains(text, "stackpick manifest --scenario single-node --out "+dir) {
					t.Errorf("%s does not name the command that writes it to %s", name, dir)
				}
			}
			d.press("enter")
			if _, ok := d.screen().(*manifestScreen); !ok {
				t.Fatalf("enter should go back to the files, not %s", d.screen().Title())
			}
			os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("mine\n"), 0o644)
			d.press("w", "ctrl+u").typeText(dir).press("enter")
			if v := d.view(); !strings.Contains(v, "Replace 3 files?") {
				t.Fatalf("a second write should ask first:\n%s", v)
			}
			d.press("n")
			if got, _ := os.ReadFile(filepath.Join(dir, "compose.yaml")); string(got) != "mine\n" {
				t.Error("no replaced the file")
			}
			if v := d.view(); !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(v, "┃", "")), " "), "Write the deployable files to the folder") {
				t.Errorf("no should give the folder prompt back:\n%s", v)
			}
		})
	}
}

// Written over another stack's set, the screen names that set's files the
// new one does not replace, and they stay as they were.
func TestManifestsScreenNamesTheFilesLeftFromAnEarlierSet(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "kserve"), 0o755)
			os.WriteFile(filepath.Join(dir, "kserve", "inferenceservice.yaml"), []byte("edited\n"), 0o644)
			os.WriteFile(filepath.Join(dir, manifest.IndexPath), []byte("# Deployable files\n\n| File | What it is | What it deploys |\n|---|---|---|\n| `kserve/inferenceservice.yaml` | InferenceService | two servers |\n"), 0o644)
			d := newDeployDriver(t, sz.w, sz.h).singleNode().press("m", "w", "ctrl+u").typeText(dir).press("enter")
			v := d.view()
			if !strings.Contains(v, "Replace") {
				t.Fatalf("the earlier set's index is in the way; the screen should ask:\n%s", v)
			}
			checkFits(t, v, sz.w, sz.h)
			if flat := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(v), "┃", " ")), " "); !strings.Contains(flat, "1 file of the earlier set stays either way") {
				t.Errorf("the question does not say the earlier set's file stays:\n%s", v)
			}
			d.press("y")
			lines := d.screen().(*manifestWriteScreen).writtenLines()
			all := strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, " "))), " ")
			if !strings.Contains(all, "Left from the set written here before, not part of this one") || !strings.Contains(all, "kserve/inferenceservice.yaml") {
				t.Errorf("the written screen does not name the file left from the earlier set:\n%s", strings.Join(lines, "\n"))
			}
			checkFits(t, d.view(), sz.w, sz.h)
			if got, _ := os.ReadFile(filepath.Join(dir, "kserve", "inferenceservice.yaml")); string(got) != "edited\n" {
				t.Error("the earlier set's file was changed")
			}
			index, _ := os.ReadFile(filepath.Join(dir, manifest.IndexPath))
			if got := manifest.Listed(index); !slices.Contains(got, "kserve/inferenceservice.yaml") || !slices.Contains(got, "compose.yaml") {
				t.Errorf("the new index lists %q", got)
			}
		})
	}
}

// A stack no writer covers says why, not an empty screen.
func TestManifestsScreenSaysWhyThereAreNoFiles(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		d := newDeployDriver(t, sz.w, sz.h).press("l", "down", "down", "down", "down", "down", "down", "down", "r", "m") // last-15-percent: TensorRT-LLM under Dynamo
		v := d.view()
		checkFits(t, v, sz.w, sz.h)
		s, ok := d.screen().(*manifestScreen)
		if !ok || s.set != nil || s.why == "" {
			t.Fatalf("m on last-15-percent should open the screen with a reason:\n%s", v)
		}
		if !strings.Contains(v, "No deployable files for this stack.") || !strings.Contains(strings.Join(strings.Fields(v), " "), strings.Join(strings.Fields(s.why), " ")[:20]) {
			t.Errorf("the screen does not give the reason %q:\n%s", s.why, v)
		}
		d.golden(fmt.Sprintf("manifests-not-covered-%dx%d", sz.w, sz.h))
		d.press("q")
		if _, ok := d.screen().(*resultScreen); !ok {
			t.Errorf("q should go back to the result")
		}
	}
}

// Resized through a sweep of sizes, the screen fits every one.
func TestManifestsScreenFitsEverySize(t *testing.T) {
	d := newDeployDriver(t, 80, 24).singleNode().press("m", "down")
	for w := 30; w <= 165; w += 15 {
		for h := 8; h <= 53; h += 9 {
			d.resize(w, h)
			checkFits(t, d.view(), w, h)
		}
	}
}

// No byte of a file reaches the terminal as a control character.
func TestManifestsPreviewShowsNoControlCharacters(t *testing.T) {
	got := strings.Join(previewLines([]byte("a\x1b[2Jb\tc\x07\n  indented line that is long"), 12, func(s ...string) string { return strings.Join(s, "") }), "\n")
	if strings.ContainsAny(got, "\x1b\x07\t") {
		t.Errorf("control characters reach the preview: %q", got)
	}
	if !strings.Contains(got, "   indented") {
		t.Errorf("indentation is lost: %q", got)
	}
}

// An empty folder is refused on the screen, with what to type.
func TestManifestsWriteRefusesAnEmptyFolder(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		d := newDeployDriver(t, sz.w, sz.h).singleNode().press("m", "w", "ctrl+u", "enter")
		if _, ok := d.screen().(*manifestWriteScreen); !ok {
			t.Fatalf("%dx%d: an empty folder left the prompt:\n%s", sz.w, sz.h, d.view())
		}
		v := d.view()
		checkFits(t, v, sz.w, sz.h)
		if !strings.Contains(v, "Enter a folder, for example deploy.") || !strings.Contains(v, "> ") {
			t.Errorf("%dx%d: an empty folder is not explained beside its field:\n%s", sz.w, sz.h, v)
		}
	}
}
