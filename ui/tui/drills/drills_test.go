package drills

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// The drills' golden files live in testdata/ like the others; the path is
// fixed before any test moves into a temp dir.
var drillTestdata, _ = filepath.Abs("testdata")

// fakeClock is the drills' clock in tests: pinned, moved by hand. Its
// microseconds make the default seed (123456).
type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

func (f *fakeClock) advance(d time.Duration) { f.t = f.t.Add(d) }

// drillEnv is a driver started on a drill with a pinned clock (so a pinned
// seed) and a history file of its own. The countdown's ticks are not
// timers here: the test moves the clock and sends them.
type drillEnv struct {
	*driver
	clock *fakeClock
	hist  string
	ticks int // ticks the app asked for
}

// newDrillEnv starts the app on drill name ("" for the home screen) at
// w×h, with its history in a fresh temp dir.
func newDrillEnv(t testing.TB, w, h int, name string) *drillEnv {
	t.Helper()
	return newDrillEnvAt(t, w, h, name, filepath.Join(t.TempDir(), "history.json"))
}

func newDrillEnvAt(t testing.TB, w, h int, name, hist string, opts ...func(*Options)) *drillEnv {
	t.Helper()
	kb, list := loadKB(t)
	clk := &fakeClock{t: time.Date(2025, 6, 2, 9, 30, 0, 123456000, time.UTC)}
	o := Options{HistoryPath: hist}
	for _, f := range opts {
		f(&o)
	}
	e := &drillEnv{clock: clk, hist: hist}
	st := NewState(o, clk.now)
	st.after = func(time.Duration, tea.Msg) tea.Cmd {
		e.ticks++
		return nil
	}
	f, c := openApp(kb, list, st, name)
	e.driver = drive(t, f, c)
	e.send(tea.WindowSizeMsg{Width: w, Height: h})
	e.run(f.Init())
	return e
}

// goldenEnv is a drillEnv for golden files: run from a temp dir with a
// relative history path, so the path the screens show is always the same.
func goldenEnv(t *testing.T, w, h int, name string) *drillEnv {
	t.Helper()
	t.Chdir(t.TempDir())
	return newDrillEnvAt(t, w, h, name, "history.json")
}

func (e *drillEnv) golden(name string) {
	e.t.Helper()
	screentest.Golden(e.t, filepath.Join(drillTestdata, name+".golden"), e.view())
}

// tick moves the clock by d and delivers the countdown's tick, as the
// runtime would when the timer fires.
func (e *drillEnv) tick(d time.Duration) {
	e.clock.advance(d)
	var ex *explainScreen
	switch s := e.screen().(type) {
	case *explainScreen:
		ex = s
	case *mockScreen:
		ex = s.ex
	default:
		for _, s := range e.c.Stack {
			if x, ok := s.(*explainScreen); ok {
				ex = x
			}
		}
	}
	if ex == nil {
		e.t.Fatalf("no explain screen to tick on %q", e.screen().Title())
	}
	e.send(explainTick{s: ex, host: ex.host(ex)})
}

// pageText is a whole result page as plain text, not just what fits.
func pageText(p pager) string { return ansi.Strip(strings.Join(p.lines, "\n")) }

// records reads the history file.
func (e *drillEnv) records() []store.Record {
	e.t.Helper()
	recs, notice, err := store.LoadHistory(e.hist, "test")
	if err != nil || notice != "" {
		e.t.Fatalf("history: %v %s", err, notice)
	}
	return recs
}

var layerKey = map[string]string{knowledge.LayerEngine: "e", knowledge.LayerModelServer: "m", knowledge.LayerOrchestrator: "o"}

// placeAll places every product of the taxonomy drill on screen; wrong
// names the products to put in the wrong layer.
func (e *drillEnv) placeAll(s *taxonomyScreen, wrong ...string) {
	kb := e.c.KB
	for _, id := range s.products {
		l := kb.Product(id).Layer
		if slices.Contains(wrong, id) {
			l = map[string]string{knowledge.LayerEngine: knowledge.LayerOrchestrator, knowledge.LayerModelServer: knowledge.LayerEngine, knowledge.LayerOrchestrator: knowledge.LayerModelServer}[l]
		}
		e.press(layerKey[l])
	}
}

// stackRight picks stackpick's stack in the scenario drill, each defended
// with the key terms of its reasons.
func (e *drillEnv) stackRight(s *scenarioScreen) {
	c := e.c
	d := c.Decider.Decide(s.prompt.Answers)
	for i, lp := range d.Layers {
		e.press(fmt.Sprint(slices.Index(s.options[i], lp.Pick) + 1))
		var words []string
		for _, r := range lp.Reasons {
			words = append(words, c.drills.content.KeyTerms(c.KB, r.Rule)...)
		}
		e.typeText(strings.Join(words, " ")).press("enter")
	}
}

// flagsRight answers every flag question right.
func (e *drillEnv) flagsRight(s *flagsScreen) {
	c := e.c
	for _, q := range s.qs {
		if q.Mode == drill.ModeName {
			e.typeText(c.KB.Flag(q.FlagID).Name).press("enter", "enter")
			continue
		}
		for _, it := range c.drills.content.FlagItems {
			if it.ID == q.FlagID {
				e.typeText(it.Accept[0])
			}
		}
		e.press("enter", fmt.Sprint(q.Correct+1), "enter")
	}
}

// The drills' screens at 80x24, 120x40 and 40x12: each drill's first
// question, shown at once, and its graded result, on a pinned seed.
var drillJourneys = []struct {
	name, drill string
	keys        func(e *drillEnv)
}{
	{"drills-menu", "", func(e *drillEnv) { e.press("d") }},
	{"drill-taxonomy", drill.Taxonomy, func(e *drillEnv) {}},
	{"drill-taxonomy-graded", drill.Taxonomy, func(e *drillEnv) {
		e.placeAll(e.screen().(*taxonomyScreen), "dynamo-triton", "kserve")
		e.press("enter")
	}},
	{"drill-scenario", drill.Scenario, func(e *drillEnv) {}},
	{"drill-scenario-defense", drill.Scenario, func(e *drillEnv) { e.press("2").typeText("the team knows it") }},
	{"drill-scenario-answered", drill.Scenario, func(e *drillEnv) {
		e.press("1").typeText("multi-LoRA for the fine-tunes").press("enter")
	}},
	{"drill-scenario-graded", drill.Scenario, func(e *drillEnv) {
		e.press("1").typeText("vLLM: multi-LoRA for the fine-tunes").press("enter")
		e.press("1").typeText("mixed vision and tabular models").press("enter")
		e.press("1").press("enter")
	}},
	{"drill-flags", drill.Flags, func(e *drillEnv) {}},
	{"drill-flags-effect", drill.Flags, func(e *drillEnv) { e.typeText("auto").press("enter") }},
	{"drill-flags-feedback", drill.Flags, func(e *drillEnv) {
		if e.screen().(*flagsScreen).qs[0].Mode == drill.ModeName {
			e.typeText("--max-num-seq").press("enter")
		} else {
			e.typeText("auto").press("enter", "2")
		}
	}},
	{"drill-flags-graded", drill.Flags, func(e *drillEnv) {
		s := e.screen().(*flagsScreen)
		for i, q := range s.qs {
			if q.Mode == drill.ModeName {
				e.typeText([]string{"--enable-prefix-caching", "enforce-eager", ""}[i%3]).press("enter", "enter")
				continue
			}
			e.typeText([]string{"0.9", "auto", "16"}[i%3]).press("enter", fmt.Sprint(i%4+1), "enter")
		}
	}},
	{"drill-explain", drill.Explain, func(e *drillEnv) {}},
	{"drill-explain-typing", drill.Explain, func(e *drillEnv) {
		e.typeText("Dynamo-Triton is the renamed Triton Inference Server. ")
		e.tick(time.Second)
		e.tick(70 * time.Second)
	}},
	{"drill-explain-graded", drill.Explain, func(e *drillEnv) {
		e.typeText("Dynamo-Triton is the renamed Triton Inference Server, a general model server. Dynamo orchestrates LLM engines such as vLLM across a fleet.")
		e.clock.advance(42 * time.Second)
		e.press("ctrl+d")
	}},
	{"drill-explain-timeup", drill.Explain, func(e *drillEnv) {
		e.typeText("Dynamo-Triton is the renamed Triton Inference Server")
		for range 91 {
			e.tick(time.Second)
		}
	}},
	{"drill-mock", drill.Mock, func(e *drillEnv) {}},
	{"drill-mock-graded", drill.Mock, func(e *drillEnv) {
		m := e.screen().(*mockScreen)
		e.placeAll(m.tax)
		e.press("enter")
		e.stackRight(m.sc)
		e.flagsRight(m.fl)
		e.typeText("Dynamo-Triton is a model server. Dynamo orchestrates.").press("ctrl+d")
	}},
	{"drill-mock-pass", drill.Mock, func(e *drillEnv) {
		m := e.screen().(*mockScreen)
		e.placeAll(m.tax)
		e.press("enter")
		e.stackRight(m.sc)
		e.flagsRight(m.fl)
		e.clock.advance(75 * time.Second)
		e.typeText(e.c.drills.content.Topic().Reference).press("ctrl+d")
	}},
	{"drill-stats", "stats", func(e *drillEnv) {
		e.press("q")
		for _, wrong := range [][]string{{"dynamo-triton", "kserve"}, {"dynamo-triton"}, nil} {
			e.press("t")
			e.placeAll(e.screen().(*taxonomyScreen), wrong...)
			e.press("enter", "q")
		}
		e.press("p")
	}},
}

func TestDrillScreensGolden(t *testing.T) {
	for _, j := range drillJourneys {
		for _, sz := range goldenSizes {
			name := fmt.Sprintf("%s-%dx%d", j.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				e := goldenEnv(t, sz.w, sz.h, j.drill)
				j.keys(e)
				checkFits(t, e.view(), sz.w, sz.h)
				e.golden(name)
			})
		}
	}
}

// Every drill screen is redrawn to fit as the terminal is resized, and
// stays the same screen.
func TestDrillScreensResize(t *testing.T) {
	for _, j := range drillJourneys {
		t.Run(j.name, func(t *testing.T) {
			e := newDrillEnv(t, 80, 24, j.drill)
			j.keys(e)
			before := e.screen()
			for w := 30; w <= 165; w += 15 {
				for h := 8; h <= 53; h += 9 {
					e.resize(w, h)
					checkFits(t, e.view(), w, h)
				}
			}
			e.resize(80, 24)
			if e.screen() != before {
				t.Errorf("resizing changed the screen from %s to %s", before.Title(), e.screen().Title())
			}
		})
	}
}

// ? shows the keys on every drill screen and closes again; ctrl+c quits
// from every one of them.
func TestDrillHelpAndQuit(t *testing.T) {
	for _, j := range drillJourneys {
		if j.name == "drill-explain-typing" || j.name == "drill-scenario-defense" {
			continue // there ? is a question mark; see TestQuestionMarkInFreeText
		}
		e := newDrillEnv(t, 80, 24, j.drill)
		j.keys(e)
		before := e.view()
		e.press("?")
		if v := e.view(); !strings.Contains(v, "Keys:") || !strings.Contains(v, "ctrl+c") {
			t.Errorf("%s: ? shows no help:\n%s", j.name, v)
		}
		e.press("?")
		if e.view() != before {
			t.Errorf("%s: closing help did not restore the screen", j.name)
		}
		e.press("ctrl+c")
		if !e.Quit || !e.f.Interrupted() {
			t.Errorf("%s: ctrl+c did not quit", j.name)
		}
	}
}

// On every drill screen, at every size, the whole help can be read.
func TestDrillHelpIsCompleteAtEverySize(t *testing.T) {
	for _, j := range drillJourneys {
		if j.name == "drill-explain-typing" || j.name == "drill-scenario-defense" {
			continue // ? is a question mark there
		}
		for _, sz := range append(goldenSizes, struct{ w, h int }{30, 8}) {
			e := newDrillEnv(t, sz.w, sz.h, j.drill)
			j.keys(e)
			screentest.CheckHelpComplete(t, e.driver.Driver, j.name, sz.w, sz.h)
		}
	}
}

// Starting any drill shows its first question at once, without a key.
func TestDrillFirstQuestionAtOnce(t *testing.T) {
	want := map[string]string{
		drill.Taxonomy: "1/9  Where does",
		drill.Scenario: "Engine (1/3): which product?",
		drill.Flags:    "1/12",
		drill.Explain:  "Explain the practical difference",
		drill.Mock:     "1/9  Where does",
	}
	for name, w := range want {
		for _, sz := range goldenSizes {
			e := newDrillEnv(t, sz.w, sz.h, name)
			if v := e.view(); !strings.Contains(v, w) {
				t.Errorf("%s at %dx%d: no first question (%q):\n%s", name, sz.w, sz.h, w, v)
			}
		}
	}
}

// All nine products in the right layer: 9 of 9, and one record in the
// history, stamped by the app's clock with the drill's seed.
func TestTaxonomyAllRight(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Taxonomy)
	s := e.screen().(*taxonomyScreen)
	e.placeAll(s)
	if !strings.Contains(e.view(), "All placed.") {
		t.Fatalf("after nine placements the screen should offer to grade:\n%s", e.view())
	}
	e.press("enter")
	if v := e.view(); !strings.Contains(v, "Taxonomy: 9 of 9 (100%)") || !strings.Contains(v, "Recorded in") {
		t.Fatalf("want 9 of 9, recorded:\n%s", v)
	}
	recs := e.records()
	if len(recs) != 1 {
		t.Fatalf("history holds %d records, want 1", len(recs))
	}
	r := recs[0]
	if r.Drill != drill.Taxonomy || r.Points != 9 || r.Max != 9 || len(r.Missed) != 0 || r.Seed != 123456 || r.At != "2025-06-02T09:30:00Z" {
		t.Errorf("record %+v", r)
	}
}

// The record is written by a command, not inside Update: the file appears
// only once the command has run, and the result then says where it went.
// Left before the command reports, the history still takes the record in.
func TestADrillIsRecordedThroughACommand(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Taxonomy)
	e.placeAll(e.screen().(*taxonomyScreen))
	cmd := e.f.Update(keyMsg("enter"))
	if _, err := os.Stat(e.hist); !os.IsNotExist(err) {
		t.Fatalf("Update wrote the history itself (%v)", err)
	}
	if cmd == nil || strings.Contains(e.view(), "Recorded in") {
		t.Fatalf("grading should return the command that records, and not claim it yet:\n%s", e.view())
	}
	e.f.Update(keyMsg("q")) // back to the drills menu before the write reports
	e.run(cmd)
	if recs := e.records(); len(recs) != 1 {
		t.Fatalf("history holds %d records, want 1", len(recs))
	}
	if n := len(e.c.drills.records); n != 1 {
		t.Errorf("the app's history holds %d records after the write, want 1", n)
	}
}

// A wrong placement is graded with its reason, and the product comes
// first next time: in a new round (r) and in a new run of the app.
func TestTaxonomyMissedItemComesFirst(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Taxonomy)
	s := e.screen().(*taxonomyScreen)
	last := s.products[len(s.products)-1]
	e.placeAll(s, last)
	e.press("enter")
	name := e.c.KB.ProductName(last)
	if v := e.view(); !strings.Contains(v, "✗ "+name+": you said") || !strings.Contains(v, name+" is a") {
		t.Fatalf("the wrong placement should be graded with its reason:\n%s", v)
	}
	e.press("r")
	if got := e.screen().(*taxonomyScreen).products[0]; got != last {
		t.Errorf("r: first product %s, want the missed %s", got, last)
	}
	if v := e.view(); !strings.Contains(v, "Where does "+name+" belong?") {
		t.Errorf("the missed product should be the first question:\n%s", v)
	}
	again := newDrillEnvAt(t, 80, 24, drill.Taxonomy, e.hist)
	if got := again.screen().(*taxonomyScreen).products[0]; got != last {
		t.Errorf("new run: first product %s, want the missed %s", got, last)
	}
}

// Leaving a drill with answers asks first; no goes back to it, yes leaves
// and records nothing. A drill left untouched just closes.
func TestAbandoningADrillAsks(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Taxonomy)
	e.press("e", "q")
	if _, ok := e.screen().(*askScreen); !ok {
		t.Fatalf("q with a product placed should ask, got %q", e.screen().Title())
	}
	e.press("n")
	if _, ok := e.screen().(*taxonomyScreen); !ok {
		t.Fatalf("no should go back to the drill, got %q", e.screen().Title())
	}
	if got := e.screen().Title(); !strings.Contains(got, "1/9 placed") {
		t.Errorf("answers lost after declining: %q", got)
	}
	e.press("esc", "y")
	if _, ok := e.screen().(*menuScreen); !ok {
		t.Fatalf("yes should leave for the drills menu, got %q", e.screen().Title())
	}
	if _, err := os.Stat(e.hist); err == nil {
		t.Error("an abandoned drill was recorded")
	}
	e.press("f", "esc")
	if _, ok := e.screen().(*menuScreen); !ok {
		t.Errorf("esc from an untouched drill should not ask, got %q", e.screen().Title())
	}
}

// The countdown shows, runs on ticks of the app's clock (also under a
// question), reaches 0:00, and when the time is up the answer is graded
// over time: what it covered is shown, and it earns no points.
func TestExplainCountdownRunsOut(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Explain)
	if e.ticks != 1 {
		t.Fatalf("starting the drill asked for %d ticks, want 1", e.ticks)
	}
	if v := e.view(); !strings.Contains(v, "1:30 left") {
		t.Fatalf("no 1:30 countdown:\n%s", v)
	}
	e.typeText("Dynamo-Triton is the renamed Triton Inference Server, a general model server.")
	for range 30 {
		e.tick(time.Second)
	}
	if v := e.view(); !strings.Contains(v, "1:00 left") {
		t.Fatalf("after 30 ticks:\n%s", v)
	}
	e.press("esc") // the question does not stop the clock
	if _, ok := e.screen().(*askScreen); !ok {
		t.Fatalf("esc with text typed should ask, got %q", e.screen().Title())
	}
	for range 30 {
		e.tick(time.Second)
	}
	e.press("n")
	if v := e.view(); !strings.Contains(v, "0:30 left") {
		t.Fatalf("ticks under the question were lost:\n%s", v)
	}
	for range 30 {
		e.tick(time.Second)
	}
	if v := e.view(); !strings.Contains(v, "0:00 left") {
		t.Fatalf("the countdown should reach 0:00:\n%s", v)
	}
	e.tick(time.Second)
	s := e.screen().(*explainScreen)
	if !s.graded || s.result.InTime || s.result.Score.Points != 0 || len(s.result.Covered) != 2 {
		t.Fatalf("time up: graded %v, in time %v, points %v, covered %d", s.graded, s.result.InTime, s.result.Score.Points, len(s.result.Covered))
	}
	if v := e.view(); !strings.Contains(v, "Time's up") || !strings.Contains(v, "✓ Dynamo-Triton is the renamed") {
		t.Errorf("the result should say the time was up and show what was covered:\n%s", v)
	}
	n := e.ticks
	e.tick(time.Second)
	if e.ticks != n {
		t.Error("the countdown kept ticking after grading")
	}
	if recs := e.records(); len(recs) != 1 || recs[0].Points != 0 || recs[0].Max != 6 {
		t.Errorf("history: %+v", recs)
	}
}

// An answer that says the right words of the wrong product is told so,
// under the key point it missed; a keyword list is told it is one.
func TestExplainSaysWhyAPointWasMissed(t *testing.T) {
	e := newDrillEnv(t, 100, 40, drill.Explain)
	e.typeText("Dynamo is the renamed Triton Inference Server, a general model server.")
	e.press("ctrl+d")
	page := strings.Join(strings.Fields(pageText(e.screen().(*explainScreen).page)), " ")
	if !strings.Contains(page, "You said “general model”, but of NVIDIA Dynamo, not of Dynamo-Triton.") {
		t.Errorf("the swap is not explained:\n%s", page)
	}
	f := newDrillEnv(t, 100, 40, drill.Explain)
	f.typeText("renamed, model server, orchestrator, KV-aware routing, coexist, scale")
	f.press("ctrl+d")
	page = strings.Join(strings.Fields(pageText(f.screen().(*explainScreen).page)), " ")
	if !strings.Contains(page, "This reads as a list of keywords") {
		t.Errorf("the keyword list is not named:\n%s", page)
	}
}

// Handed in within the time, the same answer earns its points.
func TestExplainInTime(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Explain)
	e.typeText("Dynamo-Triton is the renamed Triton Inference Server, a general model server.")
	e.clock.advance(89 * time.Second)
	e.press("ctrl+d")
	s := e.screen().(*explainScreen)
	if !s.result.InTime || s.result.Score.Points != 2 {
		t.Errorf("in time %v, points %v", s.result.InTime, s.result.Score.Points)
	}
	if v := e.view(); !strings.Contains(v, "Explain: 2 of 6 (33%) in 89 s") || !strings.Contains(v, "Reference explanation") {
		t.Errorf("result:\n%s", v)
	}
}

// In an explanation already begun, ? is a question mark; on an empty one
// it is the help, as everywhere.
func TestQuestionMarkInFreeText(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Explain)
	e.press("?")
	if !strings.Contains(e.view(), "Keys:") {
		t.Fatalf("? on an empty answer should open the help:\n%s", e.view())
	}
	e.press("?").typeText("Which one? It depends.")
	if got := e.screen().(*explainScreen).area.Value(); got != "Which one? It depends." {
		t.Errorf("typed %q", got)
	}
}

// The whole exit test answered right passes; answered with nothing, it
// fails and names the weakest items. Each is one record in the history.
func TestMockPassAndFail(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Mock)
	m := e.screen().(*mockScreen)
	e.placeAll(m.tax)
	e.press("enter")
	if m.part != 1 || !strings.Contains(e.view(), "Engine (1/3)") {
		t.Fatalf("after the taxonomy the scenario should follow:\n%s", e.view())
	}
	e.stackRight(m.sc)
	e.flagsRight(m.fl)
	if m.part != 3 {
		t.Fatalf("part %d, want the explanation", m.part)
	}
	ref := e.c.drills.content.Topic().Reference
	e.typeText(ref).press("ctrl+d")
	if v := e.view(); !m.graded || !m.result.Pass || !strings.Contains(v, "Mock exit test: PASS") {
		t.Fatalf("all right should pass:\n%s", v)
	}
	e.press("2")
	if s, ok := e.screen().(*scenarioScreen); !ok || !s.readOnly || !strings.Contains(e.view(), "✓ Engine: you picked") {
		t.Fatalf("2 should open the scenario's grading:\n%s", e.view())
	}
	e.press("q")
	if e.screen() != m {
		t.Fatalf("q should go back to the verdict, got %q", e.screen().Title())
	}

	f := newDrillEnvAt(t, 80, 24, drill.Mock, e.hist)
	f.press("enter", "enter") // taxonomy: nothing placed, so enter only moves
	fm := f.screen().(*mockScreen)
	for range 9 {
		f.press("e")
	}
	f.press("enter")
	f.press("enter", "enter", "enter", "enter", "enter", "enter") // the first product of each layer, no defense
	for _, q := range fm.fl.qs {
		if q.Mode == drill.ModeDefault {
			f.press("enter", "1", "enter")
		} else {
			f.press("enter", "enter")
		}
	}
	f.press("ctrl+d")
	v := f.view()
	if !fm.graded || fm.result.Pass || !strings.Contains(v, "Mock exit test: FAIL") || !strings.Contains(v, "Weakest items") {
		t.Fatalf("nothing right should fail and name the weakest items:\n%s", v)
	}
	recs := f.records()
	if len(recs) != 2 || recs[0].Drill != drill.Mock || recs[0].Pass == nil || !*recs[0].Pass || recs[1].Pass == nil || *recs[1].Pass {
		t.Errorf("history: %+v", recs)
	}
}

// A broken history file is set aside with a notice on the drills menu, in
// the footer when the app opens on a drill, and on the result; the next
// result starts a new history.
func TestBrokenHistoryIsReported(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.json")
	if err := os.WriteFile(hist, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newDrillEnvAt(t, 80, 24, drill.Taxonomy, hist)
	if v := e.view(); !strings.Contains(v, "Unreadable drill history set aside") {
		t.Errorf("the notice should show when the drill opens:\n%s", v)
	}
	aside := hist + ".unreadable-20250602T093000"
	if _, err := os.Stat(aside); err != nil {
		t.Fatalf("the broken file was not set aside: %v", err)
	}
	e.placeAll(e.screen().(*taxonomyScreen))
	e.press("enter")
	if v := e.view(); !strings.Contains(v, "⚠ drill history") || !strings.Contains(v, "set aside") {
		t.Errorf("the result should repeat the notice:\n%s", v)
	}
	e.press("q")
	if v := e.view(); !strings.Contains(v, "set aside") {
		t.Errorf("the drills menu should show the notice:\n%s", v)
	}
	if recs := e.records(); len(recs) != 1 {
		t.Errorf("the new history holds %d records", len(recs))
	}
}

// --seed and --scenario reach the first drill; later ones seed from the
// clock.
func TestDrillSeedAndPreset(t *testing.T) {
	seed := uint64(7)
	e := newDrillEnvAt(t, 80, 24, drill.Scenario, filepath.Join(t.TempDir(), "h.json"), func(o *Options) { o.Seed = &seed })
	s := e.screen().(*scenarioScreen)
	if s.seed != 7 || s.prompt.Name != "generated-7" {
		t.Errorf("seed %d, prompt %s", s.seed, s.prompt.Name)
	}
	e.press("esc", "s")
	if s := e.screen().(*scenarioScreen); s.seed != 123456 {
		t.Errorf("the next drill's seed is %d, want the clock's 123456", s.seed)
	}
	p := newDrillEnvAt(t, 80, 24, drill.Scenario, filepath.Join(t.TempDir(), "h.json"), func(o *Options) { o.Scenario = "exit-test" })
	if s := p.screen().(*scenarioScreen); s.prompt.Name != "exit-test" || !strings.Contains(p.view(), "The exit test") {
		t.Errorf("--scenario exit-test: %s\n%s", s.prompt.Name, p.view())
	}
}

// The scenario drill graded against decide: the exit test's stack right,
// every layer defended with its reasons' terms, is full marks; the record
// counts per layer.
func TestScenarioAllRight(t *testing.T) {
	e := newDrillEnvAt(t, 80, 24, drill.Scenario, filepath.Join(t.TempDir(), "h.json"), func(o *Options) { o.Scenario = "exit-test" })
	s := e.screen().(*scenarioScreen)
	e.stackRight(s)
	if !s.graded {
		t.Fatalf("not graded:\n%s", e.view())
	}
	for _, l := range s.result.Layers {
		if !l.Right {
			t.Errorf("%s: picked %s, want %s", l.Layer, l.Got, l.Want)
		}
		// Every reason with key terms was named. (A rule with no
		// conditions speaking for "none" has none: that point cannot be
		// earned, see llm-only-no-model-server.)
		for _, r := range l.Unmentioned {
			if terms := e.c.drills.content.KeyTerms(e.c.KB, r); len(terms) > 0 {
				t.Errorf("%s: reason %s not credited though the defense used %v", l.Layer, r, terms)
			}
		}
	}
	if v := pageText(s.page); !strings.Contains(v, "✓ Orchestrator: you picked llm-d; stackpick picks llm-d + KServe") {
		t.Errorf("result:\n%s", v)
	}
	// Words only: rule ids belong to the trace and JSON.
	v := strings.Join(strings.Fields(pageText(s.page)), " ")
	for _, r := range e.c.KB.Rules {
		if strings.Contains(v, r.ID) {
			t.Errorf("the feedback shows the rule id %s", r.ID)
		}
	}
	// shift+tab goes back a step without losing what was typed.
	f := newDrillEnv(t, 80, 24, drill.Scenario)
	f.press("2").typeText("because").press("enter", "shift+tab")
	fs := f.screen().(*scenarioScreen)
	if fs.layer != 0 || !fs.typing || fs.inputs[0].Value() != "because" {
		t.Errorf("shift+tab: layer %d typing %v value %q", fs.layer, fs.typing, fs.inputs[0].Value())
	}
}

// The flags drill answered right is full marks; the seed's outdated
// default earns half a point and the correction.
func TestFlagsGrading(t *testing.T) {
	e := newDrillEnv(t, 80, 24, drill.Flags)
	s := e.screen().(*flagsScreen)
	e.flagsRight(s)
	if !s.graded || s.result.Score.Points != s.result.Score.Max {
		t.Fatalf("score %+v", s.result.Score)
	}

	// A seed that asks for --gpu-memory-utilization's default.
	kb, _ := loadKB(t)
	c, err := drill.Load(kb)
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(0)
	for ; seed < 100; seed++ {
		if slices.ContainsFunc(c.FlagQuiz(kb, seed, nil), func(q drill.FlagQuestion) bool {
			return q.FlagID == "vllm-gpu-memory-utilization" && q.Mode == drill.ModeDefault
		}) {
			break
		}
	}
	f := newDrillEnvAt(t, 80, 24, drill.Flags, filepath.Join(t.TempDir(), "h.json"), func(o *Options) { o.Seed = &seed })
	fs := f.screen().(*flagsScreen)
	for _, q := range fs.qs {
		switch {
		case q.FlagID == "vllm-gpu-memory-utilization":
			f.typeText("0.9").press("enter", fmt.Sprint(q.Correct+1))
			// The grade shows at once, before the next question.
			v := strings.Join(strings.Fields(f.view()), " ")
			for _, want := range []string{"Default partly right, effect right (1.5/2)", "Correction: \"0.9\" is the course notes' answer", "Default today: 0.92", "Source: "} {
				if !strings.Contains(v, want) {
					t.Errorf("feedback lacks %q:\n%s", want, f.view())
				}
			}
			f.press("enter")
		case q.Mode == drill.ModeDefault:
			f.press("enter", "1", "enter")
		default:
			f.press("enter", "enter")
		}
	}
	page := strings.Join(strings.Fields(pageText(fs.page)), " ")
	for _, want := range []string{"--gpu-memory-utilization 1.5/2: default partly right, effect right", "Correction: \"0.9\" is the course notes' answer, out of date or only part of it;", "Depends on: vLLM version"} {
		if !strings.Contains(page, want) {
			t.Errorf("result lacks %q:\n%s", want, strings.Join(fs.page.lines, "\n"))
		}
	}
}

// The progress screen shows each drill over time and the items missed
// most, with what they are in words.
func TestDrillStats(t *testing.T) {
	e := newDrillEnv(t, 100, 30, drill.Taxonomy)
	for _, wrong := range [][]string{{"dynamo-triton", "kserve"}, {"dynamo-triton"}, nil} {
		e.placeAll(e.screen().(*taxonomyScreen), wrong...)
		e.press("enter", "r")
	}
	e.press("q", "p")
	v := e.view()
	for _, want := range []string{"Taxonomy", "3 attempts", "last 100%", "best 100%", "2× Taxonomy: Dynamo-Triton", "1× Taxonomy: KServe"} {
		if !strings.Contains(v, want) {
			t.Errorf("stats lack %q:\n%s", want, v)
		}
	}
	raw, _ := os.ReadFile(e.hist)
	var f struct{ Records []json.RawMessage }
	if json.Unmarshal(raw, &f) != nil || len(f.Records) != 3 {
		t.Errorf("history holds %d records", len(f.Records))
	}
}

// Starting any drill shows its first question within 50 ms: building the
// drill screen (content, history, question order) and its first frame.
func BenchmarkDrillFirstQuestion(b *testing.B) {
	kb, list := loadKB(b)
	for _, name := range drill.Names {
		b.Run(name, func(b *testing.B) {
			hist := filepath.Join(b.TempDir(), "history.json")
			b.ReportAllocs()
			for range b.N {
				f, _ := openApp(kb, list, NewState(Options{HistoryPath: hist}, time.Now), name)
				f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
				_ = f.Render()
			}
		})
	}
}

// The same from nothing: the knowledge base and scenarios loaded too, as
// `stackpick drill NAME` does before its first frame.
func BenchmarkDrillColdStart(b *testing.B) {
	hist := filepath.Join(b.TempDir(), "history.json")
	b.ReportAllocs()
	for range b.N {
		kb, err := knowledge.Load("")
		if err != nil {
			b.Fatal(err)
		}
		list, err := scenarios.All(kb)
		if err != nil {
			b.Fatal(err)
		}
		f, _ := openApp(kb, list, NewState(Options{HistoryPath: hist}, time.Now), drill.Taxonomy)
		f.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		_ = f.Render()
	}
}

// A history that cannot be read is reported; the drills still run, and
// the result says it was not recorded.
func TestUnreadableHistory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newDrillEnvAt(t, 80, 24, "", filepath.Join(blocker, "history.json"))
	e.press("d")
	if v := e.view(); !strings.Contains(v, "⚠ Drill history: cannot read drill history") {
		t.Errorf("the menu should say the history cannot be read:\n%s", v)
	}
	e.press("t")
	e.placeAll(e.screen().(*taxonomyScreen))
	e.press("enter")
	if v := e.view(); !strings.Contains(v, "Taxonomy: 9 of 9") || !strings.Contains(v, "Not recorded:") {
		t.Errorf("the result should be graded and say it was not recorded:\n%s", v)
	}
}

// Before grading, the layers already answered are listed with a neutral
// mark: a ✓ there read as "right" for a pick the grading then marked ✗.
func TestScenarioAnsweredLayersAreNotMarkedRight(t *testing.T) {
	for _, sz := range goldenSizes {
		e := newDrillEnv(t, sz.w, sz.h, drill.Scenario)
		s := e.screen().(*scenarioScreen)
		e.press("1").typeText("first layer").press("enter")
		e.press("1").typeText("second layer").press("enter")
		if s.graded || s.layer != 2 {
			t.Fatalf("%dx%d: expected the third layer's question, layer %d graded %v", sz.w, sz.h, s.layer, s.graded)
		}
		v := e.view()
		if strings.ContainsAny(v, "✓✗") {
			t.Errorf("%dx%d: a mark of right or wrong before grading:\n%s", sz.w, sz.h, v)
		}
		if sz.h >= 24 && !strings.Contains(v, "• "+s.layers[0].Name+": ") {
			t.Errorf("%dx%d: the answered layers should be listed with •:\n%s", sz.w, sz.h, v)
		}
	}
}

// The footer names the key that opens the help: "? help" while ? opens it,
// "f1 help" once free text has begun and ? is typed into it; f1 opens the
// help there without typing anything.
func TestFooterNamesTheWorkingHelpKey(t *testing.T) {
	footer := func(e *drillEnv) string {
		ls := strings.Split(e.view(), "\n")
		return ls[len(ls)-1]
	}
	for _, tc := range []struct {
		name, drill string
		begin       func(e *drillEnv)
		text        func(e *drillEnv) string
	}{
		{"explain", drill.Explain, func(e *drillEnv) {}, func(e *drillEnv) string { return e.screen().(*explainScreen).area.Value() }},
		{"scenario defense", drill.Scenario, func(e *drillEnv) { e.press("1") }, func(e *drillEnv) string {
			s := e.screen().(*scenarioScreen)
			return s.inputs[s.layer].Value()
		}},
	} {
		for _, sz := range goldenSizes {
			e := newDrillEnv(t, sz.w, sz.h, tc.drill)
			tc.begin(e)
			if f := footer(e); !strings.Contains(f, "? help") {
				t.Errorf("%s %dx%d: before typing the footer should offer ? help: %q", tc.name, sz.w, sz.h, f)
			}
			e.typeText("why")
			f := footer(e)
			if strings.Contains(f, "? help") || !strings.Contains(f, "f1 help") {
				t.Errorf("%s %dx%d: once typing, ? is a question mark; the footer says %q", tc.name, sz.w, sz.h, f)
			}
			e.press("f1")
			if !strings.Contains(e.view(), "Keys:") {
				t.Errorf("%s %dx%d: f1 should open the help while typing:\n%s", tc.name, sz.w, sz.h, e.view())
			}
			e.press("esc")
			if e.f.HelpOpen() || tc.text(e) != "why" {
				t.Errorf("%s %dx%d: closing the help should leave the text as typed, got %q", tc.name, sz.w, sz.h, tc.text(e))
			}
			e.typeText("?")
			if tc.text(e) != "why?" {
				t.Errorf("%s %dx%d: ? should still be typed, got %q", tc.name, sz.w, sz.h, tc.text(e))
			}
		}
	}
}
