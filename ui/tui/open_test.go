package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/report"
)

// Home's "Open answers file…": a bad file shows its problem with file:line
// and keeps the screen, the typed path and the session; the good file then
// opens at its result, and saving writes back to it.
func TestOpenAnswersFileBadThenGood(t *testing.T) {
	kb, _ := loadKB(t)
	// Paths relative to a temp dir, so the screen is the same whatever the
	// temp dir's length.
	t.Chdir(t.TempDir())
	bad, good := "bad.toml", "good.toml"
	if err := os.WriteFile(bad, []byte("# my fleet\nnodes = 4\ngpu = \"h10\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte("nodes = 4\ngpus_per_node = 8\ngpu = \"h200\"\nfine_tunes = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, 80, 24)
	d.press("o").typeText(bad).press("enter")
	v := d.view()
	if _, ok := d.screen().(*openScreen); !ok {
		t.Fatalf("a bad file should keep the open screen, got %s:\n%s", d.screen().Title(), v)
	}
	if !strings.Contains(v, bad+":3: gpu:") || !strings.Contains(v, `did you mean "h100"?`) {
		t.Errorf("the problem should name file:line and what to type instead:\n%s", v)
	}
	if !strings.Contains(v, "> "+bad) {
		t.Errorf("the typed path should stay:\n%s", v)
	}
	if d.m.c.session.started {
		t.Errorf("a bad file should start no decision")
	}

	// Fix the path: erase the "bad.toml" and type "good.toml".
	for range len("bad.toml") {
		d.press("backspace")
	}
	d.typeText("good.toml").press("enter")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("the good file should open at its result, got %s:\n%s", d.screen().Title(), d.view())
	}
	want, err := kb.ParseAnswers(good, []byte("nodes = 4\ngpus_per_node = 8\ngpu = \"h200\"\nfine_tunes = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := &d.m.c.session
	if !kb.Same(s.answers, want) {
		t.Errorf("the session holds other answers than the file's")
	}
	if s.unsaved() || s.savedPath != good {
		t.Errorf("the file's answers should count as saved in %s (unsaved %v, saved path %q)", good, s.unsaved(), s.savedPath)
	}
	if v := d.view(); !strings.Contains(v, report.StackLine(kb, s.decision)) || !strings.Contains(v, "Decision · good.toml") {
		t.Errorf("the result should show the file's stack and name the file:\n%s", v)
	}
	// Back goes home, where Resume returns to it.
	d.press("esc")
	if v := d.view(); !strings.Contains(v, "› Resume") || !strings.Contains(v, "back to Decision · good.toml") {
		t.Errorf("home should offer to resume the opened file:\n%s", v)
	}
	d.press("r")

	// s proposes the file it came from; saving writes back to it.
	d.press("s")
	if v := d.view(); !strings.Contains(v, good) {
		t.Fatalf("the save prompt should propose %s:\n%s", good, v)
	}
	d.press("enter") // the file exists: replace it?
	d.press("left", "enter")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	again, err := kb.ParseAnswers(good, data)
	if err != nil || !kb.Same(again, want) {
		t.Fatalf("the file written back does not read back to its answers (%v):\n%s", err, data)
	}
	if !strings.Contains(string(data), "stackpick answers:") {
		t.Errorf("the file should have been rewritten by the save:\n%s", data)
	}
}

// Opening over answers that are not saved asks first; no keeps them.
func TestOpenAsksBeforeReplacingUnsavedAnswers(t *testing.T) {
	t.Chdir(t.TempDir()) // a relative path: the same screen whatever the temp dir
	good := "good.toml"
	if err := os.WriteFile(good, []byte("nodes = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, 80, 24)
	d.press("n", "backspace").typeText("7").press("enter") // nodes = 7, not saved
	d.press("esc")                                         // home
	if _, ok := d.screen().(*homeScreen); !ok {
		t.Fatalf("esc should go home from the form, got %s", d.screen().Title())
	}
	d.press("o").typeText(good).press("enter")
	if v := d.view(); !strings.Contains(v, "Open "+good+"?") {
		t.Fatalf("opening over unsaved answers should ask:\n%s", v)
	}
	d.press("n")
	if got := d.m.c.session.answers.Get("nodes").Int; got != 7 {
		t.Errorf("no should keep the unsaved answers, nodes = %d", got)
	}
}

// Tab completes a path from its folder: alone when one name fits (a folder
// gets its "/"), as far as they agree when several do, listing them.
func TestTabCompletesThePath(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"fleet-a.toml", "fleet-b.toml", "other.toml", ".hidden.toml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("nodes = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typed, want string
		choices     []string
	}{
		{dir + "/o", dir + "/other.toml", nil},
		{dir + "/s", dir + "/sub/", nil},
		{dir + "/f", dir + "/fleet-", []string{"fleet-a.toml", "fleet-b.toml"}},
		{dir + "/", dir + "/", []string{"fleet-a.toml", "fleet-b.toml", "other.toml", "sub/"}},
		{dir + "/.", dir + "/.hidden.toml", nil},
		{dir + "/x", dir + "/x", nil},
	}
	for _, tc := range cases {
		got, choices := completePath(tc.typed)
		if got != tc.want || !slices.Equal(choices, tc.choices) {
			t.Errorf("%q: got %q %v, want %q %v", tc.typed, got, choices, tc.want, tc.choices)
		}
	}
	// ~/ stays ~/ in the field; the home is the test's own, so nothing
	// outside the test decides the result.
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "only.toml"), []byte("nodes = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	if got, _ := completePath("~/o"); got != "~/only.toml" {
		t.Errorf("~/o should complete to ~/only.toml: %q", got)
	}

	// In the app: tab, then enter opens the completed file. The path is
	// relative to the folder, so the field shows it whole whatever the
	// temp dir's length.
	t.Chdir(dir)
	d := newDriver(t, 80, 24)
	d.press("o").typeText("f").press("tab")
	if v := d.view(); !strings.Contains(v, "fleet-a.toml") || !strings.Contains(v, "> fleet-") {
		t.Errorf("tab should complete to fleet- and list both:\n%s", v)
	}
	d.typeText("b").press("tab", "enter")
	if _, ok := d.screen().(*resultScreen); !ok || d.m.c.session.savedPath != "fleet-b.toml" {
		t.Errorf("enter should open the completed file, got %s (%q)", d.screen().Title(), d.m.c.session.savedPath)
	}
}

// Resume opens where the user left: the questionnaire at its page and
// question, the result at its scroll position, not always the form.
func TestResumeOpensWhereTheUserLeft(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n", "pgdown", "pgdown", "down") // the third page, second question
	form, ok := d.screen().(*formScreen)
	if !ok {
		t.Fatalf("not on the form: %s", d.screen().Title())
	}
	page, title := form.page, form.Title()
	d.press("esc")
	if _, ok := d.screen().(*homeScreen); !ok {
		t.Fatalf("esc should go home from the form, got %s", d.screen().Title())
	}
	if v := d.view(); !strings.Contains(v, "back to "+title) {
		t.Errorf("Resume should say where it goes back to (%s):\n%s", title, v)
	}
	d.press("r")
	if got, ok := d.screen().(*formScreen); !ok || got.page != page {
		t.Fatalf("Resume should open the form at page %d, got %s", page+1, d.screen().Title())
	}

	// A preset's result, scrolled, then home and the browser: Resume
	// returns to the same line of the result.
	d.press("esc", "l", "r", "y") // load exit-test over the unsaved answers: yes
	res, ok := d.screen().(*resultScreen)
	if !ok {
		t.Fatalf("l r should show the result, got %s:\n%s", d.screen().Title(), d.view())
	}
	d.press("pgdown", "pgdown", "down")
	top := d.view()
	offset := res.vp.YOffset()
	d.press("esc", "esc") // back to the preset list, then home
	d.press("b", "esc")   // the browser is not the decision: Resume stays
	d.press("r")
	if got, ok := d.screen().(*resultScreen); !ok || got != res || got.vp.YOffset() != offset {
		t.Fatalf("Resume should open the result at line %d, got %s", offset, d.screen().Title())
	}
	if d.view() != top {
		t.Errorf("the result should look as it was left:\n%s\nwas\n%s", d.view(), top)
	}
}
