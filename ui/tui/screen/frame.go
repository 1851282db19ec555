package screen

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
)

// Smallest terminal the app draws in; below it a note asks for more room.
const (
	minWidth  = 30
	minHeight = 8
)

// Frame is the app as the terminal sees it: a header naming the screen on
// top, that screen (or its keys) in the body, and a footer with its keys
// or the last status. It owns the terminal size and routes every message:
// global keys first, then the screen it is for. The root model in ui/tui
// runs one; the drills' tests drive one directly.
type Frame struct {
	c           *Context
	width       int
	height      int
	showHelp    bool
	helpTop     int // first line of the help shown, when it scrolls
	interrupted bool

	// Unsaved, when set, says whether the header marks unsaved work.
	Unsaved func() bool
	// Moved, when set, is given the stack as it was before each message,
	// once the message is handled: the app notes where the user left.
	Moved func(before []Screen)
	// Mark, when set, is a note the header shows on its right ("A pinned").
	Mark func() string
}

// NewFrame draws c's stack in an 80×24 terminal until told the real size.
func NewFrame(c *Context) *Frame {
	f := &Frame{c: c, width: 80, height: 24}
	f.layout()
	return f
}

// Init asks the terminal for its background colour, to pick light or dark
// styles, and starts the first screen's timer if it has one (a drill's
// countdown).
func (f *Frame) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, Begin(f.c.Top()))
}

// Interrupted reports whether the user quit with ctrl+c.
func (f *Frame) Interrupted() bool { return f.interrupted }

// HelpOpen reports whether the keys of the top screen are shown.
func (f *Frame) HelpOpen() bool { return f.showHelp }

func (f *Frame) layout() {
	f.c.Width = f.width
	f.c.Height = max(f.height-2, 1) // header and footer
	if len(f.c.Stack) > 0 {
		f.c.Top().SetSize(f.c.Width, f.c.Height)
	}
}

// Update routes a message: global keys first, then the top screen.
func (f *Frame) Update(msg tea.Msg) tea.Cmd {
	c := f.c
	if f.Moved != nil {
		defer f.Moved(slices.Clone(c.Stack))
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Width == f.width && msg.Height == f.height {
			return nil
		}
		f.width, f.height = msg.Width, msg.Height
		f.layout()
		return nil
	case tea.BackgroundColorMsg:
		c.Styles = NewStyles(msg.IsDark())
	case tea.KeyPressMsg:
		c.Status = ""
		if key.Matches(msg, c.Keys.Quit) {
			f.interrupted = true
			return tea.Quit
		}
		if f.showHelp {
			f.helpKey(msg)
			return nil
		}
		// "?" is help everywhere, even in a text field: no answer, file
		// name or filter here needs it. Only free text already begun (a
		// drill's explanation) takes it as a question mark; f1 opens the
		// help there too.
		if key.Matches(msg, c.Keys.Help) && (msg.String() == "f1" || !TakesQuestionMark(c.Top())) {
			f.showHelp, f.helpTop = true, 0
			return nil
		}
	}
	if s, ok := msg.(Settling); ok {
		msg = s.Settle()
	}
	var cmd tea.Cmd
	if am, ok := msg.(Addressed); ok {
		// A timer's tick goes to the screen that set it, even under a
		// confirmation or help, and nowhere once that screen is gone.
		to := am.Recipient()
		if !slices.Contains(c.Stack, to) {
			return nil
		}
		cmd = to.Update(msg)
	} else {
		cmd = c.Top().Update(msg)
	}
	if c.Quit {
		return tea.Quit
	}
	return cmd
}

// helpKey handles a key while the help is open: it scrolls the help when
// the list is longer than the screen, and ?, q or esc close it.
func (f *Frame) helpKey(msg tea.KeyPressMsg) {
	c := f.c
	keys := c.Keys
	_, top, maxTop := helpView(c, c.Top(), c.Width, c.Height, f.helpTop)
	page := max(c.Height-2, 1)
	switch {
	case key.Matches(msg, keys.Help, keys.Back):
		f.showHelp = false
		return
	case key.Matches(msg, keys.Up):
		top--
	case key.Matches(msg, keys.Down):
		top++
	case key.Matches(msg, keys.PageUp):
		top -= page
	case key.Matches(msg, keys.PageDown):
		top += page
	case key.Matches(msg, keys.Top):
		top = 0
	case key.Matches(msg, keys.Bottom):
		top = maxTop
	}
	f.helpTop = max(0, min(top, maxTop))
}

// helpScrolls reports whether the open help is longer than the screen.
func (f *Frame) helpScrolls() bool {
	_, _, maxTop := helpView(f.c, f.c.Top(), f.c.Width, f.c.Height, 0)
	return maxTop > 0
}

// Render draws header, the top screen (or its help) and the footer, always
// exactly the terminal's size.
func (f *Frame) Render() string {
	c := f.c
	if f.width < minWidth || f.height < minHeight {
		msg := report.WrapStyled("stackpick needs at least 40×12: make the window bigger (ctrl+c quits).", f.width, 0, 0, c.Styles.Warn)
		return Fit(strings.Join(msg, "\n"), f.width, f.height)
	}
	top := c.Top()
	body := ""
	if f.showHelp {
		body, _, _ = helpView(c, top, c.Width, c.Height, f.helpTop)
	} else {
		body = top.View()
	}
	var b strings.Builder
	b.WriteString(f.header(top))
	b.WriteString("\n")
	b.WriteString(Fit(body, c.Width, c.Height))
	b.WriteString("\n")
	b.WriteString(f.footer(top))
	return b.String()
}

func (f *Frame) header(top Screen) string {
	st := f.c.Styles
	left := st.App.Render("stackpick") + st.Muted.Render(" › ") + st.Title.Render(top.Title())
	right := ""
	if f.Unsaved != nil && f.Unsaved() {
		right = st.Warn.Render("● unsaved")
	}
	if f.Mark != nil {
		if m := f.Mark(); m != "" {
			right = strings.TrimSpace(st.Key.Render(m) + " " + right)
		}
	}
	gap := f.width - VisibleWidth(left) - VisibleWidth(right)
	if room := f.width - VisibleWidth(right) - 1; right != "" && gap < 1 && room >= 20 {
		// A long title gives way to the marks rather than hiding them.
		left = report.Truncate(left, room)
		gap = f.width - VisibleWidth(left) - VisibleWidth(right)
	}
	if right == "" || gap < 1 {
		return report.Truncate(left, f.width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (f *Frame) footer(top Screen) string {
	c := f.c
	if c.Status != "" {
		return report.Truncate(c.Styles.Status.Render(c.Status), f.width)
	}
	if f.showHelp {
		text := "? or esc: close help · ctrl+c: quit"
		if f.helpScrolls() {
			text = "↑/↓: more · ?/esc: close · ctrl+c: quit"
		}
		return report.Truncate(c.Styles.Muted.Render(text), f.width)
	}
	return shortHelp(c, top.Help().Short, f.width, TakesQuestionMark(top))
}
