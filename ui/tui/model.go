package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// screen is one page of the app. Screens are small: they handle the keys
// they own, draw exactly the size they were given, and name their keys for
// the help. Navigation goes through the shared stack.
type screen interface {
	update(msg tea.Msg) tea.Cmd
	view() string
	setSize(w, h int)
	help() keyHelp
	title() string
}

// addressedMsg is a message for one screen (a countdown's tick) rather
// than for whichever screen is on top.
type addressedMsg interface{ recipient() screen }

// takesQuestionMark reports whether s is in the middle of free text where
// "?" is part of the answer.
func takesQuestionMark(s screen) bool {
	t, ok := s.(interface{ takesQuestionMark() bool })
	return ok && t.takesQuestionMark()
}

// Smallest terminal the app draws in; below it a note asks for more room.
const (
	minWidth  = 30
	minHeight = 8
)

// Model is the root of the app: the only tea.Model. It owns the terminal
// size, the keys, the styles and the screen stack, and hands them to screens
// through one shared struct.
type Model struct {
	c           *shared
	width       int
	height      int
	showHelp    bool
	helpTop     int // first line of the help shown, when it scrolls
	interrupted bool
}

// New builds the app at its home screen. The first frame needs no terminal
// query: styles start dark and switch when the terminal says it is light.
func New(kb *knowledge.KB, list []scenarios.Scenario, opts Options) *Model {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	c := &shared{
		kb:        kb,
		scenarios: list,
		keys:      DefaultKeyMap(),
		styles:    NewStyles(true),
		noColor:   opts.NoColor,
		now:       now,
		kbDir:     opts.KBDir,
		drills:    newDrillState(opts, now),
	}
	m := &Model{c: c, width: 80, height: 24}
	m.layout()
	if opts.Drill == "" {
		c.push(newHomeScreen(c))
		return m
	}
	// Straight into a drill: the drills menu underneath, so q after the
	// result offers the other drills, and q again quits.
	c.push(newDrillsScreen(c))
	if s := c.drillScreenFor(opts.Drill); s != nil {
		c.push(s)
	}
	if c.drills.notice != "" && c.status == "" {
		// The whole notice is on the result, the drills menu and the
		// progress; the footer says it at once.
		c.status = "⚠ Unreadable drill history set aside; a new one starts (details: Progress)"
	}
	return m
}

// Init asks the terminal for its background colour, to pick light or dark
// styles, and starts the first screen's timer if it has one (a drill's
// countdown).
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, begin(m.c.top()))
}

// Interrupted reports whether the user quit with ctrl+c.
func (m *Model) Interrupted() bool { return m.interrupted }

func (m *Model) layout() {
	m.c.width = m.width
	m.c.height = max(m.height-2, 1) // header and footer
	if len(m.c.stack) > 0 {
		m.c.top().setSize(m.c.width, m.c.height)
	}
}

// Update routes a message: global keys first, then the top screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c := m.c
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Width == m.width && msg.Height == m.height {
			return m, nil
		}
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		c.styles = NewStyles(msg.IsDark())
	case tea.KeyPressMsg:
		c.status = ""
		if key.Matches(msg, c.keys.Quit) {
			m.interrupted = true
			return m, tea.Quit
		}
		if m.showHelp {
			m.helpKey(msg)
			return m, nil
		}
		// "?" is help everywhere, even in a text field: no answer, file
		// name or filter here needs it. Only free text already begun (a
		// drill's explanation) takes it as a question mark; f1 opens the
		// help there too.
		if key.Matches(msg, c.keys.Help) && (msg.String() == "f1" || !takesQuestionMark(c.top())) {
			m.showHelp, m.helpTop = true, 0
			return m, nil
		}
	}
	if hk, ok := msg.(historyKept); ok {
		// The drill history is the app's: it takes a record in even when
		// the screen that finished the drill has gone.
		msg = c.drills.kept(hk)
	}
	var cmd tea.Cmd
	if am, ok := msg.(addressedMsg); ok {
		// A timer's tick goes to the screen that set it, even under a
		// confirmation or help, and nowhere once that screen is gone.
		to := am.recipient()
		if !slices.Contains(c.stack, to) {
			return m, nil
		}
		cmd = to.update(msg)
	} else {
		cmd = c.top().update(msg)
	}
	if c.quit {
		return m, tea.Quit
	}
	return m, cmd
}

// helpKey handles a key while the help is open: it scrolls the help when
// the list is longer than the screen, and ?, q or esc close it.
func (m *Model) helpKey(msg tea.KeyPressMsg) {
	c := m.c
	keys := c.keys
	_, top, maxTop := helpView(c, c.top(), c.width, c.height, m.helpTop)
	page := max(c.height-2, 1)
	switch {
	case key.Matches(msg, keys.Help, keys.Back):
		m.showHelp = false
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
	m.helpTop = max(0, min(top, maxTop))
}

// helpScrolls reports whether the open help is longer than the screen.
func (m *Model) helpScrolls() bool {
	_, _, maxTop := helpView(m.c, m.c.top(), m.c.width, m.c.height, 0)
	return maxTop > 0
}

// View draws header, the top screen (or its help) and the footer, always
// exactly the terminal's size.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "stackpick"
	return v
}

func (m *Model) render() string {
	c := m.c
	if m.width < minWidth || m.height < minHeight {
		msg := wrapStyled("stackpick needs at least 40×12: make the window bigger (ctrl+c quits).", m.width, 0, 0, c.styles.Warn)
		return fit(strings.Join(msg, "\n"), m.width, m.height)
	}
	top := c.top()
	body := ""
	if m.showHelp {
		body, _, _ = helpView(c, top, c.width, c.height, m.helpTop)
	} else {
		body = top.view()
	}
	var b strings.Builder
	b.WriteString(m.header(top))
	b.WriteString("\n")
	b.WriteString(fit(body, c.width, c.height))
	b.WriteString("\n")
	b.WriteString(m.footer(top))
	return b.String()
}

func (m *Model) header(top screen) string {
	c := m.c
	st := c.styles
	left := st.App.Render("stackpick") + st.Muted.Render(" › ") + st.Title.Render(top.title())
	right := ""
	if c.session.unsaved() {
		right = st.Warn.Render("● unsaved")
	}
	gap := m.width - visibleWidth(left) - visibleWidth(right)
	if right == "" || gap < 1 {
		return truncate(left, m.width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m *Model) footer(top screen) string {
	c := m.c
	if c.status != "" {
		return truncate(c.styles.Status.Render(c.status), m.width)
	}
	if m.showHelp {
		text := "? or esc: close help · ctrl+c: quit"
		if m.helpScrolls() {
			text = "↑/↓: more · ?/esc: close · ctrl+c: quit"
		}
		return truncate(c.styles.Muted.Render(text), m.width)
	}
	return shortHelp(c, top.help().short, m.width, takesQuestionMark(top))
}
