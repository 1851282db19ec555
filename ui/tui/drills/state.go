package drills

import (
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// State is what the exit-test drills share for as long as the app runs:
// their content, the history as last read, the clock, and where results
// go. The app makes one (NewState) and hands it to Menu and Open. Grading
// is the drill package's; this only feeds it and keeps the record.
type State struct {
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

	// writes are the records handed to the app to append and not yet
	// known to be on disk; Flush finishes them when the app ends.
	mu     sync.Mutex
	writes []*recordWrite
}

// recordWrite appends one record, once: from the app's command, or from
// Flush if the app ends first.
type recordWrite struct {
	once sync.Once
	run  func() historyKept
	kept historyKept
}

func (w *recordWrite) do() historyKept {
	w.once.Do(func() { w.kept = w.run() })
	return w.kept
}

// Flush waits for the records handed to the app to be on disk, writing
// any whose command the app never ran: a drill finished just before the
// app quits is kept all the same. The app calls it once it has stopped.
func (d *State) Flush() {
	d.mu.Lock()
	writes := d.writes
	d.writes = nil
	d.mu.Unlock()
	for _, w := range writes {
		w.do()
	}
}

// Options are the drills' settings from the command line.
type Options struct {
	// HistoryPath is the drill history file; empty means the XDG state
	// folder's.
	HistoryPath string
	// Seed seeds the first drill (question order, generated scenario); nil
	// seeds every drill from the clock.
	Seed *uint64
	// Scenario plays the scenario drill on this preset instead of a
	// generated scenario.
	Scenario string
}

// NewState keeps the drills on the app's clock, the one that dates memos:
// it stamps records, seeds drills and times the explanation.
func NewState(opts Options, now func() time.Time) *State {
	d := &State{path: opts.HistoryPath, seed: opts.Seed, scenario: opts.Scenario, now: now}
	d.after = func(dur time.Duration, msg tea.Msg) tea.Cmd {
		return tea.Tick(dur, func(time.Time) tea.Msg { return msg })
	}
	return d
}

// stamp names a set-aside history file.
func (d *State) stamp() string { return d.now().UTC().Format("20060102T150405") }

// load reads the drill content and the history once.
func (d *State) load(kb *knowledge.KB) error {
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
func (d *State) nextSeed() uint64 {
	if d.seed != nil {
		s := *d.seed
		d.seed = nil
		return s
	}
	// Six digits, so a seed is easy to type back (--seed N replays it).
	return uint64(d.now().UnixMicro()) % 1_000_000
}

func (d *State) misses() drill.Misses { return store.Misses(d.records) }

// historyKept says what became of a finished drill's record. The drills'
// state takes it in first (Settle), whether or not the screen that
// finished the drill is still open; then it goes to that screen, which
// shows text under the score.
type historyKept struct {
	d      *State
	to     screen.Screen
	rec    store.Record
	path   string
	notice string
	err    error
	text   string // set by State.kept when the message arrives
}

func (m historyKept) Recipient() screen.Screen { return m.to }

func (m historyKept) Settle() tea.Msg { return m.d.kept(m) }

// record stamps a finished drill from the app's clock and returns the
// command that appends it to the history, so the file is written off the
// update loop. Without a history file there is nothing to run, and the
// text says why at once.
func (d *State) record(to screen.Screen, rec store.Record) (string, tea.Cmd) {
	rec.At = d.now().UTC().Format(time.RFC3339)
	if d.path == "" {
		return "Not recorded: " + d.problem, nil
	}
	path, stamp := d.path, d.stamp()
	w := &recordWrite{run: func() historyKept {
		notice, err := store.AppendHistory(path, rec, stamp)
		return historyKept{d: d, to: to, rec: rec, path: path, notice: notice, err: err}
	}}
	d.mu.Lock()
	d.writes = append(d.writes, w)
	d.mu.Unlock()
	return "", func() tea.Msg {
		kept := w.do()
		d.mu.Lock()
		d.writes = slices.DeleteFunc(d.writes, func(x *recordWrite) bool { return x == w })
		d.mu.Unlock()
		return kept
	}
}

// kept takes in what became of a record, whether or not the screen that
// finished the drill is still open: the history as it now is on disk, and
// the line the result shows.
func (d *State) kept(m historyKept) historyKept {
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

// itemName says in words what a history item id is about.
func itemName(c *shared, id string) string {
	if c.drills.content == nil {
		return id
	}
	return c.drills.content.ItemName(c.KB, id)
}
