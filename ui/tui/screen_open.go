package tui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// Opened is an answers file the command line has read and checked
// (`stackpick open FILE`, `stackpick --answers FILE`): the app starts on
// its result, and saving writes back to Path.
type Opened struct {
	Path    string
	Answers knowledge.Answers
}

// openAtStart opens the app on o's result, over the home screen, so back
// goes home and Resume returns to it. Nil leaves the app at home.
func openAtStart(c *shared, o *Opened) {
	if o == nil {
		return
	}
	startFromFile(c, o.Path, o.Answers)
	c.Push(newResultScreen(c))
}

// startFromFile makes the answers read from path the session's, named by
// their [memo] title or else the file's name, with path as where they were saved: s writes back to
// it, and nothing is unsaved until an answer changes.
func startFromFile(c *shared, path string, a knowledge.Answers) {
	c.session.start(c.Decider, a, report.AnswersTitle(a, filepath.Base(path)), "")
	c.session.markSaved(path)
}

// readAnswersFile reads and checks an answers file with the parser of
// `stackpick decide --answers`: a leading ~/ is the home folder, and every
// problem names the file and line, what is allowed, and what to type
// instead.
func readAnswersFile(kb *knowledge.KB, path string) (knowledge.Answers, error) {
	data, err := knowledge.ReadInput(expandHome(path), knowledge.AnswersFile)
	if err != nil {
		var e *knowledge.Error
		if errors.As(err, &e) {
			e.File = path // as typed, ~/ and all
			switch {
			case errors.Is(err, fs.ErrNotExist):
				e.Hint = "check the path (tab completes it), or esc and load a preset from Home"
			case errors.Is(err, knowledge.ErrNotRegular):
				e.Hint = "type the path of an answers file (tab completes it)"
			}
		}
		return knowledge.Answers{}, err
	}
	return kb.ParseAnswers(path, data)
}

// openedMsg reports how reading the answers file went.
type openedMsg struct {
	path    string
	answers knowledge.Answers
	err     error
}

// openScreen asks for an answers file and opens its decision, result
// first. A file that does not load keeps the screen, the typed path and
// the session as they were, with every problem listed under the path.
type openScreen struct {
	c       *shared
	input   textinput.Model
	err     string
	choices []string // what tab found when it could not complete alone
	w, h    int
}

func newOpenScreen(c *shared) *openScreen {
	ti := textinput.New()
	ti.Prompt = "> "
	ti.Placeholder = "answers.toml"
	ti.CharLimit = 1024
	st := textinput.DefaultStyles(c.Styles.Dark)
	st.Cursor.Blink = false
	st.Focused.Prompt = c.Styles.Key
	st.Focused.Placeholder = c.Styles.Muted
	ti.SetStyles(st)
	ti.SetValue(c.session.savedPath)
	ti.Focus()
	return &openScreen{c: c, input: ti}
}

func (s *openScreen) Title() string { return "Open answers file" }

func (s *openScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.input.SetWidth(max(w-4, 4))
}

// open reads the file off the UI goroutine and reports back.
func (s *openScreen) open() tea.Cmd {
	path := strings.TrimSpace(s.input.Value())
	kb := s.c.KB
	return func() tea.Msg {
		a, err := readAnswersFile(kb, path)
		return openedMsg{path: path, answers: a, err: err}
	}
}

func (s *openScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	switch msg := msg.(type) {
	case openedMsg:
		if msg.err != nil {
			s.err = msg.err.Error()
			return nil
		}
		then := func() tea.Cmd {
			startFromFile(c, msg.path, msg.answers)
			c.Replace(newResultScreen(c))
			return nil
		}
		return replaceAnswers(c, "Open "+msg.path+"?", then)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc":
			c.Pop()
			return nil
		case "enter":
			s.choices = nil
			if strings.TrimSpace(s.input.Value()) == "" {
				s.err = "Type the path of an answers file, for example answers.toml (tab completes)."
				return nil
			}
			s.err = ""
			return s.open()
		case "tab":
			s.complete()
			return nil
		}
		s.choices = nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return cmd
}

// complete is tab: the path typed so far completed as far as the files
// in its folder agree, a folder ending in "/"; when several fit, they are
// listed under the field.
func (s *openScreen) complete() {
	typed := s.input.Value()
	done, choices := completePath(typed)
	s.choices = choices
	s.err = ""
	if done != typed {
		s.input.SetValue(done)
		s.input.CursorEnd()
	}
	if done == typed && len(choices) == 0 {
		s.err = "No file or folder starts with " + typed + "."
	}
}

// completePath completes typed from the folder it names (a leading ~/ is
// the home folder, and stays ~/ in what comes back). It returns the
// longest completion every match shares and, when more than one matches,
// their names (folders end in "/"). Hidden files are offered only when
// the name typed starts with a dot.
func completePath(typed string) (string, []string) {
	dir, base := filepath.Split(typed)
	list := dir
	if list == "" {
		list = "."
	}
	entries, err := os.ReadDir(expandHome(list))
	if err != nil {
		return typed, nil
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if e.IsDir() {
			n += "/"
		} else if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(expandHome(list), n)); err == nil && fi.IsDir() {
				n += "/"
			}
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return typed, nil
	}
	slices.Sort(names)
	common := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, common) {
			common = common[:len(common)-1]
		}
	}
	if len(names) == 1 {
		return dir + common, nil
	}
	return dir + common, names
}

func (s *openScreen) View() string {
	c := s.c
	st := c.Styles
	w := s.w
	out := []string{" " + st.Title.Render("Open an answers file"), "", " " + s.input.View()}
	if s.err != "" {
		out = append(out, "")
		for _, l := range strings.Split(s.err, "\n") {
			out = append(out, wrapStyled(l, w, 1, 2, st.Error)...)
		}
	}
	if len(s.choices) > 0 {
		out = append(out, "")
		room := max(s.h-len(out), 1)
		shown := s.choices
		if len(shown) > room {
			shown = append(slices.Clone(shown[:room-1]), "…")
		}
		for _, n := range shown {
			out = append(out, truncate("   "+st.Muted.Render(n), w))
		}
	}
	// What the file is, when there is room for it under the rest.
	about := wrapStyled("A TOML file of answers: saved here with s, or written by hand (the keys are in 'stackpick questions'). It opens at its result; s saves back to it.", w, 1, 0, st.Muted)
	if len(out)+1+len(about) <= s.h {
		out = append(append(out, ""), about...)
	}
	return strings.Join(out, "\n")
}

func (s *openScreen) Help() screen.KeyHelp {
	open := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	tab := key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete the path"))
	cancel := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	return screen.KeyHelp{
		Short: []key.Binding{open, tab, cancel},
		Full:  [][]key.Binding{{open, tab, cancel}},
	}
}
