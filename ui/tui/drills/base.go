package drills

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// drillBase is what every drill screen has: where it runs (alone, or as a
// part of the mock exit test), its seed, and once graded, the result as a
// scrolling page.
type drillBase struct {
	c    *shared
	name string
	seed uint64
	// mock is the exit test this drill is a part of; nil when alone.
	mock *mockScreen
	// graded is set once the answers are graded; the screen then shows
	// the result. readOnly marks a mock part opened from its summary.
	graded   bool
	readOnly bool
	saved    string // what happened to the result in the history
	page     pager
	w, h     int
}

func (b *drillBase) start(c *shared, name string, mock *mockScreen) {
	b.c, b.name, b.mock = c, name, mock
	if mock != nil {
		b.seed = mock.seed
	} else {
		b.seed = c.drills.nextSeed()
	}
}

// host is the screen on the stack that shows this drill: itself, or the
// mock exit test running it.
func (b *drillBase) host(self screen.Screen) screen.Screen {
	if b.mock != nil {
		return b.mock
	}
	return self
}

// keep records the finished drill self; the result shows what became of
// it once the returned command has run.
func (b *drillBase) keep(self screen.Screen, rec store.Record) tea.Cmd {
	var cmd tea.Cmd
	b.saved, cmd = b.c.drills.record(self, rec)
	return cmd
}

// historyKept takes in what became of this drill's record; it reports
// whether msg was that, so the screen lays its result out again.
func (b *drillBase) historyKept(msg tea.Msg) bool {
	hk, ok := msg.(historyKept)
	if ok {
		b.saved = hk.text
	}
	return ok
}

// leave goes back from a drill. An unfinished drill with answers asks
// first; a finished one is already recorded.
func (b *drillBase) leave(answered bool) tea.Cmd {
	c := b.c
	if b.graded || b.readOnly {
		c.Pop()
		return nil
	}
	what := "the " + b.name + " drill"
	if b.mock != nil {
		what = "the mock exit test"
		answered = answered || b.mock.part > 0
	}
	if !answered {
		c.Pop()
		return nil
	}
	return c.Confirm("Abandon "+what+"?",
		"Nothing is graded or recorded. (n or esc goes back to it.)",
		func(yes bool) tea.Cmd {
			c.Pop()
			if yes {
				c.Pop()
			}
			return nil
		})
}

// resultNotes are the lines under a graded drill's score: what became of
// the result in the history, and a history notice if there is one.
func (b *drillBase) resultNotes(w int) []string {
	c := b.c
	st := c.Styles
	var out []string
	if b.saved != "" && !b.readOnly {
		style := st.Muted
		if strings.HasPrefix(b.saved, "Not recorded") {
			style = st.Warn
		}
		out = append(out, report.WrapStyled(b.saved, w, 1, 2, style)...)
	}
	if n := c.drills.notice; n != "" && !b.readOnly {
		out = append(out, report.WrapStyled("⚠ "+n, w, 1, 2, st.Warn)...)
	}
	return out
}

// setResult lays out a graded result: notes, then lines, under the score.
func (b *drillBase) setResult(lines []string) {
	all := append(b.resultNotes(b.w), lines...)
	b.page.set(all, b.h-1)
}

// resultView is the score (with how far down the page is) over the page.
func (b *drillBase) resultView(score string) string {
	st := b.c.Styles
	return withMore(st, " "+st.Heading.Render(score), b.page.more(), b.w) + "\n" + b.page.view()
}

// gradedUpdate handles the keys of a graded drill: scroll, again, back.
func (b *drillBase) gradedUpdate(k tea.KeyPressMsg, again func() screen.Screen) tea.Cmd {
	c := b.c
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Again) && !b.readOnly && b.mock == nil:
		if s := again(); s != nil {
			c.Replace(s)
			return screen.Begin(s)
		}
	default:
		b.page.update(k, keys)
	}
	return nil
}

func (b *drillBase) gradedHelp() screen.KeyHelp {
	k := b.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	short := []key.Binding{scroll, k.PageDown}
	full := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if !b.readOnly && b.mock == nil {
		short = append(short, k.Again)
		full = append(full, k.Again)
	}
	short = append(short, k.Back)
	full = append(full, k.Back)
	return screen.KeyHelp{Short: short, Full: [][]key.Binding{full}}
}

// markLine is a ✓ or ✗ line, the mark coloured and the text plain.
func markLine(st screen.Styles, right bool, text string, w int) []string {
	mark, style := "✓ ", st.Good
	if !right {
		mark, style = "✗ ", st.Bad
	}
	lines := report.Wrap(text, w, 3, 0)
	lines[0] = " " + style.Render(mark) + strings.TrimLeft(lines[0], " ")
	return lines
}
