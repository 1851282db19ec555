package tui

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (review the diff)")

var (
	kbOnce    sync.Once
	testKB    *knowledge.KB
	testScens []scenarios.Scenario
	kbErr     error
)

// loadKB loads the built-in knowledge base once for all tests.
func loadKB(t testing.TB) (*knowledge.KB, []scenarios.Scenario) {
	t.Helper()
	kbOnce.Do(func() {
		testKB, kbErr = knowledge.Load("")
		if kbErr == nil {
			testScens, kbErr = scenarios.All(testKB)
		}
	})
	if kbErr != nil {
		t.Fatal(kbErr)
	}
	return testKB, testScens
}

// driver runs the app without a terminal: it sends messages to Update,
// runs the commands that come back and feeds their messages in, the way
// the bubbletea runtime would, and reads the view with ANSI stripped.
type driver struct {
	t    testing.TB
	m    *Model
	quit bool
}

// testNow is the pinned clock of every driver: memos and their file names
// are dated 2026-11-30, as the golden memos are.
func testNow() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }

// newDriver starts the app at w×h with dark styles and colour on: the
// fixed profile of every golden file (colour is stripped before comparing,
// so what the goldens pin is layout and text).
func newDriver(t testing.TB, w, h int) *driver {
	t.Helper()
	kb, list := loadKB(t)
	d := &driver{t: t, m: New(kb, list, Options{Now: testNow})}
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// send delivers one message and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// cmdWait is how long a command may take before the driver gives up on
// it. Commands here return at once; only timers would not.
const cmdWait = time.Second

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	// Cursor blinks are timers that re-arm forever; the test terminal shows
	// a steady cursor instead.
	if name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name(); strings.Contains(name, "/cursor.") {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		d.handle(msg)
	case <-time.After(cmdWait):
		d.t.Logf("a command did not return within %v; dropped", cmdWait)
	}
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

func (d *driver) handle(msg tea.Msg) {
	if msg == nil {
		return
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
		return
	case tea.QuitMsg:
		d.quit = true
		return
	}
	// tea.Sequence's message type is unexported: any []tea.Cmd is one.
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSliceType) {
		for _, c := range v.Convert(cmdSliceType).Interface().([]tea.Cmd) {
			d.run(c)
		}
		return
	}
	// Terminal queries and cursor blinks have no terminal to talk to here.
	pkg := reflect.TypeOf(msg).PkgPath()
	if strings.HasPrefix(pkg, "charm.land/bubbletea/") || strings.HasSuffix(pkg, "/cursor") {
		return
	}
	d.send(msg)
}

// keyMsg builds a key press the way bubbletea reports it.
func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "tab": tea.KeyTab, "esc": tea.KeyEscape,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "space": tea.KeySpace, "f1": tea.KeyF1,
	}
	var mod tea.KeyMod
	name := k
	for {
		if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
			mod |= tea.ModCtrl
			name = rest
			continue
		}
		if rest, ok := strings.CutPrefix(name, "shift+"); ok {
			mod |= tea.ModShift
			name = rest
			continue
		}
		break
	}
	if code, ok := special[name]; ok {
		msg := tea.KeyPressMsg{Code: code, Mod: mod}
		if name == "space" {
			msg.Text = " "
		}
		return msg
	}
	r, _ := utf8.DecodeRuneInString(name)
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	return tea.KeyPressMsg{Code: r, Text: name}
}

// press sends key presses, by name ("enter", "shift+tab", "q").
func (d *driver) press(keys ...string) *driver {
	d.t.Helper()
	for _, k := range keys {
		d.send(keyMsg(k))
	}
	return d
}

// typeText types s one character at a time.
func (d *driver) typeText(s string) *driver {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return d
}

// resize changes the terminal size.
func (d *driver) resize(w, h int) *driver {
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// view is the screen as plain text.
func (d *driver) view() string {
	return ansi.Strip(d.m.View().Content)
}

// screen is the current top screen.
func (d *driver) screen() screen.Screen { return d.m.c.Top() }

// golden compares the view with testdata/name.golden.
func (d *driver) golden(name string) {
	d.t.Helper()
	got := d.view()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			d.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			d.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		d.t.Fatalf("%v (run go test ./ui/tui -run %s -update to create it)", err, d.t.Name())
	}
	if got != string(want) {
		d.t.Errorf("view differs from %s (run with -update to accept, then review the diff)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// checkFits fails if the view is not exactly w×h or a box edge is broken.
func checkFits(t testing.TB, view string, w, h int) {
	t.Helper()
	ls := strings.Split(view, "\n")
	if len(ls) != h {
		t.Errorf("%dx%d: view has %d lines", w, h, len(ls))
	}
	for i, l := range ls {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%dx%d: line %d is %d cells wide: %q", w, h, i, lw, l)
		}
		if strings.Count(l, "╭") != strings.Count(l, "╮") || strings.Count(l, "╰") != strings.Count(l, "╯") {
			t.Errorf("%dx%d: line %d has a broken box edge: %q", w, h, i, l)
		}
		if strings.Contains(l, "……") {
			t.Errorf("%dx%d: line %d is cut twice: %q", w, h, i, l)
		}
	}
}
