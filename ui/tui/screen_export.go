package tui

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

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

// exportScreen asks where to export the decision memo. The memo is
// rendered once, when the export starts, dated by the app's clock; the
// preview shows exactly those bytes and the file gets exactly those bytes.
type exportScreen struct {
	c      *shared
	path   string
	memo   string
	form   *form
	err    string
	w, h   int
	fw, fh int
}

func newExportScreen(c *shared) *exportScreen {
	date := c.now().Format(time.DateOnly)
	return &exportScreen{
		c:    c,
		path: memoFileName(c, date),
		memo: report.Memo(c.KB, c.session.decision, memoInput(c, date)),
	}
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
// saved to, or else the questionnaire.
func memoInput(c *shared, date string) report.MemoInput {
	s := &c.session
	var o report.Origin
	if sc := scenarioNamed(c.Scenarios, s.scenario); sc != nil {
		o.Scenario = sc
		o.Moved = answerChanges(c.KB, sc.Answers, s.answers)
	} else if s.savedPath != "" && !s.unsaved() {
		o.File = filepath.Base(s.savedPath)
	}
	return o.MemoInput(date)
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

func (s *exportScreen) Title() string { return "Export memo" }

func (s *exportScreen) SetSize(w, h int) {
	s.w, s.h = w, h
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

func (s *exportScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" {
		c.Pop()
		return nil
	}
	cmd := s.form.update(msg)
	if s.form.done() {
		s.err = ""
		c.Push(newMemoPreviewScreen(c, s))
	}
	return cmd
}

func (s *exportScreen) View() string { return pathPromptView(s.c, s.form, s.err, s.w) }

func (s *exportScreen) Help() screen.KeyHelp { return pathPromptHelp("preview") }

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
