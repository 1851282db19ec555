package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// savedMsg reports how writing the answers file went.
type savedMsg struct {
	path string
	err  error
}

// saveScreen asks where to save the answers and writes them atomically; an
// existing file is replaced only after a yes. Once the file is written it
// says where, in full, and gives the command that replays it, wrapped
// rather than cut (a status line would cut both at 80 columns), with c to
// copy the command whole.
type saveScreen struct {
	c      *shared
	path   string
	form   *form
	err    string
	w, h   int
	fw, fh int
	saved  string // the file written, absolute; "" until it is
	replay string // the command that replays it
	top    int    // the first line shown of what was saved, scrolled
	saving bool   // a write is under way: the form is done, the result not in
}

func newSaveScreen(c *shared) *saveScreen {
	path := c.session.savedPath
	if path == "" {
		path = "answers.toml"
		if c.session.scenario != "" {
			path = c.session.scenario + "-answers.toml"
		}
	}
	return &saveScreen{c: c, path: path}
}

func (s *saveScreen) Title() string {
	if s.saved != "" {
		if n := len(s.savedLines()); n > s.h {
			top := s.savedTop()
			return fmt.Sprintf("Answers saved %d–%d of %d", top+1, min(top+s.h, n), n)
		}
		return "Answers saved"
	}
	return "Save answers"
}

func (s *saveScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.form = resizePrompt(s.form, &s.fw, &s.fh, w, h, func(fw, fh int) *form { return saveForm(s.c, fw, fh, &s.path) })
}

// resizePrompt gives a path prompt's form for a w×h screen: the same form
// while it is in progress at the same size (typing is never lost), else a
// new one built with the path as it stands.
func resizePrompt(f *form, fw, fh *int, w, h int, build func(fw, fh int) *form) *form {
	nw, nh := w-2, max(min(h-3, 8), 3)
	if f != nil && !f.done() && nw == *fw && nh == *fh {
		return f
	}
	*fw, *fh = nw, nh
	f = build(nw, nh)
	f.init()
	return f
}

// answersFile is the TOML the CLI reads back: the answers with a header
// saying what they decided and how to replay them.
// A story the opened file told in its leading comment stays above it.
func answersFile(c *shared, path string) []byte {
	header := report.AnswersHeader(c.KB, c.session.decision, c.session.origin, replayCommand(c.kbDir, path))
	if c.session.savedPath != "" {
		if data, err := knowledge.ReadInput(expandHome(c.session.savedPath), knowledge.AnswersFile); err == nil {
			if story := fileStory(data); story != "" {
				header = story + "\n" + header
			}
		}
	}
	return c.session.answers.TOML(header)
}

// fileStory is the leading comment of an answers file (the lines before
// the first non-comment line or question page) without the lines stackpick writes
// itself, so saving again keeps the user's story once and drops the old
// stack and replay lines.
func fileStory(data []byte) string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		text, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		text = strings.TrimSpace(text)
		if strings.HasPrefix(text, "--- ") {
			break // the first question page: the header is over
		}
		if strings.HasPrefix(text, "stackpick answers:") || strings.HasPrefix(text, "Stack: ") || strings.HasPrefix(text, "Replay: ") {
			continue
		}
		out = append(out, text)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// replayCommand is the command that decides again from the answers file
// path. Answers decided over a knowledge overlay replay only with it, so
// its folder is named, made absolute to work from anywhere.
func replayCommand(kbDir, path string) string {
	cmd := "stackpick decide"
	if kbDir != "" {
		if abs, err := filepath.Abs(expandHome(kbDir)); err == nil {
			kbDir = abs
		}
		cmd += " --kb " + report.ShellQuote(kbDir)
	}
	return cmd + " --answers " + report.ShellQuote(path)
}

// save writes the file off the UI goroutine and reports back.
func (s *saveScreen) save(overwrite bool) tea.Cmd {
	path := expandHome(strings.TrimSpace(s.path))
	data := answersFile(s.c, filepath.Base(path))
	return func() tea.Msg {
		return savedMsg{path: path, err: store.WriteFile(path, data, overwrite)}
	}
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

func (s *saveScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if s.saved != "" {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			return s.savedKey(k)
		}
		return nil
	}
	switch msg := msg.(type) {
	case savedMsg:
		s.saving = false
		switch {
		case errors.Is(msg.err, store.ErrExists):
			return c.Confirm("Replace "+msg.path+"?",
				"The file exists. Yes replaces it in one step (never half-written); no keeps it and lets you pick another name.",
				func(yes bool) tea.Cmd {
					c.Pop()
					if yes {
						s.saving = true
						return s.save(true)
					}
					s.restart()
					return nil
				})
		case msg.err != nil:
			s.err = "Not saved: " + msg.err.Error()
			s.restart()
		default:
			c.session.markSaved(msg.path)
			s.saved, s.replay = msg.path, replayCommand(c.kbDir, msg.path)
			if abs, err := filepath.Abs(msg.path); err == nil {
				s.saved = abs
			}
		}
		return nil
	case tea.KeyPressMsg:
		if s.saved != "" {
			return s.savedKey(msg)
		}
		if msg.String() == "esc" {
			c.Pop()
			return nil
		}
	}
	cmd := s.form.update(msg)
	if s.form.done() && !s.saving {
		// Once: the form stays done while the file is written, and
		// messages that come meanwhile (a blink) must not write it again.
		s.err = ""
		s.saving = true
		return tea.Batch(cmd, s.save(false))
	}
	return cmd
}

// restart gives the path prompt back after a refusal or an error.
func (s *saveScreen) restart() {
	s.form = nil
	s.SetSize(s.w, s.h)
}

// savedKey handles a key once the file is written: c copies the replay
// command, enter or q/esc goes back to the decision, and the arrows scroll
// what a small terminal cannot show at once.
func (s *saveScreen) savedKey(k tea.KeyPressMsg) tea.Cmd {
	c := s.c
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Copy):
		c.Status = "Copied the replay command"
		return tea.SetClipboard(s.replay)
	case key.Matches(k, keys.Back, keys.Enter):
		c.Status = "Saved " + filepath.Base(s.saved)
		c.Pop()
	default:
		s.top = scrollTop(keys, k, s.top, s.h, len(s.savedLines()))
	}
	s.top = s.savedTop()
	return nil
}

// scrollTop is the first line shown of a text of n lines in h rows after
// key k: the arrows move a line, the page keys a screen, home and end to
// the ends; any other key leaves top as it is.
func scrollTop(keys screen.KeyMap, k tea.KeyPressMsg, top, h, n int) int {
	switch {
	case key.Matches(k, keys.Up):
		top--
	case key.Matches(k, keys.Down):
		top++
	case key.Matches(k, keys.PageUp):
		top -= h
	case key.Matches(k, keys.PageDown):
		top += h
	case key.Matches(k, keys.Top):
		top = 0
	case key.Matches(k, keys.Bottom):
		top = n
	}
	return max(0, min(top, n-max(h, 1)))
}

// savedTop is the first line shown of the saved screen: where it was
// scrolled to, within its lines at the present size.
func (s *saveScreen) savedTop() int {
	return max(0, min(s.top, len(s.savedLines())-max(s.h, 1)))
}

func (s *saveScreen) View() string {
	if s.saved != "" {
		lines := s.savedLines()
		top := s.savedTop()
		return strings.Join(lines[top:min(top+max(s.h, 1), len(lines))], "\n")
	}
	return pathPromptView(s.c, s.form, s.err, s.w, s.h)
}

// savedLines say where the answers went and how to replay them: "✓ Saved
// to" and the file, in full, then the replay command, whole, each broken
// only at its spaces and a long path after a /; above them the stack when
// everything fits the screen with it. When the two do not fit together, a
// line "✓ Saved NAME" comes first, then the command (whole on the first
// screen where it fits), then the file in full, scrolled to: the file is
// always on the screen's lines (at 40x12 it was dropped for the command,
// and could not be scrolled to).
func (s *saveScreen) savedLines() []string {
	c, w := s.c, s.w
	st := c.Styles
	cmd := []string{" " + st.Heading.Render("Replay this decision with")}
	for _, l := range wrapCommand(s.replay, w-3) {
		cmd = append(cmd, "   "+st.Text.Render(l))
	}
	file := []string{" " + st.Good.Render("✓") + " " + st.Heading.Render("Saved to")}
	for _, l := range wrapCommand(s.saved, w-3) {
		file = append(file, "   "+st.Text.Render(l))
	}
	stack := []string{truncate(" "+st.Muted.Render("Stack: ")+st.Pick.Render(report.StackLine(c.KB, c.session.decision)), w)}
	out := slices.Concat(file, []string{""}, cmd)
	if len(out) > s.h {
		first := truncate(" "+st.Good.Render("✓")+" "+st.Heading.Render("Saved")+" "+st.Text.Render(filepath.Base(s.saved)), w)
		out = slices.Concat([]string{first, ""}, cmd, []string{""}, file)
	}
	if len(stack)+1+len(out) <= s.h {
		out = slices.Concat(stack, []string{""}, out)
	}
	return out
}

// wrapCommand breaks a command (or a path) into lines of at most width
// cells so that it reads back whole: at its spaces, and a word too long
// for a line (a path) starts a line of its own and breaks after a /, each
// piece as long as the line allows; only a piece between two slashes wider
// than the whole line is cut, at the edge.
func wrapCommand(cmd string, width int) []string {
	width = max(width, 1)
	var lines []string
	line := ""
	put := func(piece string, space bool) {
		sep := ""
		if space && line != "" {
			sep = " "
		}
		if line != "" && ansi.StringWidth(line+sep+piece) > width {
			lines, line, sep = append(lines, line), "", ""
		}
		line += sep + piece
	}
	for _, word := range strings.Split(cmd, " ") {
		if ansi.StringWidth(word) <= width {
			put(word, true)
			continue
		}
		if line != "" {
			lines, line = append(lines, line), ""
		}
		for _, piece := range strings.SplitAfter(word, "/") {
			for pw := ansi.StringWidth(piece); pw > width; pw = ansi.StringWidth(piece) {
				// Wider than a line: it runs on from where the line is to
				// its edge.
				room := width - ansi.StringWidth(line)
				if room == 0 {
					lines, line, room = append(lines, line), "", width
				}
				line += ansi.Cut(piece, 0, room)
				piece = ansi.Cut(piece, room, pw)
			}
			put(piece, false)
		}
	}
	return append(lines, line)
}

func (s *saveScreen) Help() screen.KeyHelp {
	if s.saved != "" {
		k := s.c.Keys
		copyKey := screen.WithHelp(k.Copy, "copy the replay command")
		back := key.NewBinding(key.WithKeys("enter", "esc", "q"), key.WithHelp("enter/q/esc", "back to the decision"))
		short := []key.Binding{screen.WithHelp(k.Copy, "copy command"), key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "back"))}
		full := [][]key.Binding{{copyKey, back}}
		if len(s.savedLines()) > s.h {
			short = append(short, key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll")))
			full = append(full, []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom})
		}
		return screen.KeyHelp{Short: short, Full: full}
	}
	return pathPromptHelp("save")
}

// pathPromptView draws a path prompt (save answers, export a memo): the
// stack it concerns, the form, and the last error under it.
func pathPromptView(c *shared, f *form, errText string, w, h int) string {
	st := c.Styles
	out := []string{truncate(" "+st.Muted.Render("Stack: ")+st.Pick.Render(report.StackLine(c.KB, c.session.decision)), w), ""}
	form := strings.Split(screen.Indent(f.view(), 1), "\n")
	if p := f.problem(); p != "" && errText == "" {
		// What was just typed is refused (huh's own error display is
		// off); a screen's own error, more specific, goes first.
		errText = report.Capitalize(p) + "."
	}
	if errText != "" {
		// The form pads itself to its height: the error goes right under
		// what it holds, so a small terminal shows it.
		for len(form) > 0 && strings.TrimSpace(ansi.Strip(form[len(form)-1])) == "" {
			form = form[:len(form)-1]
		}
		errLines := append([]string{""}, wrapStyled(errText, w, 1, 0, st.Error)...)
		// In h rows the error and the field it is about must show: the
		// stack line goes first, then the form's title and description
		// from the top, never the field's own line.
		for len(out)+len(form)+len(errLines) > h && h > 0 {
			switch {
			case len(out) > 0:
				out = out[1:]
			case len(form) > 2:
				form = form[1:]
			default:
				h = 0 // nothing more to give up
			}
		}
		form = append(form, errLines...)
	}
	return strings.Join(append(out, form...), "\n")
}

// pathPromptHelp is the keys of a path prompt; enter does action.
func pathPromptHelp(action string) screen.KeyHelp {
	do := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", action))
	cancel := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	return screen.KeyHelp{
		Short: []key.Binding{do, cancel},
		Full:  [][]key.Binding{{do, cancel}},
	}
}
