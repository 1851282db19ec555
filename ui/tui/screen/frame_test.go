package screen_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/tui/screen"
	"github.com/stackpick/stackpick/ui/tui/screen/screentest"
)

// page is a screen that records what reaches it and draws more than it is
// given, as a careless screen would.
type page struct {
	name   string
	got    []tea.Msg
	typing bool // free text begun: ? is a question mark
}

func (p *page) Update(msg tea.Msg) tea.Cmd { p.got = append(p.got, msg); return nil }
func (p *page) View() string               { return strings.Repeat(p.name+strings.Repeat("-", 200)+"\n", 100) }
func (p *page) SetSize(int, int)           {}
func (p *page) Help() screen.KeyHelp       { return screen.KeyHelp{} }
func (p *page) Title() string              { return p.name }
func (p *page) TakesQuestionMark() bool    { return p.typing }

// tick is a message for one screen.
type tick struct{ to screen.Screen }

func (t tick) Recipient() screen.Screen { return t.to }

// news settles into a counter before it is routed.
type news struct{ settled *int }

func (n news) Settle() tea.Msg { *n.settled++; return n }

func newDriver(t *testing.T, pages ...*page) *screentest.Driver {
	c := &screen.Context{Keys: screen.DefaultKeyMap(), Styles: screen.NewStyles(true)}
	f := screen.NewFrame(c)
	for _, p := range pages {
		c.Push(p)
	}
	return &screentest.Driver{T: t, Frame: f, C: c}
}

// Whatever a screen draws, the frame is exactly the terminal's size, down
// to the note that asks for a bigger window.
func TestFrameIsExactlyTheTerminal(t *testing.T) {
	d := newDriver(t, &page{name: "a"})
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {40, 12}, {30, 8}, {20, 5}} {
		d.Send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		screentest.CheckFits(t, d.View(), sz[0], sz[1])
	}
	if v := d.View(); !strings.Contains(v, "stackpick needs at") {
		t.Errorf("below the smallest size the frame should ask for room:\n%s", v)
	}
}

// A tick goes to the screen that set it, even under another one, and
// nowhere once that screen is gone; a settling message settles either way.
func TestAddressedMessagesFollowTheirScreen(t *testing.T) {
	under, over := &page{name: "under"}, &page{name: "over"}
	d := newDriver(t, under, over)
	d.Send(tick{to: under})
	if len(under.got) != 1 || len(over.got) != 0 {
		t.Fatalf("the tick reached under %d times, over %d times", len(under.got), len(over.got))
	}
	gone := &page{name: "gone"}
	d.Send(tick{to: gone})
	if len(gone.got) != 0 || len(over.got) != 0 {
		t.Errorf("a tick for a screen not on the stack was delivered")
	}
	n := 0
	d.Send(news{settled: &n})
	if n != 1 || len(over.got) != 1 {
		t.Errorf("settled %d times, delivered %d times; want 1 and 1", n, len(over.got))
	}
}

// ? opens the help, except in free text already begun, where f1 does;
// popping the last screen ends the app.
func TestHelpKeysAndTheLastScreen(t *testing.T) {
	p := &page{name: "p"}
	d := newDriver(t, p)
	d.Press("?")
	if !d.Frame.HelpOpen() || !strings.Contains(d.View(), "Keys: p") {
		t.Fatalf("? should open the help:\n%s", d.View())
	}
	d.Press("esc")
	p.typing = true
	d.Press("?")
	if d.Frame.HelpOpen() || len(p.got) == 0 {
		t.Fatalf("in free text ? should reach the screen")
	}
	d.Press("f1")
	if !d.Frame.HelpOpen() {
		t.Fatalf("f1 should open the help in free text")
	}
	d.Press("esc")
	d.C.Pop()
	if !d.C.Quit {
		t.Error("popping the last screen should end the app")
	}
	d.Press("ctrl+c")
	if !d.Quit || !d.Frame.Interrupted() {
		t.Error("ctrl+c should quit, interrupted")
	}
}
