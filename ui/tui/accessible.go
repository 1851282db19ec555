package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
)

// runAccessible is the app for screen readers: numbered prompts read line
// by line (huh's accessible mode) on stderr, the same pages and defaults as
// the full-screen questionnaire, then the decision as plain text on stdout
// and offers to save the answers and to export the memo.
func runAccessible(kb *knowledge.KB, list []scenarios.Scenario, opts Options) error {
	in := opts.Stdin
	if in == nil {
		in = os.Stdin
	}
	// huh's prompts take end of file for "keep the answer": read through a
	// watch, the prompts end where the input does (see accessible).
	in = &inputWatch{r: in, atLineStart: true}
	// Screen readers read escape codes aloud: strip them all.
	prompts := &colorprofile.Writer{Forward: opts.Stderr, Profile: colorprofile.NoTTY}
	// Text is wrapped at spaces to the terminal, so no word is cut at its
	// edge; 80 columns when it cannot be measured (a pipe, a test).
	width := accessibleWidth(opts.Stderr)

	start := ""
	choices := []choice{{"Defaults (a new decision)", ""}}
	for _, sc := range list {
		choices = append(choices, choice{sc.Title, sc.Name})
	}
	if err := askChoice(in, prompts, "Start from", choices, &start); err != nil {
		return err
	}
	answers, origin := kb.Defaults(), "New decision"
	for _, sc := range list {
		if sc.Name == start {
			answers, origin = sc.Answers.Clone(), sc.Title
		}
	}
	for i, p := range questionPages(kb) {
		fmt.Fprintf(prompts, "\nPage %d of %d: %s\n", i+1, len(questionPages(kb)), p.name)
		var bs []*binding
		for _, q := range p.questions {
			bs = append(bs, bindingFor(q, answers))
		}
		if err := askQuestions(in, prompts, kb, bs, width); err != nil {
			return err
		}
		before := answers
		for _, b := range bs {
			if v, err := b.value(); err == nil {
				answers = answers.With(kb.QuestionIndex(b.q.Key), v)
			}
		}
		var note string
		if answers, note = reconcile(answers, before); note != "" {
			fmt.Fprintln(prompts, note)
		}
	}
	d := decide.Decide(kb, answers)
	out := &colorprofile.Writer{Forward: opts.Stdout, Profile: opts.Profile}
	if out.Profile == colorprofile.Unknown {
		out.Profile = colorprofile.Detect(opts.Stdout, opts.Env)
	}
	if opts.NoColor {
		out.Profile = colorprofile.NoTTY
	}
	fmt.Fprintln(out)
	io.WriteString(out, report.Decision(kb, d, report.Header{Title: origin}, report.DefaultStyles(), accessibleWidth(opts.Stdout)))
	if err := offerSave(in, prompts, width, kb, answers, d, origin, opts.KBDir); err != nil {
		return err
	}
	var o report.Origin
	if sc := scenarioNamed(list, start); sc != nil {
		o.Scenario = sc
		o.Moved = answerChanges(kb, sc.Answers, answers)
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	err := offerExport(in, prompts, width, report.Memo(kb, d, o.MemoInput(now().Format(time.DateOnly))))
	if errors.Is(err, ErrInputEnded) {
		// The answers may be saved by now: say only what was not done.
		return errMemoNotExported
	}
	return err
}

// errMemoNotExported is ErrInputEnded at the last prompt, the memo's.
var errMemoNotExported error = inputEndedError("the input ended before the last answer; the memo was not exported")

// inputEndedError is ErrInputEnded in other words.
type inputEndedError string

func (e inputEndedError) Error() string        { return string(e) }
func (e inputEndedError) Is(target error) bool { return target == ErrInputEnded }

// inputWatch reads the accessible prompts' input and notes where it ends.
// huh reads each answer with a scanner of its own and takes end of file
// for an empty answer (keep the default), so ctrl+d, a closed terminal or
// a short pipe ran the questionnaire to its end with every default and
// exited 0. The watch's end is sticky (a terminal reads one end of file
// per ctrl+d, then waits again), and ended says a prompt found the input
// ended at the start of a line: that prompt got no answer. A last line
// without a newline is still an answer.
type inputWatch struct {
	r           io.Reader
	atLineStart bool
	done        bool
	ended       bool
}

func (w *inputWatch) Read(p []byte) (int, error) {
	if w.done {
		w.end()
		return 0, io.EOF
	}
	n, err := w.r.Read(p)
	if n > 0 {
		w.atLineStart = p[n-1] == '\n'
	}
	if err != nil {
		// The end of file, or a failed read (a terminal gone): the end.
		w.done = true
		if n == 0 {
			w.end()
		}
	}
	return n, err
}

// end notes a read at the input's end: a prompt that reads it at the
// start of a line got no answer; after a last line without a newline the
// next one will not either.
func (w *inputWatch) end() {
	if w.atLineStart {
		w.ended = true
	}
	w.atLineStart = true
}

// endOf is why the prompts end after a prompt read r: ErrHangup when its
// input ended because the terminal went away, errInputEnded when it ended
// otherwise (ctrl+d, a short pipe), nil when the prompt got its answer.
func endOf(r io.Reader) error {
	if b, ok := r.(*blankIsDone); ok {
		r = b.r
	}
	w, ok := r.(*inputWatch)
	if !ok || !w.ended {
		return nil
	}
	if HungUp(w.r) {
		return ErrHangup
	}
	return errInputEnded
}

// accessibleWidth is the width of the terminal w writes to, at most 100
// columns, or 80 when w is not a terminal.
func accessibleWidth(w io.Writer) int {
	if f, ok := w.(term.File); ok && term.IsTerminal(f.Fd()) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols >= 20 {
			return min(cols, 100)
		}
	}
	return 80
}

// offerExport asks for a file name and writes the decision memo there
// (atomically, through ui/store), asking before it replaces a file.
func offerExport(in io.Reader, w io.Writer, width int, memo string) error {
	return offerWrite(in, w, width, "Export the decision memo (Markdown, for an ADR folder) to a file? Type a path, or press enter to skip.", "Memo file:", func(path string, overwrite bool) (string, error) {
		if err := store.WriteFile(path, []byte(memo), overwrite); err != nil {
			return "", err
		}
		return "Exported the memo to " + path + ".", nil
	})
}

// offerWrite asks for a path until write succeeds there or the answer is
// empty; a file that exists is replaced only after a yes.
func offerWrite(in io.Reader, w io.Writer, width int, ask, prompt string, write func(path string, overwrite bool) (string, error)) error {
	for {
		path := ""
		fmt.Fprintln(w)
		for _, l := range wrapWhole(ask, width) {
			fmt.Fprintln(w, l)
		}
		if err := askText(in, w, prompt, &path); err != nil {
			return err
		}
		path = expandHome(strings.TrimSpace(path))
		if path == "" {
			return nil
		}
		done, err := write(path, false)
		if errors.Is(err, store.ErrExists) {
			yes := false
			if err := askYesNo(in, w, path+" exists. Replace it?", &yes); err != nil {
				return err
			}
			if !yes {
				continue
			}
			done, err = write(path, true)
		}
		if err != nil {
			done = fmt.Sprintf("Not written: %v", err)
		}
		for _, para := range strings.Split(done, "\n") {
			if strings.HasPrefix(para, "Replay: ") {
				fmt.Fprintln(w, para) // a command, copied whole: one line
				continue
			}
			for _, l := range wrapWhole(para, width) {
				fmt.Fprintln(w, l)
			}
		}
		if err != nil {
			continue
		}
		return nil
	}
}

// offerSave asks for a file name and writes the answers there, asking
// before it replaces a file.
func offerSave(in io.Reader, w io.Writer, width int, kb *knowledge.KB, a knowledge.Answers, d decide.Decision, origin, kbDir string) error {
	return offerWrite(in, w, width, "Save the answers to a file? Type a path, or press enter to skip.", "Answers file:", func(path string, overwrite bool) (string, error) {
		header := report.AnswersHeader(kb, d, origin, replayCommand(kbDir, path))
		if err := store.WriteFile(path, a.TOML(header), overwrite); err != nil {
			return "", err
		}
		return "Saved " + path + ".\nReplay: " + replayCommand(kbDir, path), nil
	})
}

// blankIsDone reads a multi-select's answers, a bare enter turned into the
// 0 that ends huh's accessible multi-select. It passes reads through as
// they come (a line at a time from a terminal), so it reads no further
// ahead than huh would.
type blankIsDone struct {
	r       io.Reader
	pending []byte
	atStart bool
}

func (b *blankIsDone) Read(p []byte) (int, error) {
	if len(b.pending) == 0 {
		buf := make([]byte, max(len(p), 1))
		n, err := b.r.Read(buf)
		for _, c := range buf[:n] {
			if (c == '\n' || c == '\r') && b.atStart {
				b.pending = append(b.pending, '0')
			}
			b.pending = append(b.pending, c)
			b.atStart = c == '\n'
		}
		if len(b.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// wrapWhole wraps text at spaces to width and never cuts a word: a path
// or a command wider than the line stands alone on its own line, whole,
// for a screen reader to read and a mouse to copy.
func wrapWhole(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
