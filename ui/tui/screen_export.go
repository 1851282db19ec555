package tui

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// memoWrittenMsg reports how writing the memo went.
type memoWrittenMsg struct {
	path string
	err  error
}

// exportScreen exports the decision memo in two steps: "About this
// decision" (the memo's title, status, deciders, date and problem,
// prefilled from the answers file or the preset and from the last export;
// ctrl+s goes on with what is typed, ctrl+x skips it leaving the metadata
// as it was), then where to write it. The memo is rendered once,
// when the About step ends, dated by the app's clock; the preview shows
// exactly those bytes and the file gets exactly those bytes.
type exportScreen struct {
	c      *shared
	about  memoAbout
	orig   memoAbout // the About step as it opened, for ctrl+x
	inPath bool      // past the About step
	path   string
	date   string
	memo   string
	form   *form
	err    string
	head   []string // the About step's lines above its form
	w, h   int
	fw, fh int
}

// memoAbout is the About step's fields as typed, with the defaults an
// empty field stands for.
type memoAbout struct {
	title, status, deciders, date, problem string
	defaultTitle, today                    string
}

func newExportScreen(c *shared) *exportScreen {
	date := c.now().Format(time.DateOnly)
	s := &exportScreen{c: c, date: date, path: memoFileName(c, date)}
	s.about = aboutFrom(c, date)
	s.orig = s.about
	return s
}

// aboutFrom prefills the About step: what the session's answers carry (an
// answers file's [memo] table, or the last export's About step), else the
// preset's title, status proposed and today's date.
func aboutFrom(c *shared, today string) memoAbout {
	in := memoInput(c, today)
	v := memoAbout{
		title: in.Title, status: in.Status, deciders: strings.Join(in.Deciders, ", "), date: in.Date, problem: in.Problem,
		defaultTitle: report.DefaultMemoTitle(c.KB, c.session.decision), today: today,
	}
	if v.status == "" {
		v.status = "proposed"
	}
	if v.date == "" {
		v.date = today
	}
	return v
}

// keepAbout stores what the About step says in the session's answers, so
// the next export starts from it and a save writes it to the answers
// file's [memo] table. A field left at what it would be anyway is not
// stored: today's date stays "today", a preset's title stays the preset's.
func (s *exportScreen) keepAbout() {
	c, v := s.c, s.about
	base := report.Origin{}.MemoInput(s.date)
	if sc := scenarioNamed(c.Scenarios, c.session.scenario); sc != nil {
		base.Title = sc.Title
	}
	m := knowledge.Memo{
		Title:    strings.TrimSpace(v.title),
		Status:   strings.TrimSpace(v.status),
		Deciders: knowledge.SplitDeciders(v.deciders),
		Date:     strings.TrimSpace(v.date),
		Problem:  strings.TrimSpace(v.problem),
	}
	if m.Title == base.Title || m.Title == v.defaultTitle {
		m.Title = ""
	}
	if m.Date == s.date {
		m.Date = ""
	}
	if m.Status == "proposed" && c.session.answers.Memo().Status == "" {
		m.Status = ""
	}
	c.session.answers = c.session.answers.WithMemo(m)
}

// toPath ends the About step: the memo is rendered with what it says and
// the path prompt follows.
func (s *exportScreen) toPath() {
	s.inPath = true
	s.memo = report.Memo(s.c.KB, s.c.session.decision, memoInput(s.c, s.date))
	s.form = nil
	s.SetSize(s.w, s.h)
}

// memoFileName is the suggested file: the scenario (or the answers file)
// and the date, e.g. exit-test-2026-11-30.md.
func memoFileName(c *shared, date string) string {
	s := &c.session
	name := slug(s.scenario)
	if name == "" && s.savedPath != "" {
		name = slug(strings.TrimSuffix(filepath.Base(s.savedPath), filepath.Ext(s.savedPath)))
	}
	if name == "" {
		name = "stackpick-decision"
	}
	return name + "-" + date + ".md"
}

// slug keeps letters and digits, lower-cased, and joins the rest with
// single hyphens.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// memoInput is report's memo input for the session's answers: a preset,
// with the answers changed in the app named, or the file the answers were
// saved to, or else the questionnaire; then the memo metadata the answers
// carry (an answers file's [memo] table, the About step) over it.
func memoInput(c *shared, date string) report.MemoInput {
	s := &c.session
	var o report.Origin
	if sc := scenarioNamed(c.Scenarios, s.scenario); sc != nil {
		o.Scenario = sc
		o.Moved = answerChanges(c.KB, sc.Answers, s.answers)
	} else if s.savedPath != "" && !s.unsaved() {
		o.File = filepath.Base(s.savedPath)
	}
	base := o.MemoInput(date)
	if o.Moved != "" {
		// The preset's title describes the preset's answers, not these:
		// the memo is titled by what it decides unless a title is typed.
		base.Title = ""
	}
	in := base.WithMemo(s.answers.Memo())
	if label, d, ok := pinnedForMemo(c); ok {
		in.Pinned = &report.PinnedDecision{Label: label, Decision: d}
	}
	return in
}

func scenarioNamed(list []scenarios.Scenario, name string) *scenarios.Scenario {
	for i := range list {
		if list[i].Name == name && name != "" {
			return &list[i]
		}
	}
	return nil
}

// answerChanges lists the answers that differ between from and to, as
// "key old → new" joined by "; ".
func answerChanges(kb *knowledge.KB, from, to knowledge.Answers) string {
	var parts []string
	for _, c := range kb.Diff(from, to) {
		parts = append(parts, c.Q.Key+" "+c.FromText()+" → "+c.ToText())
	}
	return strings.Join(parts, "; ")
}

func (s *exportScreen) Title() string {
	if !s.inPath {
		return "About this decision"
	}
	return "Export memo"
}

func (s *exportScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if !s.inPath {
		// The About form keeps what was typed across a resize: its fields
		// write to s.about as they change.
		s.head = wrapStyled("Fields take ? as text; f1 is help.", w, 1, 0, s.c.Styles.Muted)
		nw, nh := w-2, max(h-4-len(s.head), 3) // two lines kept for an error
		if s.form == nil || s.form.done() || nw != s.fw || nh != s.fh {
			s.fw, s.fh = nw, nh
			s.form = aboutForm(s.c, nw, nh, &s.about)
			s.form.init()
		}
		return
	}
	// A finished form (back from the preview or a refusal) starts again
	// with the path as it was typed.
	s.form = resizePrompt(s.form, &s.fw, &s.fh, w, h, func(fw, fh int) *form { return exportForm(s.c, fw, fh, &s.path) })
}

// write writes the memo off the UI goroutine and reports back.
func (s *exportScreen) write(overwrite bool) tea.Cmd {
	path := expandHome(strings.TrimSpace(s.path))
	data := []byte(s.memo)
	return func() tea.Msg {
		return memoWrittenMsg{path: path, err: store.WriteFile(path, data, overwrite)}
	}
}

// The About step's two ways on: ctrl+s keeps what is on screen (as enter
// on the last field does), ctrl+x drops what was typed here and keeps the
// metadata as it was when the step opened.
var (
	acceptAbout = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "go on with these"))
	skipAbout   = key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "skip, no changes"))
)

// TakesQuestionMark: the About step's fields are free text (the status
// select aside), where a problem statement is often a question, so "?" is
// a question mark there and f1 opens the help. The path prompt keeps "?"
// for help, as the app's other path prompts do.
func (s *exportScreen) TakesQuestionMark() bool {
	if s.inPath || s.form == nil {
		return false
	}
	fl := s.form.f.GetFocusedField()
	return fl == nil || fl.GetKey() != "status"
}

// takeFocused stores the focused field's text as typed so far in s.about:
// huh stores a field's value only when the field is left.
func (s *exportScreen) takeFocused() {
	fl := s.form.f.GetFocusedField()
	if fl == nil {
		return
	}
	v, ok := fl.GetValue().(string)
	if !ok {
		return
	}
	switch fl.GetKey() {
	case "title":
		s.about.title = v
	case "status":
		s.about.status = v
	case "deciders":
		s.about.deciders = v
	case "date":
		s.about.date = v
	case "problem":
		s.about.problem = v
	}
}

func (s *exportScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "esc":
			c.Pop()
			return nil
		case !s.inPath && key.Matches(k, acceptAbout):
			s.takeFocused()
			if e := knowledge.CheckMemoDate("date", strings.TrimSpace(s.about.date)); e != nil {
				s.err = "Date: " + e.Problem + "; write it YYYY-MM-DD, for example " + s.about.today + ". Fix it, or ctrl+x to skip without changes."
				return nil
			}
			s.keepAbout()
			s.toPath()
			return nil
		case !s.inPath && key.Matches(k, skipAbout):
			s.about = s.orig
			s.err = ""
			s.toPath()
			return nil
		}
	}
	cmd := s.form.update(msg)
	if !s.inPath {
		// The form's own errors are off: the date's is said under it.
		s.err = ""
		date := s.about.date
		if typed, ok := s.form.focusedText("date"); ok {
			date = typed
		}
		if e := knowledge.CheckMemoDate("date", strings.TrimSpace(date)); e != nil {
			s.err = "Date: " + e.Problem + "; write it YYYY-MM-DD, for example " + s.about.today + "."
		}
	}
	if s.form.done() {
		if !s.inPath {
			s.keepAbout()
			s.toPath()
			return cmd
		}
		s.err = ""
		c.Push(newMemoPreviewScreen(c, s))
	}
	return cmd
}

func (s *exportScreen) View() string {
	if !s.inPath {
		return strings.Join(s.head, "\n") + "\n" + pathPromptView(s.c, s.form, s.err, s.w, s.h-len(s.head))
	}
	return pathPromptView(s.c, s.form, s.err, s.w, s.h)
}

func (s *exportScreen) Help() screen.KeyHelp {
	if !s.inPath {
		next := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next field"))
		cancel := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the export"))
		return screen.KeyHelp{
			// The ways on first, so a narrow footer keeps them.
			Short: []key.Binding{acceptAbout, skipAbout, next, cancel},
			Full:  [][]key.Binding{{next, acceptAbout, skipAbout, cancel}},
		}
	}
	return pathPromptHelp("preview")
}

// written handles the outcome of a write, from the preview: a refusal to
// overwrite asks first, an error goes back to the path with the reason,
// success goes back to the result and says where the memo is.
func (s *exportScreen) written(msg memoWrittenMsg) tea.Cmd {
	c := s.c
	switch {
	case errors.Is(msg.err, store.ErrExists):
		return c.Confirm("Replace "+msg.path+"?",
			"The file exists. Yes replaces it in one step (never half-written); no keeps it and lets you pick another name.",
			func(yes bool) tea.Cmd {
				c.Pop()
				if yes {
					return s.write(true)
				}
				c.Pop() // the preview: back to the path
				return nil
			})
	case msg.err != nil:
		s.err = "Not exported: " + msg.err.Error() + ". Nothing was written; pick another path."
		c.Pop()
	default:
		c.Status = "Exported " + msg.path
		c.PopTo(func(sc screen.Screen) bool { _, ok := sc.(*resultScreen); return ok })
	}
	return nil
}
