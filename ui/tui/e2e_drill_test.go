package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/store"
)

var whereDoes = regexp.MustCompile(`Where does (.+) belong\?`)

// layerKey is the key that places a product in its layer.
var layerKey = map[string]string{knowledge.LayerEngine: "e", knowledge.LayerModelServer: "m", knowledge.LayerOrchestrator: "o"}

// `stackpick drill taxonomy` in a real terminal opens the app on the
// first question; placing every product by what the screen asks gives
// 9 of 9 and one record in the history; q goes to the drills menu, q
// again quits cleanly. Piped, the same command stays line by line.
func TestTerminalDrillTaxonomy(t *testing.T) {
	tm := newTmux(t, 80, 24)
	bin := stackpickBinary(t)
	kb, _ := loadKB(t)
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.json")
	tm.keys(fmt.Sprintf(`STACKPICK_HISTORY=%[1]s %[2]s drill taxonomy; echo "exit=$?" > %[3]s/status.tmp; mv %[3]s/status.tmp %[3]s/status; printf 'back-in-%%s\n' shell`, hist, bin, dir), "Enter")

	tm.waitFor("the first question", contains("1/9  Where does"))
	byName := map[string]string{}
	for _, p := range kb.Products {
		byName[p.Name] = layerKey[p.Layer]
	}
	for i := 1; i <= 9; i++ {
		screen := tm.waitFor(fmt.Sprintf("question %d", i), contains(fmt.Sprintf("%d/9  Where does", i)))
		m := whereDoes.FindStringSubmatch(screen)
		if m == nil || byName[m[1]] == "" {
			t.Fatalf("cannot read the product asked:\n%s", screen)
		}
		tm.keys(byName[m[1]])
		if i < 9 {
			tm.waitFor(fmt.Sprintf("question %d", i+1), contains(fmt.Sprintf("%d/9  Where does", i+1)))
		}
	}
	tm.waitFor("all placed", contains("All placed."))
	tm.keys("Enter")
	tm.waitFor("the grade", contains("Taxonomy: 9 of 9 (100%)"))
	// The record is written after the grade shows; the screen says when
	// (and where, on the next line when the path is long).
	tm.waitFor("the record", contains("Recorded in"))

	recs, notice, err := store.LoadHistory(hist, "test")
	if err != nil || notice != "" || len(recs) != 1 || recs[0].Points != 9 || recs[0].Max != 9 {
		t.Fatalf("history after the drill: %+v %q %v", recs, notice, err)
	}

	tm.run("resize-window", "-t", "e2e", "-x", "40", "-y", "12")
	screen := tm.waitFor("the 40x12 redraw", func(s string) bool {
		return len(strings.Split(strings.TrimRight(s, "\n"), "\n")) <= 12 && strings.Contains(s, "Taxonomy: 9 of 9")
	})
	for i, l := range strings.Split(strings.TrimRight(screen, "\n"), "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide at 40x12: %q", i, w, l)
		}
	}
	tm.keys("q")
	tm.waitFor("the drills menu", contains("Mock exit test"))
	tm.keys("q")
	tm.waitFor("the shell", contains("back-in-shell"))
	if got, _ := os.ReadFile(filepath.Join(dir, "status")); strings.TrimSpace(string(got)) != "exit=0" {
		t.Errorf("stackpick drill exited with %q, want exit=0", got)
	}

	// Piped input: the line mode, as before.
	tm.keys("clear; "+fmt.Sprintf(`printf 'e\ne\n' | STACKPICK_HISTORY=%s %s drill taxonomy --seed 3`, hist, bin), "Enter")
	tm.waitFor("the line mode", contains("drill abandoned"))
	if s := tm.capture(); !strings.Contains(s, "1/9  ") || strings.Contains(s, "stackpick ›") {
		t.Errorf("piped input should run the line mode, not the app:\n%s", s)
	}
}

// In a 40x12 terminal with NO_COLOR, `stackpick drill explain` shows the
// countdown running on the real clock, without colour; the answer typed
// is graded with ctrl+d; ctrl+c quits with status 130.
func TestTerminalDrillExplainNoColor(t *testing.T) {
	tm := newTmux(t, 40, 12, "NO_COLOR=1")
	bin := stackpickBinary(t)
	dir := t.TempDir()
	hist := filepath.Join(dir, "history.json")
	tm.keys(fmt.Sprintf(`STACKPICK_HISTORY=%[1]s %[2]s drill explain; echo "exit=$?" > %[3]s/status.tmp; mv %[3]s/status.tmp %[3]s/status; printf 'back-in-%%s\n' shell`, hist, bin, dir), "Enter")
	tm.waitFor("the countdown", contains("left"))
	// The countdown starts at 1:30; any later second shows it runs (on a
	// loaded machine the first capture after it moves may be many seconds
	// on).
	moved := regexp.MustCompile(`\b(1:[0-2][0-9]|0:[0-5][0-9]) left`)
	tm.waitFor("the countdown to move", func(s string) bool { return moved.MatchString(s) })
	styled := tm.run("capture-pane", "-p", "-e", "-t", "e2e")
	if c := colourSGR(styled); c != "" {
		t.Errorf("NO_COLOR=1 but the screen has colour (%q):\n%q", c, styled)
	}
	tm.keys("Dynamo-Triton is the renamed Triton Inference Server. Which one? They can coexist.")
	tm.waitFor("the text", contains("Which one?"))
	tm.keys("C-d")
	tm.waitFor("the grade", contains("Explain: "))
	// The record is written off the update loop, so the grade can show a
	// moment before the file holds it: wait for the file, not the screen.
	var raw []byte
	tm.waitFor("the history record", func(string) bool {
		raw, _ = os.ReadFile(hist)
		return len(raw) > 0
	})
	var f struct{ Records []store.Record }
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Records) != 1 || f.Records[0].Drill != "explain" || f.Records[0].Points < 2 {
		t.Errorf("history: %s", raw)
	}
	tm.keys("C-c")
	tm.waitFor("the shell", contains("back-in-shell"))
	if got, _ := os.ReadFile(filepath.Join(dir, "status")); strings.TrimSpace(string(got)) != "exit=130" {
		t.Errorf("ctrl+c: stackpick exited with %q, want exit=130", got)
	}
}
