package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/report/manifest"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// manifestScreen shows the files that deploy the decision's stack, as
// `stackpick manifest` writes them: the list (path, kind) on top, what the
// selected file deploys and the placeholders still to fill under it, and
// the file's text below, scrolling. w writes the set to a folder. A stack
// no writer covers shows why instead. The set is generated when the screen
// opens (the decision cannot change under it) and laid out when it is
// given a size, never while drawing.
type manifestScreen struct {
	c      *shared
	set    *manifest.Set
	why    string // no files: the reason
	files  []store.SetFile
	kinds  []string // each file's kind, as the list shows it
	cursor int
	top    int // the first row of the list shown
	whyTop int // no files: the first line of the reason shown
	vp     viewport.Model
	laid   struct {
		w, h, cursor int
		dark         bool
	}
	w, h int
}

// The manifests screen's own keys.
var (
	manifestWrite = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write to a folder"))
	manifestFile  = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "file"))
)

func newManifestScreen(c *shared) *manifestScreen {
	s := &manifestScreen{c: c, vp: viewport.New()}
	s.set, s.files, s.why = manifestFiles(c, manifestDir(c))
	for _, f := range s.setFiles() {
		s.kinds = append(s.kinds, report.FileKind(f))
	}
	if s.set != nil {
		s.kinds = append(s.kinds, "index")
	}
	return s
}

// manifestFiles generates the set for the session's decision, as the
// command dir's `stackpick manifest` writes it: the files and the index.
func manifestFiles(c *shared, dir string) (*manifest.Set, []store.SetFile, string) {
	req := manifestRequest(c, dir)
	set, err := report.ManifestSet(req)
	if err != nil {
		return nil, nil, err.Error()
	}
	files := make([]store.SetFile, 0, len(set.Files)+1)
	for _, f := range set.Files {
		files = append(files, store.SetFile{Path: f.Path, Data: f.Body})
	}
	files = append(files, store.SetFile{Path: manifest.IndexPath, Data: set.Index(req.Origin, c.version)})
	return set, files, ""
}

// manifestRequest names the session's answers in the files' headers: the
// preset when they are its answers, the answers file when they are saved,
// else the app; the command that writes them again is given only for a
// preset or a saved file (other answers have nothing to replay from).
func manifestRequest(c *shared, dir string) manifest.Request {
	s := &c.session
	origin, scenario, file := "answers entered in stackpick's interactive app", "", ""
	if sc := scenarioNamed(c.Scenarios, s.scenario); sc != nil && answerChanges(c.KB, sc.Answers, s.answers) == "" {
		origin, scenario = "scenario "+sc.Name, sc.Name
	} else if s.savedPath != "" && !s.unsaved() {
		origin, file = "answers "+filepath.Base(s.savedPath), s.savedPath
	}
	cmd := report.ManifestCommand(scenario, file, dir)
	if cmd != "" && c.kbDir != "" {
		kb := c.kbDir
		if abs, err := filepath.Abs(expandHome(kb)); err == nil {
			kb = abs
		}
		cmd = "stackpick --kb " + report.ShellQuote(kb) + strings.TrimPrefix(cmd, "stackpick")
	}
	d := s.decision
	return manifest.Request{KB: c.KB, Decision: &d, Origin: origin, Version: c.version, Command: cmd}
}

func (s *manifestScreen) setFiles() []manifest.File {
	if s.set == nil {
		return nil
	}
	return s.set.Files
}

func (s *manifestScreen) Title() string { return "Deployable files · " + s.c.session.origin }

func (s *manifestScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.layout()
}

// listRows is how many rows of the file list show: all of them when a
// third of the screen holds them, else a third, scrolled.
func (s *manifestScreen) listRows() int {
	return max(1, min(len(s.files), (s.h-3)/3))
}

// layout sizes the preview to what the list and its two lines leave and
// puts the selected file in it.
func (s *manifestScreen) layout() {
	if s.set == nil {
		return
	}
	rows := s.listRows()
	s.top = max(0, min(s.top, len(s.files)-rows))
	if s.cursor < s.top {
		s.top = s.cursor
	} else if s.cursor >= s.top+rows {
		s.top = s.cursor - rows + 1
	}
	s.vp.SetWidth(max(s.w, 1))
	s.vp.SetHeight(max(s.h-rows-3, 1))
	l := &s.laid
	if l.w == s.w && l.h == s.h && l.cursor == s.cursor && l.dark == s.c.Styles.Dark && s.vp.TotalLineCount() > 0 {
		return
	}
	keep := l.cursor == s.cursor
	y := s.vp.YOffset()
	s.vp.SetContentLines(previewLines(s.files[s.cursor].Data, s.w, s.c.Styles.Text.Render))
	if keep {
		s.vp.SetYOffset(y)
	} else {
		s.vp.GotoTop()
	}
	l.w, l.h, l.cursor, l.dark = s.w, s.h, s.cursor, s.c.Styles.Dark
}

// previewLines is a file's text as the preview shows it: each line broken
// at the width with its indentation kept (YAML's meaning is in it), tabs
// as spaces and control characters as "?", so no byte of a file can move
// the cursor or change the terminal.
func previewLines(data []byte, w int, paint func(...string) string) []string {
	text := strings.TrimRight(string(data), "\n")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.Map(func(r rune) rune {
			switch {
			case r == '\t':
				return ' '
			case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
				return '?'
			}
			return r
		}, line)
		// A line broken at the width goes on after a "↪", so a reader
		// never takes the rest of it for a line of its own; it breaks
		// between words where it can, and the rest keeps the line's
		// indentation, since YAML's meaning is in it.
		indent := len(line) - len(strings.TrimLeft(line, " "))
		first := max(w-1, 1)
		pad := min(indent, max(w-2-12, 0))
		rest := max(w-2-pad, 1)
		piece, line := breakAt(line, first, indent)
		out = append(out, " "+paint(piece))
		for line != "" {
			piece, line = breakAt(line, rest, 0)
			out = append(out, " ↪"+strings.Repeat(" ", pad)+paint(piece))
		}
	}
	return out
}

// breakAt splits line into what fits in width cells and the rest: at the
// last space that fits (past the first skip cells, the indentation), or
// at the width when no space does; the rest starts after the space.
func breakAt(line string, width, skip int) (string, string) {
	if ansi.StringWidth(line) <= width {
		return line, ""
	}
	head := ansi.Cut(line, 0, width)
	if i := strings.LastIndex(head, " "); i > 0 && ansi.StringWidth(head[:i]) > skip {
		return head[:i], strings.TrimLeft(line[i:], " ")
	}
	return head, line[len(head):]
}

func (s *manifestScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.layout()
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := c.Keys
	if s.set == nil {
		switch {
		case key.Matches(k, keys.Back, keys.Enter):
			c.Pop()
		case key.Matches(k, keys.Up):
			s.whyTop = max(s.whyTop-1, 0)
		case key.Matches(k, keys.Down):
			s.whyTop++ // View keeps it in range
		case key.Matches(k, keys.PageUp):
			s.whyTop = max(s.whyTop-max(s.h-1, 1), 0)
		case key.Matches(k, keys.PageDown):
			s.whyTop += max(s.h-1, 1)
		}
		return nil
	}
	switch {
	case key.Matches(k, keys.Up):
		s.cursor = max(s.cursor-1, 0)
		s.layout()
	case key.Matches(k, keys.Down):
		s.cursor = min(s.cursor+1, len(s.files)-1)
		s.layout()
	case key.Matches(k, manifestWrite):
		c.Push(newManifestWriteScreen(c))
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.PageUp):
		s.vp.PageUp()
	case key.Matches(k, keys.PageDown):
		s.vp.PageDown()
	case key.Matches(k, keys.Top):
		s.vp.GotoTop()
	case key.Matches(k, keys.Bottom):
		s.vp.GotoBottom()
	}
	return nil
}

func (s *manifestScreen) View() string {
	c, w := s.c, s.w
	st := c.Styles
	if s.set == nil {
		out := wrapStyled("No deployable files for this stack.", w, 1, 0, st.Heading)
		out = append(out, "")
		out = append(out, wrapStyled(strings.TrimSuffix(s.why, ".")+".", w, 1, 0, st.Text)...)
		out = append(out, "")
		out = append(out, wrapStyled("The launch command (l on the result) is what to run.", w, 1, 0, st.Muted)...)
		// Scrolled by the arrows when the reason is longer than the
		// screen, with a line saying there is more.
		h := max(s.h, 1)
		if len(out) <= h {
			return strings.Join(out, "\n")
		}
		s.whyTop = min(max(s.whyTop, 0), len(out)-(h-1))
		shown := append([]string{}, out[s.whyTop:s.whyTop+h-1]...)
		more := fmt.Sprintf(" ↑↓ %d–%d of %d lines", s.whyTop+1, s.whyTop+h-1, len(out))
		return strings.Join(append(shown, st.Muted.Render(ansi.Truncate(more, w, "…"))), "\n")
	}
	var out []string
	rows := s.listRows()
	pathW := 0
	for _, f := range s.files {
		pathW = max(pathW, ansi.StringWidth(f.Path))
	}
	pathW = min(pathW, max(w/2, 10))
	for i := s.top; i < min(s.top+rows, len(s.files)); i++ {
		marker, paint := "  ", st.Text.Render
		if i == s.cursor {
			marker, paint = st.Key.Render("▸ "), st.Pick.Render
		}
		path := padRight(truncate(s.files[i].Path, pathW), pathW)
		out = append(out, truncate(" "+marker+paint(path)+"  "+st.Muted.Render(s.kinds[i]), w))
	}
	deploys := "the index: what each file deploys and the command that applies it, the placeholders, what was checked"
	if s.cursor < len(s.set.Files) {
		deploys = s.set.Files[s.cursor].Deploys
	}
	out = append(out, truncate(" "+st.Muted.Render("Deploys: ")+st.Text.Render(deploys), w))
	// The file's own placeholders still to fill (the index explains all
	// of the set's).
	unfilled := s.set.Unfilled()
	if s.cursor < len(s.set.Files) {
		unfilled = slices.DeleteFunc(slices.Clone(s.set.Files[s.cursor].Placeholders), func(name string) bool { return !slices.Contains(unfilled, name) })
	}
	ph := "none"
	if len(unfilled) > 0 {
		ph = strings.Join(unfilled, ", ")
	}
	out = append(out, truncate(" "+st.Muted.Render("Placeholders to fill: ")+st.Text.Render(ph), w))
	right := ""
	if s.vp.TotalLineCount() > s.vp.Height() {
		right = " " + percent(s.vp.ScrollPercent()) + " "
	}
	name := " " + s.files[s.cursor].Path + " "
	rule := max(w-ansi.StringWidth(name)-ansi.StringWidth(right)-2, 0)
	out = append(out, truncate(st.Muted.Render("─"+name+strings.Repeat("─", rule)+right+"─"), w))
	return strings.Join(out, "\n") + "\n" + s.vp.View()
}

func (s *manifestScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	if s.set == nil {
		scroll := screen.WithHelp(k.Down, "scroll")
		return screen.KeyHelp{Short: []key.Binding{scroll, k.Back}, Full: [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Back}}}
	}
	page := screen.WithHelp(k.PageDown, "scroll the file")
	return screen.KeyHelp{
		Short: []key.Binding{manifestFile, page, manifestWrite, k.Back},
		Full: [][]key.Binding{
			{k.Up, k.Down, manifestWrite, k.Back},
			{k.PageUp, k.PageDown, k.Top, k.Bottom},
		},
	}
}

// manifestsWrittenMsg reports how writing the set went.
type manifestsWrittenMsg struct {
	dir       string
	paths     []string
	leftovers []string // files of the set written there before that stay (store.Leftovers)
	err       error
}

// manifestWriteScreen asks for a folder and writes the set there, through
// store.WriteSet: every file checked first, none replaced without a yes,
// never half a set. The files are generated again for the folder, so their
// headers name the command that writes them there. Once written it lists
// what was written and the placeholders still to fill.
type manifestWriteScreen struct {
	c         *shared
	path      string
	form      *form
	err       string
	writing   bool
	dir       string   // the folder written, absolute; "" until it is
	wrote     []string // the files written, relative to dir
	leftovers []string // files of the set written there before that stay
	unfilled  []manifest.Placeholder
	omits     []string // what the files leave out of the stack
	command   string   // the command that writes them again ("" for answers in no file)
	top       int
	w, h      int
	fw, fh    int
}

func newManifestWriteScreen(c *shared) *manifestWriteScreen {
	return &manifestWriteScreen{c: c, path: manifestDir(c)}
}

// manifestDir is the folder the app offers for the files, and the one the
// preview's headers name: the preset's name before "deploy".
func manifestDir(c *shared) string {
	s := &c.session
	if sc := scenarioNamed(c.Scenarios, s.scenario); sc != nil && answerChanges(c.KB, sc.Answers, s.answers) == "" {
		if name := slug(sc.Name); name != "" {
			return name + "-" + report.ManifestDir
		}
	}
	return report.ManifestDir
}

func (s *manifestWriteScreen) Title() string {
	if s.dir != "" {
		return "Deployable files written"
	}
	return "Write deployable files"
}

func (s *manifestWriteScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.form = resizePrompt(s.form, &s.fw, &s.fh, w, h, func(fw, fh int) *form { return manifestForm(s.c, fw, fh, &s.path) })
}

// write generates the set for the folder and writes it off the UI
// goroutine.
func (s *manifestWriteScreen) write(overwrite bool) tea.Cmd {
	dir := expandHome(strings.TrimSpace(s.path))
	set, files, why := manifestFiles(s.c, strings.TrimSpace(s.path))
	if set == nil {
		return func() tea.Msg { return manifestsWrittenMsg{dir: dir, err: errors.New(why)} }
	}
	s.unfilled, s.omits = nil, set.Omits
	s.command = manifestRequest(s.c, strings.TrimSpace(s.path)).Command
	for _, p := range set.Placeholders {
		if p.Value == "" {
			s.unfilled = append(s.unfilled, p)
		}
	}
	origin, version := manifestRequest(s.c, strings.TrimSpace(s.path)).Origin, s.c.version
	return func() tea.Msg {
		// The set written here before: its files this one does not
		// replace stay, and the index and the screen name them.
		before, _ := knowledge.ReadInput(filepath.Join(dir, manifest.IndexPath), "index of deployable files")
		set.Earlier = store.Leftovers(dir, manifest.Listed(before), files)
		files[len(files)-1] = store.SetFile{Path: manifest.IndexPath, Data: set.Index(origin, version)}
		paths, err := store.WriteSet(dir, files, overwrite)
		return manifestsWrittenMsg{dir: dir, paths: paths, leftovers: set.Earlier, err: err}
	}
}

func (s *manifestWriteScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	switch msg := msg.(type) {
	case manifestsWrittenMsg:
		s.writing = false
		var exists *store.ExistsError
		switch {
		case errors.As(msg.err, &exists):
			them := "them"
			if len(exists.Paths) == 1 {
				them = "it"
			}
			stay := ""
			if n := len(msg.leftovers); n > 0 {
				verb := "stay"
				if n == 1 {
					verb = "stays"
				}
				stay = fmt.Sprintf(" %s of the earlier set %s either way.", countFiles(n), verb)
			}
			return c.Confirm(fmt.Sprintf("Replace %s?", countFiles(len(exists.Paths))),
				"In "+msg.dir+": "+inTheWay(msg.dir, exists.Paths)+". Yes replaces "+them+", all or none; no keeps "+them+"."+stay,
				func(yes bool) tea.Cmd {
					c.Pop()
					if yes {
						s.writing = true
						return s.write(true)
					}
					s.restart()
					return nil
				})
		case msg.err != nil:
			s.err = "Not written: " + msg.err.Error() + ". The folder is as it was: files the write had replaced are back, and none it made is left; pick another folder."
			var re *store.RestoreError
			if errors.As(msg.err, &re) {
				s.err = "Not written: " + msg.err.Error() + ". Every other file is as it was."
			}
			s.restart()
		default:
			s.dir = msg.dir
			if abs, err := filepath.Abs(msg.dir); err == nil {
				s.dir = abs
			}
			s.wrote, s.leftovers = nil, msg.leftovers
			for _, p := range msg.paths {
				if rel, err := filepath.Rel(msg.dir, p); err == nil {
					s.wrote = append(s.wrote, filepath.ToSlash(rel))
				}
			}
			c.Status = fmt.Sprintf("Wrote %s to %s", countFiles(len(msg.paths)), strings.TrimSpace(s.path))
		}
		return nil
	case tea.KeyPressMsg:
		if s.dir != "" {
			return s.writtenKey(msg)
		}
		if msg.String() == "esc" {
			c.Pop()
			return nil
		}
		// A key typed into the folder answers the last error: it goes,
		// and the prompt says what is wrong with what is typed now.
		s.err = ""
	}
	if s.dir != "" {
		return nil
	}
	cmd := s.form.update(msg)
	if s.form.done() && !s.writing {
		s.err = ""
		s.writing = true
		return tea.Batch(cmd, s.write(false))
	}
	return cmd
}

// inTheWay names the files in the way, relative to dir, the first three
// and how many more, so the question and its buttons fit a small screen.
func inTheWay(dir string, paths []string) string {
	var names []string
	for _, p := range paths {
		if rel, err := filepath.Rel(dir, p); err == nil {
			p = filepath.ToSlash(rel)
		}
		names = append(names, p)
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}

func countFiles(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// restart gives the folder prompt back after a refusal or an error.
func (s *manifestWriteScreen) restart() {
	s.form = nil
	s.SetSize(s.w, s.h)
}

// writtenKey: enter or q/esc goes back to the files; the arrows scroll
// what a small terminal cannot show at once.
func (s *manifestWriteScreen) writtenKey(k tea.KeyPressMsg) tea.Cmd {
	keys := s.c.Keys
	switch {
	case key.Matches(k, keys.Back, keys.Enter):
		s.c.Pop()
		return nil
	}
	s.top = scrollTop(keys, k, s.top, s.h, len(s.writtenLines()))
	return nil
}

// writtenLines say where the set went, each file, and the placeholders
// still to fill with what each is.
func (s *manifestWriteScreen) writtenLines() []string {
	st, w := s.c.Styles, s.w
	out := []string{" " + st.Good.Render("✓") + " " + st.Heading.Render("Wrote "+countFiles(len(s.wrote))+" to")}
	for _, l := range wrapCommand(s.dir, w-3) {
		out = append(out, "   "+st.Text.Render(l))
	}
	for _, p := range s.wrote {
		out = append(out, truncate("   "+st.Key.Render(p), w))
	}
	if len(s.leftovers) > 0 {
		// The set written here before: files of it this one did not
		// replace stay, and a folder applied whole would apply them.
		out = append(out, "")
		out = append(out, wrapStyled("Left from the set written here before, not part of this one (kept as they were, they may hold edits; remove them if this stack does not use them):", w, 1, 1, st.Warn)...)
		for _, p := range s.leftovers {
			out = append(out, truncate("   "+st.Key.Render(p), w))
		}
		out = append(out, "", " "+st.Heading.Render("Remove them with:"))
		for _, l := range strings.Split(strings.TrimSuffix(manifest.ShellWrap(report.RemoveCommand(s.dir, s.leftovers), w, 3, 2), "\n"), "\n") {
			out = append(out, st.Text.Render(l))
		}
	}
	for _, o := range s.omits {
		out = append(out, "")
		out = append(out, wrapStyled("Not in these files: "+o+".", w, 1, 2, st.Muted)...)
	}
	if len(s.unfilled) > 0 {
		out = append(out, "")
		out = append(out, wrapStyled("Placeholders to fill (edit the files, envsubst, or stackpick manifest --set NAME=VALUE):", w, 1, 1, st.Heading)...)
		for _, p := range s.unfilled {
			out = append(out, wrapStyled("${"+p.Name+"}: "+p.Explains, w, 3, 5, st.Text)...)
		}
		if s.command != "" {
			fill := append(manifest.ShellWords(s.command), "--force")
			for _, p := range s.unfilled {
				fill = append(fill, "--set", p.Name+"=...")
			}
			out = append(out, "", " "+st.Heading.Render("Fill them all with:"))
			for _, l := range strings.Split(strings.TrimSuffix(manifest.ShellWrap(fill, w, 3, 2), "\n"), "\n") {
				out = append(out, st.Text.Render(l))
			}
		}
	}
	if s.command == "" {
		out = append(out, "")
		out = append(out, wrapStyled("These answers are in no file, so no command writes these files again: save them (s on the result), then stackpick manifest --answers FILE --out DIR.", w, 1, 1, st.Muted)...)
	}
	return out
}

func (s *manifestWriteScreen) View() string {
	if s.dir != "" {
		lines := s.writtenLines()
		top := max(0, min(s.top, len(lines)-max(s.h, 1)))
		return strings.Join(lines[top:min(top+max(s.h, 1), len(lines))], "\n")
	}
	return pathPromptView(s.c, s.form, s.err, s.w, s.h)
}

func (s *manifestWriteScreen) Help() screen.KeyHelp {
	if s.dir != "" {
		k := s.c.Keys
		back := key.NewBinding(key.WithKeys("enter", "esc", "q"), key.WithHelp("enter/q/esc", "back"))
		short := []key.Binding{back}
		full := [][]key.Binding{{back}}
		if len(s.writtenLines()) > s.h {
			short = append(short, key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll")))
			full = append(full, []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom})
		}
		return screen.KeyHelp{Short: short, Full: full}
	}
	return pathPromptHelp("write")
}
