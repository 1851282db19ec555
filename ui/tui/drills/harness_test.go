package drills

import (
	"flag"
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

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// The drills run here as in the app, in a screen.Frame on a
// screen.Context, without the rest of the app: the home screen and the
// yes/no question (ui/tui's) are stand-ins, so the drills' goldens are the
// app's frames byte for byte. The driver is ui/tui's test driver, pointed
// at the frame instead of the root model.

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ (review the diff)")

var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}, {40, 12}}

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

// openApp builds what the app builds for the drills: a context with dark
// styles, the drills' state, and a frame; on drill name over the drills
// menu as `stackpick drill NAME` starts, or ("") on a stand-in home screen
// whose d opens the menu.
func openApp(kb *knowledge.KB, list []scenarios.Scenario, st *State, name string) (*screen.Frame, *shared) {
	c := &screen.Context{KB: kb, Decider: decide.Compile(kb), Scenarios: list, Keys: screen.DefaultKeyMap(), Styles: screen.NewStyles(true)}
	c.NewConfirm = func(question, _ string, decided func(bool) tea.Cmd) screen.Screen {
		return &askScreen{c: c, question: question, decided: decided}
	}
	f := screen.NewFrame(c)
	if name == "" {
		c.Push(&homeStandIn{c: c, st: st})
	} else {
		Open(c, st, name)
	}
	return f, &shared{Context: c, drills: st}
}

// homeStandIn stands in for the app's home screen: d opens the drills
// menu, q quits.
type homeStandIn struct {
	c  *screen.Context
	st *State
}

func (s *homeStandIn) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "d":
			s.c.Push(Menu(s.c, s.st))
		case key.Matches(k, s.c.Keys.Back):
			s.c.Pop()
		}
	}
	return nil
}
func (s *homeStandIn) View() string         { return "home" }
func (s *homeStandIn) SetSize(int, int)     {}
func (s *homeStandIn) Help() screen.KeyHelp { return screen.KeyHelp{} }
func (s *homeStandIn) Title() string        { return "Home" }

// askScreen stands in for the app's yes/no question: y is yes; n, q and
// esc are no.
type askScreen struct {
	c        *screen.Context
	question string
	decided  func(yes bool) tea.Cmd
}

func (s *askScreen) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "y":
			return s.decided(true)
		case k.String() == "n", key.Matches(k, s.c.Keys.Back):
			return s.decided(false)
		}
	}
	return nil
}
func (s *askScreen) View() string         { return s.question }
func (s *askScreen) SetSize(int, int)     {}
func (s *askScreen) Help() screen.KeyHelp { return screen.KeyHelp{} }
func (s *askScreen) Title() string        { return "Confirm" }

// driver runs the frame without a terminal: it sends messages to Update,
// runs the commands that come back and feeds their messages in, the way
// the bubbletea runtime would, and reads the view with ANSI stripped.
type driver struct {
	t    testing.TB
	f    *screen.Frame
	c    *shared
	quit bool
}

// send delivers one message and everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	d.run(d.f.Update(msg))
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
func (d *driver) view() string { return ansi.Strip(d.f.Render()) }

// screen is the current top screen.
func (d *driver) screen() screen.Screen { return d.c.Top() }

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

// helpText opens the help and scrolls it to the end one line at a time,
// as a user would, and returns every line it showed, in order, with all
// spacing taken out so a wrapped action (or a word broken at the edge)
// reads as one.
func (d *driver) helpText() string {
	d.t.Helper()
	d.press("?")
	body := func() []string {
		ls := strings.Split(d.view(), "\n")
		return ls[2 : len(ls)-1] // header, help title; footer
	}
	seen := body()
	for range 200 {
		before := d.view()
		d.press("down")
		if d.view() == before {
			break
		}
		b := body()
		seen = append(seen, b[len(b)-1])
	}
	return noSpace(strings.Join(seen, " "))
}

func noSpace(s string) string {
	return regexp.MustCompile(`\s+`).ReplaceAllString(s, "")
}

// checkHelpComplete fails unless every key of the screen's help, and ? and
// ctrl+c, can be read in the help at this size.
func checkHelpComplete(t *testing.T, d *driver, name string, w, h int) {
	t.Helper()
	top := d.screen()
	text := d.helpText()
	var want []key.Binding
	for _, col := range top.Help().Full {
		want = append(want, col...)
	}
	want = append(want, d.c.Keys.Help, d.c.Keys.Quit)
	for _, k := range want {
		if !k.Enabled() {
			continue
		}
		kh := k.Help()
		if !strings.Contains(text, noSpace(kh.Key+kh.Desc)) {
			t.Errorf("%s %dx%d: help never shows %q %q:\n%s", name, w, h, kh.Key, kh.Desc, text)
		}
	}
	checkFits(t, d.view(), w, h)
	d.press("esc")
	if d.f.HelpOpen() {
		t.Errorf("%s %dx%d: esc did not close the scrolled help", name, w, h)
	}
}
