package tui

import (
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// exportTo runs the export from the result view to path: x, ctrl+s past
// the About step, the path, enter for the preview, enter to write.
func (d *driver) exportTo(path string) *driver {
	d.t.Helper()
	d.press("x")
	if s, ok := d.screen().(*exportScreen); !ok || s.inPath {
		d.t.Fatalf("x should open the About step, got %q:\n%s", d.screen().Title(), d.view())
	}
	d.press("ctrl+s", "ctrl+u").typeText(path).press("enter")
	if _, ok := d.screen().(*memoPreviewScreen); !ok {
		d.t.Fatalf("enter on the path should show the preview, got %q:\n%s", d.screen().Title(), d.view())
	}
	return d.press("enter")
}

// folderHolds fails unless dir holds exactly names: no stray temp files.
func folderHolds(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// The export prompt suggests the scenario and the app's date as the file
// name.
func TestExportSuggestsScenarioAndDate(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x")
	if s, ok := d.screen().(*exportScreen); !ok || s.path != "exit-test-2026-11-30.md" {
		t.Fatalf("x on the result should ask for a path prefilled with exit-test-2026-11-30.md:\n%s", d.view())
	}
	d.press("esc")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Errorf("esc should cancel the export, got %q", d.screen().Title())
	}
	// Without a scenario the name is generic.
	d = newDriver(t, 80, 24)
	d.press("n", "ctrl+r", "x")
	if s, ok := d.screen().(*exportScreen); !ok || s.path != "stackpick-decision-2026-11-30.md" {
		t.Fatalf("a new decision should suggest stackpick-decision-2026-11-30.md:\n%s", d.view())
	}
}

// The file holds exactly report.Memo's bytes for the pinned date: the
// same bytes as `stackpick decide --scenario exit-test --format markdown
// --date 2026-11-30`, whose golden is in ui/report/testdata.
func TestExportWritesTheMemoForThePinnedDate(t *testing.T) {
	kb, list := loadKB(t)
	d := newDriver(t, 80, 24)
	d.press("l", "r")
	path := filepath.Join(t.TempDir(), "adr-0007.md")
	d.exportTo(path)

	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("after writing, expected the result, got %q:\n%s", d.screen().Title(), d.view())
	}
	if st := d.m.c.Status; st != "Exported "+path || !strings.Contains(d.view(), "Exported ") {
		t.Errorf("the status line should say where the memo went, says %q:\n%s", st, d.view())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := scenarioNamed(list, "exit-test")
	want := report.Memo(kb, d.m.c.session.decision, report.Origin{Scenario: sc}.MemoInput("2026-11-30"))
	if string(got) != want {
		t.Errorf("the file is not report.Memo's output for 2026-11-30:\n%s", got)
	}
	cli, err := os.ReadFile(filepath.Join("..", "report", "testdata", "memos", "exit-test.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(cli) {
		t.Error("the TUI's memo differs from the command line's for the same scenario and date")
	}
	folderHolds(t, filepath.Dir(path), "adr-0007.md")
}

// A second export to the same path asks first; no (or esc) leaves the
// first file byte for byte, yes replaces it.
func TestSecondExportKeepsTheFirstFileUnlessConfirmed(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r")
	dir := t.TempDir()
	path := filepath.Join(dir, "memo.md")
	d.exportTo(path)
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// A day later the memo differs (its date), so any overwrite would show.
	d.m.c.now = func() time.Time { return testNow().AddDate(0, 0, 1) }
	for _, no := range []string{"n", "esc"} {
		d.exportTo(path)
		if _, ok := d.screen().(*confirmScreen); !ok {
			t.Fatalf("exporting over an existing file should ask, got %q:\n%s", d.screen().Title(), d.view())
		}
		d.press(no)
		if _, ok := d.screen().(*exportScreen); !ok {
			t.Fatalf("%s should go back to the path prompt, got %q", no, d.screen().Title())
		}
		if now, _ := os.ReadFile(path); string(now) != string(first) {
			t.Fatalf("answering %s changed the first file", no)
		}
		folderHolds(t, dir, "memo.md")
		d.press("esc")
	}

	d.exportTo(path).press("y")
	now, _ := os.ReadFile(path)
	if !strings.Contains(string(now), "- Date: 2026-12-01\n") {
		t.Errorf("yes did not replace the file:\n%.300s", now)
	}
	if st := d.m.c.Status; st != "Exported "+path {
		t.Errorf("no confirmation after replacing; the status says %q", st)
	}
	folderHolds(t, dir, "memo.md")
}

// A path that cannot be written says why, keeps the prompt, and leaves no
// file and no temp file.
func TestExportToAnUnwritableFolderLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(readOnly, 0o755) })
	paths := map[string]string{
		"a folder that is a file": filepath.Join(dir, "notes.txt", "memo.md"),
		"a missing folder":        filepath.Join(dir, "missing", "memo.md"),
	}
	if os.Geteuid() != 0 { // root writes into read-only folders
		paths["a read-only folder"] = filepath.Join(readOnly, "memo.md")
	}
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			d := newDriver(t, 80, 24)
			d.press("l", "r").exportTo(path)
			if _, ok := d.screen().(*exportScreen); !ok {
				t.Fatalf("a failed write should go back to the path prompt, got %q", d.screen().Title())
			}
			if v := d.view(); !strings.Contains(v, "Not exported: cannot write in") {
				t.Errorf("no clear error:\n%s", v)
			}
			if strings.Contains(d.view(), "Exported") && !strings.Contains(d.view(), "Not exported") {
				t.Error("the status claims an export")
			}
			folderHolds(t, dir, "notes.txt", "read-only")
			folderHolds(t, readOnly)
		})
	}
}

// The preview draws the memo's Markdown, not its markup.
func TestPreviewDrawsTheMarkdown(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.press("l", "r", "x", "ctrl+s", "enter")
	var seen strings.Builder
	for range 400 {
		seen.WriteString(d.view())
		d.press("pgdown")
	}
	v := seen.String()
	for _, markup := range []string{"## ", "**", "```", "| --- |", "`--", "<https://"} {
		if strings.Contains(v, markup) {
			t.Errorf("the preview shows raw Markdown %q", markup)
		}
	}
	for _, text := range []string{"Decision drivers", "vllm serve meta-llama/Llama-3.3-70B-Instruct", "Capacity arithmetic", "Verify before committing"} {
		if !strings.Contains(v, text) {
			t.Errorf("the preview lacks %q", text)
		}
	}
}

// The preview is drawn with lipgloss from the memo itself: no Markdown
// renderer (glamour, goldmark, chroma) is linked into the binary, since
// their package initialisation would cost every start ~30 ms.
func TestNoMarkdownRendererInTheBinary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/stackpick/stackpick").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"glamour", "goldmark", "alecthomas/chroma"} {
			if strings.Contains(dep, heavy) {
				t.Errorf("the binary links %s", dep)
			}
		}
	}
}

// A preset whose answers were changed in the app says so in the memo, with
// the changes, so its story never silently contradicts its answers table.
func TestMemoOfAnEditedPresetSaysWhatChanged(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "e", "home", "enter", "backspace").typeText("1").press("enter")
	in := memoInput(d.m.c, "2026-11-30")
	if in.Source != "scenario exit-test, with answers changed in the app" {
		t.Errorf("source = %q", in.Source)
	}
	if !strings.HasSuffix(in.Story, " In this record the answers differ from the preset: nodes 4 → 1.") {
		t.Errorf("the story does not say what changed: %q", in.Story)
	}
	d.press("x", "ctrl+s")
	if s := d.screen().(*exportScreen); !strings.Contains(s.memo, "- Source: stackpick, from scenario exit-test, with answers changed in the app") {
		t.Errorf("the memo does not carry the edited source:\n%.600s", s.memo)
	}
}

// A memo of answers that are not a preset's is titled by what it decides,
// never by a file name ("Choose the LLM serving stack: Answers from
// fleet.toml" was a file name, not a decision); its source line says where
// the answers came from.
func TestMemoTitleForOwnAnswers(t *testing.T) {
	firstLine := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		return line
	}
	dir := t.TempDir()
	d := newDriver(t, 80, 24)
	d.press("n").focusField("nodes").retype("2").press("ctrl+r")
	d.exportTo(filepath.Join(dir, "typed.md"))
	want := "# " + report.DefaultMemoTitle(d.m.c.KB, d.m.c.session.decision)
	if got := firstLine(filepath.Join(dir, "typed.md")); got != want || !strings.HasPrefix(got, "# Serve Llama 3.3 70B Instruct with vLLM and ") {
		t.Errorf("memo title %q, want %q", got, want)
	}
	d.press("s", "ctrl+u").typeText(filepath.Join(dir, "fleet.toml")).press("enter", "enter") // save, back
	d.exportTo(filepath.Join(dir, "saved.md"))
	if got := firstLine(filepath.Join(dir, "saved.md")); got != want {
		t.Errorf("memo title after saving %q, want %q", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "saved.md")); !strings.Contains(string(data), "- Source: stackpick, from answers file fleet.toml") {
		t.Errorf("the saved answers' memo does not name the file as its source")
	}
}

// The preview lays the memo out when it is sized and when the palette
// changes, never while drawing: drawing twice leaves the laid-out lines as
// they were, and a light background lays them out again in its colours.
func TestPreviewLaysOutOnSizeAndPaletteNotInView(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x", "ctrl+s", "enter")
	p, ok := d.screen().(*memoPreviewScreen)
	if !ok {
		t.Fatalf("expected the preview, got %q", d.screen().Title())
	}
	if p.rendered.w != 80 || !p.rendered.dark {
		t.Fatalf("not laid out on size: %+v", p.rendered)
	}
	d.m.c.Styles = screen.NewStyles(false) // a palette change no message announced
	before := p.vp.View()
	if d.view(); p.vp.View() != before || !p.rendered.dark {
		t.Error("View laid the memo out again")
	}
	d.send(tea.BackgroundColorMsg{Color: color.White})
	if p.rendered.dark {
		t.Error("a light background did not lay the memo out again")
	}
}

// The About step: what is typed heads the memo, stays in the session for
// the next export, and is saved with the answers as their [memo] table.
func TestAboutStepFillsTheMemosHeadAndIsKeptForTheNextExport(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x")
	about, ok := d.screen().(*exportScreen)
	if !ok || about.inPath || about.Title() != "About this decision" {
		t.Fatalf("x should open the About step:\n%s", d.view())
	}
	if about.about.title != "The exit test: four H200 nodes, three tenants' fine-tunes" || about.about.status != "proposed" || about.about.date != "2026-11-30" {
		t.Errorf("About step prefilled with %+v, want the preset's title, proposed and today", about.about)
	}
	d.press("ctrl+u").typeText("Serve the tenants from the H200 fleet").press("enter")
	d.press("right", "enter") // status: accepted
	d.typeText("Ana Ruiz, Ben Okafor").press("enter")
	d.press("enter") // the date as prefilled
	d.typeText("Three tenants move off the vendor API by Q1.").press("enter")
	s, ok := d.screen().(*exportScreen)
	if !ok || !s.inPath {
		t.Fatalf("the last field's enter should go on to the path:\n%s", d.view())
	}
	for _, want := range []string{"# Serve the tenants from the H200 fleet\n", "- Status: accepted\n", "- Deciders: Ana Ruiz, Ben Okafor\n", "- Date: 2026-11-30\n",
		"## Context and problem statement\n\nThree tenants move off the vendor API by Q1.\n"} {
		if !strings.Contains(s.memo, want) {
			t.Errorf("memo lacks %q:\n%.700s", want, s.memo)
		}
	}
	// A second export starts from what was typed, and skipping keeps it.
	d.press("esc", "x")
	again := d.screen().(*exportScreen)
	if again.about.title != "Serve the tenants from the H200 fleet" || again.about.status != "accepted" || again.about.deciders != "Ana Ruiz, Ben Okafor" {
		t.Errorf("second export's About step = %+v, want the first one's", again.about)
	}
	d.press("ctrl+s")
	if !again.inPath || !strings.Contains(again.memo, "- Deciders: Ana Ruiz, Ben Okafor\n") {
		t.Errorf("skipping the second About step lost the first one's metadata:\n%.400s", again.memo)
	}
	d.press("esc")
	// Saving the answers writes the metadata as their [memo] table.
	path := filepath.Join(dir, "tenants.toml")
	d.press("s", "ctrl+u").typeText(path).press("enter")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := d.m.c.KB.ParseAnswers(path, data)
	if err != nil {
		t.Fatalf("the saved answers do not read back: %v\n%s", err, data)
	}
	if m := back.Memo(); m.Title != "Serve the tenants from the H200 fleet" || m.Status != "accepted" || !slices.Equal(m.Deciders, []string{"Ana Ruiz", "Ben Okafor"}) || m.Date != "" {
		t.Errorf("saved [memo] table = %#v (today's date is not pinned)", m)
	}
}

// Skipping the About step exports with the defaults: the preset's title,
// status proposed, the deciders left to fill in.
func TestAboutStepSkippedWithOneKeyExportsTheDefaults(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, 80, 24)
	d.press("l", "r")
	d.exportTo(filepath.Join(dir, "memo.md"))
	data, err := os.ReadFile(filepath.Join(dir, "memo.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# The exit test: four H200 nodes, three tenants' fine-tunes\n\n- Status: proposed\n- Deciders: (fill in)\n- Date: 2026-11-30\n") {
		t.Errorf("skipped About step gave the head:\n%.300s", data)
	}
	if !d.m.c.session.answers.Memo().IsZero() {
		t.Errorf("skipping stored memo metadata %#v", d.m.c.session.answers.Memo())
	}
}

// A date that is not YYYY-MM-DD is refused with what to type, and the
// step does not go on.
func TestAboutStepRefusesABadDate(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x", "enter", "enter", "enter", "ctrl+u").typeText("1 Dec 2026").press("enter")
	s := d.screen().(*exportScreen)
	if s.inPath {
		t.Fatal("a bad date went on to the path")
	}
	if !strings.Contains(d.view(), "Date: \"1 Dec 2026\" is not a date; write it YYYY-MM-DD") {
		t.Errorf("the bad date is not explained:\n%s", d.view())
	}
}

// "?" and "q" are text in the About step's fields: a problem statement is
// often a question. f1 still opens the help.
func TestAboutStepTakesQuestionMarksAsText(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x", "enter", "enter", "enter", "enter") // to Problem statement
	d.typeText("We have no Kubernetes; what do we run? q")
	if strings.Contains(d.view(), "close help") {
		t.Fatalf("? opened the help in a text field:\n%s", d.view())
	}
	d.press("enter")
	s := d.screen().(*exportScreen)
	if !s.inPath || !strings.Contains(s.memo, "We have no Kubernetes; what do we run? q\n") {
		t.Fatalf("the question mark did not reach the memo:\n%.900s", s.memo)
	}
	d.press("esc", "x")
	if d.press("f1"); !strings.Contains(d.view(), "close help") {
		t.Errorf("f1 should open the help in the About step:\n%s", d.view())
	}
}

// ctrl+s goes on with what is on screen, the field being typed in
// included; an invalid date stops it with the reason. ctrl+x goes on
// without the edits.
func TestAboutStepKeysAreHonest(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("l", "r", "x", "ctrl+u").typeText("Edited title").press("ctrl+s")
	s := d.screen().(*exportScreen)
	if !s.inPath || !strings.HasPrefix(s.memo, "# Edited title\n") {
		t.Fatalf("ctrl+s dropped the typed title:\n%.300s", s.memo)
	}
	d.press("esc", "x", "enter", "enter", "enter", "ctrl+u").typeText("2026-99-99").press("ctrl+s")
	s = d.screen().(*exportScreen)
	if s.inPath || !strings.Contains(d.view(), "Date: ") {
		t.Fatalf("ctrl+s went on past an invalid date:\n%s", d.view())
	}
	if v := d.view(); !strings.Contains(v, "ctrl+s go on with these") || !strings.Contains(v, "ctrl+x skip, no changes") {
		t.Errorf("the footer does not say what the keys do:\n%s", v)
	}
	d.press("ctrl+x")
	if !s.inPath || !strings.HasPrefix(s.memo, "# Edited title\n") || strings.Contains(s.memo, "2026-99-99") {
		t.Errorf("ctrl+x should go on with the metadata as the step opened:\n%.300s", s.memo)
	}
}
