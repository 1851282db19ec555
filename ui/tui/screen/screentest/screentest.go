// Package screentest runs the app's screens without a terminal, for the
// tests of ui/tui and its sub-packages: a Driver that delivers messages to
// a screen.Frame and runs the commands they return as the bubbletea
// runtime would, key presses by name, the checks every view must pass,
// golden files behind one -update flag, and the built-in knowledge base
// loaded once. Only tests import it; it imports no screen of the app.
package screentest

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
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

// LoadKB loads the built-in knowledge base and its scenarios once for all
// tests.
func LoadKB(t testing.TB) (*knowledge.KB, []scenarios.Scenario) {
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

// Driver runs a frame without a terminal: it sends messages to Update,
// runs the commands that come back and feeds their messages in, the way
// the bubbletea runtime would, and reads the view with ANSI stripped.
type Driver struct {
	T     testing.TB
	Frame *screen.Frame
	C     *screen.Context // the frame's
	Quit  bool            // a command returned tea.Quit
}

// Send delivers one message and everything it causes.
func (d *Driver) Send(msg tea.Msg) {
	d.T.Helper()
	d.Run(d.Frame.Update(msg))
}

// cmdWait is how long a command may take before the driver gives up on
// it. Commands here return at once; only timers would not.
const cmdWait = time.Second

// Run runs cmd and delivers the message it returns.
func (d *Driver) Run(cmd tea.Cmd) {
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
		d.T.Logf("a command did not return within %v; dropped", cmdWait)
	}
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

func (d *Driver) handle(msg tea.Msg) {
	if msg == nil {
		return
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			d.Run(c)
		}
		return
	case tea.QuitMsg:
		d.Quit = true
		return
	}
	// tea.Sequence's message type is unexported: any []tea.Cmd is one.
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSliceType) {
		for _, c := range v.Convert(cmdSliceType).Interface().([]tea.Cmd) {
			d.Run(c)
		}
		return
	}
	// Terminal queries and cursor blinks have no terminal to talk to here.
	pkg := reflect.TypeOf(msg).PkgPath()
	if strings.HasPrefix(pkg, "charm.land/bubbletea/") || strings.HasSuffix(pkg, "/cursor") {
		return
	}
	d.Send(msg)
}

// KeyMsg builds a key press the way bubbletea reports it, by name
// ("enter", "shift+tab", "ctrl+d", "q").
func KeyMsg(k string) tea.KeyPressMsg {
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

// Press sends key presses, by name.
func (d *Driver) Press(keys ...string) {
	d.T.Helper()
	for _, k := range keys {
		d.Send(KeyMsg(k))
	}
}

// Type types s one character at a time.
func (d *Driver) Type(s string) {
	for _, r := range s {
		d.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// View is the screen as plain text.
func (d *Driver) View() string { return ansi.Strip(d.Frame.Render()) }

// Top is the screen on top of the stack.
func (d *Driver) Top() screen.Screen { return d.C.Top() }

// Golden compares got with the golden file at path, or with -update
// rewrites it.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("view differs from %s (run with -update to accept, then review the diff)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// CheckFits fails if the view is not exactly w×h or a box edge is broken.
func CheckFits(t testing.TB, view string, w, h int) {
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

// HelpText opens the help and scrolls it to the end one line at a time,
// as a user would, and returns every line it showed, in order, with all
// spacing taken out so a wrapped action (or a word broken at the edge)
// reads as one.
func (d *Driver) HelpText() string {
	d.T.Helper()
	if screen.TakesQuestionMark(d.Top()) {
		d.Press("f1") // "?" is text there
	} else {
		d.Press("?")
	}
	body := func() []string {
		ls := strings.Split(d.View(), "\n")
		return ls[2 : len(ls)-1] // header, help title; footer
	}
	seen := body()
	for range 200 {
		before := d.View()
		d.Press("down")
		if d.View() == before {
			break
		}
		b := body()
		seen = append(seen, b[len(b)-1])
	}
	return NoSpace(strings.Join(seen, " "))
}

// NoSpace takes all spacing out of s.
func NoSpace(s string) string {
	return regexp.MustCompile(`\s+`).ReplaceAllString(s, "")
}

// CheckHelpComplete fails unless every key of the top screen's help, and
// ? and ctrl+c, can be read in the help at this size, and esc closes it.
func CheckHelpComplete(t *testing.T, d *Driver, name string, w, h int) {
	t.Helper()
	top := d.Top()
	text := d.HelpText()
	var want []key.Binding
	for _, col := range top.Help().Full {
		want = append(want, col...)
	}
	want = append(want, d.C.Keys.Help, d.C.Keys.Quit)
	for _, k := range want {
		if !k.Enabled() {
			continue
		}
		kh := k.Help()
		if !strings.Contains(text, NoSpace(kh.Key+kh.Desc)) {
			t.Errorf("%s %dx%d: help never shows %q %q:\n%s", name, w, h, kh.Key, kh.Desc, text)
		}
	}
	CheckFits(t, d.View(), w, h)
	d.Press("esc")
	if d.Frame.HelpOpen() {
		t.Errorf("%s %dx%d: esc did not close the scrolled help", name, w, h)
	}
}
