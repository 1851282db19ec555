package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// drillState is what the exit-test drills share: their content, the
// history as last read, the clock, and where results go. Grading is the
// drill package's; this only feeds it and keeps the record.
type drillState struct {
	content *drill.Content
	loadErr error

	path    string // the history file
	records []store.Record
	loaded  bool
	// notice says a broken or foreign history file was set aside; it stays
	// on the drills menu, the stats and every result until the app exits.
	notice string
	// problem says the history cannot be read or written: drills still run,
	// but their results are not kept.
	problem string

	seed     *uint64 // seeds the first drill only (--seed)
	scenario string  // the scenario drill's preset (--scenario)

	now   func() time.Time
	after func(d time.Duration, msg tea.Msg) tea.Cmd
}

// newDrillState keeps the drills on the app's clock, the one that dates
// memos: it stamps records, seeds drills and times the explanation.
func newDrillState(opts Options, now func() time.Time) *drillState {
	d := &drillState{path: opts.HistoryPath, seed: opts.DrillSeed, scenario: opts.DrillScenario, now: now}
	d.after = func(dur time.Duration, msg tea.Msg) tea.Cmd {
		return tea.Tick(dur, func(time.Time) tea.Msg { return msg })
	}
	return d
}

// stamp names a set-aside history file.
func (d *drillState) stamp() string { return d.now().UTC().Format("20060102T150405") }

// load reads the drill content and the history once.
func (d *drillState) load(kb *knowledge.KB) error {
	if d.loaded {
		return d.loadErr
	}
	d.loaded = true
	d.content, d.loadErr = drill.Load(kb)
	if d.path == "" {
		p, err := store.DefaultHistoryPath()
		if err != nil {
			d.problem = "results will not be kept: " + err.Error()
			return d.loadErr
		}
		d.path = p
	}
	records, notice, err := store.LoadHistory(d.path, d.stamp())
	if err != nil {
		d.problem = err.Error() + "; results will not be kept"
	}
	d.records, d.notice = records, notice
	return d.loadErr
}

// nextSeed is the seed of a drill about to start: --seed for the first,
// then the clock.
func (d *drillState) nextSeed() uint64 {
	if d.seed != nil {
		s := *d.seed
		d.seed = nil
		return s
	}
	// Six digits, so a seed is easy to type back (--seed N replays it).
	return uint64(d.now().UnixMicro()) % 1_000_000
}

func (d *drillState) misses() drill.Misses { return store.Misses(d.records) }

// historyKept says what became of a finished drill's record. The drills'
// state takes it in first (Settle), whether or not the screen that
// finished the drill is still open; then it goes to that screen, which
// shows text under the score.
type historyKept struct {
	d      *drillState
	to     screen.Screen
	rec    store.Record
	path   string
	notice string
	err    error
	text   string // set by drillState.kept when the message arrives
}

func (m historyKept) Recipient() screen.Screen { return m.to }

func (m historyKept) Settle() tea.Msg { return m.d.kept(m) }

// record stamps a finished drill from the app's clock and returns the
// command that appends it to the history, so the file is written off the
// update loop. Without a history file there is nothing to run, and the
// text says why at once.
func (d *drillState) record(to screen.Screen, rec store.Record) (string, tea.Cmd) {
	rec.At = d.now().UTC().Format(time.RFC3339)
	if d.path == "" {
		return "Not recorded: " + d.problem, nil
	}
	path, stamp := d.path, d.stamp()
	return "", func() tea.Msg {
		notice, err := store.AppendHistory(path, rec, stamp)
		return historyKept{d: d, to: to, rec: rec, path: path, notice: notice, err: err}
	}
}

// kept takes in what became of a record, whether or not the screen that
// finished the drill is still open: the history as it now is on disk, and
// the line the result shows.
func (d *drillState) kept(m historyKept) historyKept {
	if m.notice != "" {
		d.notice = m.notice
		d.records = nil
	}
	if m.err != nil {
		d.problem = "the last result could not be saved: " + m.err.Error()
		m.text = "Not recorded: " + m.err.Error()
		return m
	}
	d.problem = ""
	d.records = append(d.records, m.rec)
	m.text = "Recorded in " + m.path + "."
	return m
}

// scenarioPrompt is the scenario a drill plays: the --scenario preset, or
// one generated from the seed.
func (c *shared) scenarioPrompt(seed uint64) drill.ScenarioPrompt {
	d := c.drills
	if d.scenario != "" {
		if s, err := scenarios.Find(c.Scenarios, d.scenario); err == nil {
			return drill.PresetPrompt(s)
		}
	}
	return d.content.GeneratedPrompt(c.KB, seed)
}

// drillScreenFor starts the named drill (or the stats). Content that does
// not load is a bug in stackpick; the menu says so instead of starting.
func (c *shared) drillScreenFor(name string) screen.Screen {
	if err := c.drills.load(c.KB); err != nil {
		c.Status = "The drills cannot start: " + err.Error()
		return nil
	}
	switch name {
	case drill.Taxonomy:
		return newTaxonomyScreen(c, nil)
	case drill.Scenario:
		return newScenarioDrillScreen(c, nil)
	case drill.Flags:
		return newFlagsScreen(c, nil)
	case drill.Explain:
		return newExplainScreen(c, nil)
	case drill.Mock:
		return newMockScreen(c)
	case "stats":
		return newDrillStatsScreen(c)
	}
	return nil
}

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
		out = append(out, wrapStyled(b.saved, w, 1, 2, style)...)
	}
	if n := c.drills.notice; n != "" && !b.readOnly {
		out = append(out, wrapStyled("⚠ "+n, w, 1, 2, st.Warn)...)
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

// pager is a page of lines that scrolls: the graded results and the stats.
type pager struct {
	lines []string
	top   int
	h     int
}

func (p *pager) set(lines []string, h int) {
	p.lines, p.h = lines, max(h, 1)
	p.clamp()
}

func (p *pager) clamp() { p.top = max(0, min(p.top, len(p.lines)-p.h)) }

func (p *pager) update(k tea.KeyPressMsg, keys screen.KeyMap) bool {
	switch {
	case key.Matches(k, keys.Up):
		p.top--
	case key.Matches(k, keys.Down):
		p.top++
	case key.Matches(k, keys.PageUp):
		p.top -= max(p.h-1, 1)
	case key.Matches(k, keys.PageDown):
		p.top += max(p.h-1, 1)
	case key.Matches(k, keys.Top):
		p.top = 0
	case key.Matches(k, keys.Bottom):
		p.top = len(p.lines)
	default:
		return false
	}
	p.clamp()
	return true
}

func (p *pager) view() string {
	end := min(len(p.lines), p.top+p.h)
	return strings.Join(p.lines[p.top:end], "\n")
}

// more says how far down the page is, when it does not fit.
func (p *pager) more() string {
	if len(p.lines) <= p.h {
		return ""
	}
	if p.top+p.h >= len(p.lines) {
		return "end"
	}
	return fmt.Sprintf("%d%% ↓", 100*(p.top+p.h)/len(p.lines))
}

// withMore puts the pager's position at the right of a header line.
func withMore(st screen.Styles, line, more string, w int) string {
	if more == "" || w < 30 {
		return truncate(line, w)
	}
	right := st.Muted.Render(" " + more)
	rw := screen.VisibleWidth(right)
	return padRight(truncate(line, w-rw), w-rw) + right
}

// choiceList is a numbered list of answers to pick from: the products of a
// layer, four effects of a flag. Long answers wrap under their number.
type choiceList struct {
	labels []string
	cursor int
}

// update moves the cursor or picks; it reports the index picked, or -1.
// A number key picks at once.
func (l *choiceList) update(k tea.KeyPressMsg, keys screen.KeyMap) int {
	n := len(l.labels)
	switch {
	case key.Matches(k, keys.Up):
		l.cursor = (l.cursor + n - 1) % n
	case key.Matches(k, keys.Down):
		l.cursor = (l.cursor + 1) % n
	case key.Matches(k, keys.Enter):
		return l.cursor
	default:
		if s := k.String(); len(s) == 1 && s[0] >= '1' && int(s[0]-'0') <= n {
			l.cursor = int(s[0] - '1')
			return l.cursor
		}
	}
	return -1
}

// render draws the list w wide; it returns the lines and the first line of
// the cursor's entry, so a small screen can keep it in view.
func (l *choiceList) render(st screen.Styles, w int, focused bool) ([]string, int) {
	var out []string
	at := 0
	for i, label := range l.labels {
		num := fmt.Sprintf("%d ", i+1)
		lines := wrap(label, w-1, 4, 0) // a cell for the selection's trailing space
		if i == l.cursor {
			at = len(out)
		}
		for j, line := range lines {
			text := strings.TrimLeft(line, " ")
			prefix := "    "
			if j == 0 {
				prefix = "  " + num
				if i == l.cursor && focused {
					prefix = "› " + num
				}
			}
			switch {
			case i == l.cursor && focused:
				out = append(out, truncate(st.Selected.Render(prefix+text+" "), w))
			case j == 0:
				out = append(out, truncate(prefix[:2]+st.Key.Render(num)+st.Text.Render(text), w))
			default:
				out = append(out, truncate(prefix+text, w))
			}
		}
	}
	return out, at
}

// newLineInput is a one-line text field with a steady cursor.
func newLineInput(c *shared, placeholder string, w int) textinput.Model {
	ti := textinput.New()
	ti.Prompt = "> "
	ti.Placeholder = placeholder
	ti.CharLimit = 300
	ti.SetStyles(lineInputStyles(c))
	ti.SetWidth(max(w-3, 4))
	return ti
}

// lineInputStyles are a text field's styles for the app's background.
func lineInputStyles(c *shared) textinput.Styles {
	st := textinput.DefaultStyles(c.Styles.Dark)
	st.Cursor.Blink = false
	st.Focused.Prompt = c.Styles.Key
	st.Blurred.Prompt = c.Styles.Muted
	st.Focused.Placeholder = c.Styles.Muted
	st.Blurred.Placeholder = c.Styles.Muted
	return st
}

// markLine is a ✓ or ✗ line, the mark coloured and the text plain.
func markLine(st screen.Styles, right bool, text string, w int) []string {
	mark, style := "✓ ", st.Good
	if !right {
		mark, style = "✗ ", st.Bad
	}
	lines := wrap(text, w, 3, 0)
	lines[0] = " " + style.Render(mark) + strings.TrimLeft(lines[0], " ")
	return lines
}

// itemName says in words what a history item id is about.
func itemName(c *shared, id string) string {
	if c.drills.content == nil {
		return id
	}
	return c.drills.content.ItemName(c.KB, id)
}
