package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The help pages are stackpick's own, laid out as fang lays them out
// (fang's palette, its headings, usage, examples, commands and flags) but
// wrapped to the width they are shown at, between words: fang pads every
// line of text to 120 columns when piped (trailing spaces), never wraps a
// flag's or a command's description (a terminal of 80 columns cut them
// mid-word), re-wraps text already wrapped in the source (a word or two
// left alone on a line), cuts long examples with "…", ignores --no-color
// (its headings stay bold) and measures os.Stdout whatever the command
// writes to. fang's Execute installs its own help on the root command,
// so the command line runs cobra itself (execute) with fang's palette.

// execute runs root as fang.Execute did (cobra's version flag, errors
// through printError), with stackpick's help on every command.
// A failed write to stdout (a full disk, /dev/full) ends the run with exit
// 74 and a message, whatever wrote it: a command that returns the error, or
// one that cannot (a help page: cobra's help function returns nothing).
func (a *app) execute(ctx context.Context, root *cobra.Command) error {
	out := watchStdout(a)
	root.SetOut(a.io.Stdout)
	// NO_COLOR (set to anything) is --no-color: the command line's text
	// and help without a single escape code. (The colour writer alone
	// keeps bold, and leaves an empty "\e[m" where each colour was.) The
	// full-screen app keeps bold and reverse under both, to show what is
	// selected.
	if a.getenv("NO_COLOR") != "" {
		a.noColor = true
	}
	root.Version = versionFlag()
	root.SetHelpFunc(a.help)
	err := out.check(root.ExecuteContext(ctx))
	if err != nil {
		a.printError(root.ErrOrStderr(), fang.Styles{}, err)
	}
	return err
}

// stdoutWatch is stdout when it is not a terminal (a file, a pipe, a
// device), keeping the first write error. Once a write failed, it writes
// nothing more, so what stdout got stops where the output broke. A
// terminal is left as it is: the app and the colour detection need to see
// one, and a terminal does not fill up.
type stdoutWatch struct {
	w   io.Writer
	err error
}

// watchStdout wraps a's stdout in a stdoutWatch, once: rootCommand does
// it (cobra's completion commands keep the writer they are made with),
// and execute for a root made without it.
func watchStdout(a *app) *stdoutWatch {
	if s, ok := a.io.Stdout.(*stdoutWatch); ok {
		return s
	}
	if a.io.Stdout == nil || isTerminal(a.io.Stdout) {
		return &stdoutWatch{}
	}
	s := &stdoutWatch{w: a.io.Stdout}
	a.io.Stdout = s
	return s
}

func (s *stdoutWatch) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// check is err, else the write error nobody returned; a failed write to
// stdout is the environment's fault (exit 74) whatever the system called
// it.
func (s *stdoutWatch) check(err error) error {
	if s.err == nil {
		return err
	}
	if err == nil || errors.Is(err, s.err) {
		var ee *exitError
		if errors.As(err, &ee) && ee.code != ExitInternal {
			return err
		}
		cause := s.err
		var pe *fs.PathError
		if errors.As(cause, &pe) {
			cause = pe.Err // "write /dev/stdout: " says no more than this
		}
		return environmentFault(fmt.Errorf("cannot write to standard output: %w", cause))
	}
	return err
}

// help writes c's help page to stdout.
func (a *app) help(c *cobra.Command, _ []string) {
	w := a.out(a.io.Stdout)
	st := plainHelpStyles()
	switch {
	case w.Profile == colorprofile.Ascii:
		// NO_COLOR on a terminal: no colour, as no-color.org asks, but
		// bold headings, as the app keeps bold (--no-color is plain).
		// Colours dropped by the writer left an empty "\e[m…\e[m"
		// around every line.
		st.title = st.title.Bold(true)
		st.program = st.program.Bold(true)
	case w.Profile > colorprofile.Ascii:
		st = helpStylesFrom(a.helpScheme(nil))
	}
	// A write error is kept by stdoutWatch and reported by execute.
	_, _ = io.WriteString(w, helpPage(c, st, a.helpWidth()))
}

// helpWidth is the width help is wrapped to: the terminal's (at most
// 120), else a valid COLUMNS, else 80.
func (a *app) helpWidth() int {
	if isTerminal(a.io.Stdout) {
		return a.width(a.io.Stdout)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(a.getenv("COLUMNS"))); err == nil && n >= 40 {
		return min(n, 120)
	}
	return 80
}

type helpStyles struct {
	title, text, program, command, flag, argument, value, comment lipgloss.Style
}

func plainHelpStyles() helpStyles {
	s := lipgloss.NewStyle()
	return helpStyles{s, s, s, s, s, s, s, s}
}

func helpStylesFrom(cs fang.ColorScheme) helpStyles {
	fg := func(c color.Color) lipgloss.Style {
		if c == nil {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	return helpStyles{
		title:    fg(cs.Title).Bold(true),
		text:     fg(cs.Base),
		program:  fg(cs.Program).Bold(true),
		command:  fg(cs.Command),
		flag:     fg(cs.Flag),
		argument: fg(cs.Argument),
		value:    fg(cs.FlagDefault),
		comment:  fg(cs.Comment),
	}
}

const (
	helpIndent = 2 // text and headings
	helpBlock  = 4 // usage, examples, commands and flags
)

// helpPage is c's help at width columns: no line wider (but one holding a
// word too wide for any line), no word split, no trailing space.
func helpPage(c *cobra.Command, st helpStyles, width int) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range wrapText(strings.TrimSpace(cmp.Or(c.Long, c.Short)), width-helpIndent) {
		writeLine(&b, helpIndent, st.text.Render(l))
	}
	heading := func(name string) {
		b.WriteString("\n")
		writeLine(&b, helpIndent, st.title.Render(strings.ToUpper(name)))
		b.WriteString("\n")
	}

	heading("usage")
	use := c.UseLine()
	use = strings.Replace(use, "[flags]", "[--flags]", 1)
	if c.HasAvailableSubCommands() {
		use = strings.Replace(use, c.CommandPath(), c.CommandPath()+" [command]", 1)
	}
	for _, l := range wrapCommand(use, width-helpBlock) {
		writeLine(&b, helpBlock, styleCommandLine(c, l, st))
	}

	if c.Example != "" {
		heading("examples")
		for _, ex := range strings.Split(strings.Trim(c.Example, "\n"), "\n") {
			ex = strings.TrimSpace(ex)
			if strings.HasPrefix(ex, "#") {
				for _, l := range wrapWords(ex, width-helpBlock, "# ") {
					writeLine(&b, helpBlock, st.comment.Render(l))
				}
				continue
			}
			for _, l := range wrapCommand(ex, width-helpBlock) {
				writeLine(&b, helpBlock, styleCommandLine(c, l, st))
			}
		}
	}

	var cmds []helpRow
	for _, sc := range c.Commands() {
		if !sc.IsAvailableCommand() && sc.Name() != "help" {
			continue
		}
		if sc.Hidden {
			continue
		}
		cmds = append(cmds, helpRow{key: st.command.Render(sc.Name()), width: ansi.StringWidth(sc.Name()), text: sc.Short})
	}
	var flags, global []helpRow
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, flagRow(f, st))
		}
	})
	c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			global = append(global, flagRow(f, st))
		}
	})
	// One key column for every table on the page, as fang aligns them.
	col := 0
	for _, rows := range [][]helpRow{cmds, flags, global} {
		for _, r := range rows {
			col = max(col, r.width)
		}
	}
	col = min(col, (width-helpBlock)*2/5) + 2
	for _, t := range []struct {
		name string
		rows []helpRow
	}{{"commands", cmds}, {"flags", flags}, {"global flags", global}} {
		if len(t.rows) == 0 {
			continue
		}
		heading(t.name)
		for _, r := range t.rows {
			writeRow(&b, r, col, width, st)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// helpRow is a command or flag: its styled key, the key's width, and what
// it does.
type helpRow struct {
	key   string
	width int
	text  string
}

func flagRow(f *pflag.Flag, st helpStyles) helpRow {
	name := "--" + f.Name
	if f.Shorthand != "" {
		name = "-" + f.Shorthand + " --" + f.Name
	}
	text := upperFirst(f.Usage)
	if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
		text += " (default " + f.DefValue + ")"
	}
	return helpRow{key: st.flag.Render(name), width: ansi.StringWidth(name), text: text}
}

// writeRow writes a key and its text wrapped beside it in the column after
// col; a key too wide for the column has its text on the lines under it.
func writeRow(b *strings.Builder, r helpRow, col, width int, st helpStyles) {
	textWidth := width - helpBlock - col
	widest := 0
	for _, w := range strings.Fields(r.text) {
		widest = max(widest, ansi.StringWidth(w))
	}
	// Too narrow for two columns, or for a word of the text (it would
	// stick out of the page): the text under the key.
	if textWidth < 20 || widest > textWidth {
		writeLine(b, helpBlock, r.key)
		for _, l := range wrapText(r.text, width-helpBlock-4) {
			writeLine(b, helpBlock+4, st.text.Render(l))
		}
		return
	}
	lines := wrapText(r.text, textWidth)
	first := r.key
	if r.width+2 > col {
		writeLine(b, helpBlock, r.key)
		first = ""
	}
	for i, l := range lines {
		if i == 0 && first != "" {
			writeLine(b, helpBlock, first+strings.Repeat(" ", col-r.width)+st.text.Render(l))
			continue
		}
		writeLine(b, helpBlock+col, st.text.Render(l))
	}
	if len(lines) == 0 && first != "" {
		writeLine(b, helpBlock, first)
	}
}

// writeLine writes s indented, without trailing spaces.
func writeLine(b *strings.Builder, indent int, s string) {
	if strings.TrimSpace(ansi.Strip(s)) == "" {
		b.WriteString("\n")
		return
	}
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(strings.TrimRightFunc(s, unicode.IsSpace))
	b.WriteString("\n")
}

// wrapText wraps text as the source wrote it: paragraphs (split at blank
// lines) refilled to width; an indented line (a list item such as "  mock
// all four in sequence") kept as its own line, its continuation lines
// indented to where its text starts.
func wrapText(text string, width int) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, wrapWords(strings.Join(para, " "), width, "")...)
			para = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if trimmed := strings.TrimLeft(line, "\t"); trimmed != line {
			line = strings.Repeat("    ", len(line)-len(trimmed)) + trimmed
		}
		switch {
		case line == "":
			flush()
			out = append(out, "")
		case line[0] == ' ':
			flush()
			out = append(out, wrapItem(line, width)...)
		default:
			para = append(para, line)
		}
	}
	flush()
	return out
}

// wrapItem wraps an indented line, continuing under its text: after the
// first run of two spaces past the indentation ("  taxonomy  place…"),
// else under its first word.
func wrapItem(line string, width int) []string {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	hang := indent
	if i := strings.Index(line[indent:], "  "); i > 0 {
		j := indent + i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		hang = j
	}
	if hang > width/2 {
		hang = indent
	}
	if hang == indent {
		// No second column: continue under the first word.
		lines := wrapWords(line[indent:], width-indent, "")
		for i := range lines {
			lines[i] = strings.Repeat(" ", indent) + lines[i]
		}
		return lines
	}
	lines := wrapWords(line[hang:], width-hang, "")
	out := []string{line[:hang] + lines[0]}
	for _, l := range lines[1:] {
		out = append(out, strings.Repeat(" ", hang)+l)
	}
	return out
}

// wrapWords fills words into lines of at most width columns, each line
// after the first starting with prefix. A word wider than a line (a path,
// a URL) is never cut: it stands on a line of its own, wider than width.
func wrapWords(s string, width int, prefix string) []string {
	width = max(width, 10)
	words := strings.Fields(s)
	if len(words) == 0 {
		return []string{""}
	}
	var out []string
	line := words[0]
	for _, w := range words[1:] {
		if ansi.StringWidth(line)+1+ansi.StringWidth(w) <= width {
			line += " " + w
			continue
		}
		out = append(out, line)
		line = prefix + w
	}
	return append(out, line)
}

// wrapCommand wraps a command line as a shell reads it: between
// arguments (never inside quotes), each line but the last ending in " \"
// and the next indented two more.
func wrapCommand(s string, width int) []string {
	if ansi.StringWidth(s) <= width {
		return []string{s}
	}
	args := shellWords(s)
	// A redirection stays with its file: "> ~/.zshrc" is one piece.
	for i := len(args) - 2; i >= 0; i-- {
		if args[i] == ">" || args[i] == ">>" || args[i] == "<" {
			args = slices.Replace(args, i, i+2, args[i]+" "+args[i+1])
		}
	}
	var out []string
	line := ""
	for _, a := range args {
		limit := width - 2 // room for " \"
		switch {
		case line == "":
			line = a
			if len(out) > 0 {
				line = "  " + a
			}
		case ansi.StringWidth(line)+1+ansi.StringWidth(a) <= limit:
			line += " " + a
		default:
			out = append(out, line+" \\")
			line = "  " + a
		}
	}
	return append(out, line)
}

// shellWords splits a command line at spaces outside quotes and outside
// the shell's substitutions ("$(brew --prefix)/etc", "<(stackpick
// completion bash)"), keeping the quotes. A usage line's parentheses
// ("(--answers FILE | --scenario NAME)") group words, and split.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote := rune(0)
	depth := 0
	for _, r := range s {
		switch {
		case quote != 0:
			cur.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
			cur.WriteRune(r)
		case r == '(' && (depth > 0 || strings.HasSuffix(cur.String(), "$") || strings.HasSuffix(cur.String(), "<") || strings.HasSuffix(cur.String(), ">")):
			depth++
			cur.WriteRune(r)
		case r == ')' && depth > 0:
			depth--
			cur.WriteRune(r)
		case r == ' ' && depth > 0:
			cur.WriteRune(r)
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// styleCommandLine colours a line of a command: the program, its commands,
// flags, and their arguments.
func styleCommandLine(c *cobra.Command, line string, st helpStyles) string {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	words := shellWords(line)
	cmd := c.Root()
	for i, w := range words {
		switch {
		case w == cmd.Name() && i == 0:
			words[i] = st.program.Render(w)
		case strings.HasPrefix(w, "-"):
			words[i] = st.flag.Render(w)
		case w == "\\" || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "("):
			words[i] = st.comment.Render(w)
		default:
			if sub := findSub(cmd, w); sub != nil {
				cmd = sub
				words[i] = st.command.Render(w)
				continue
			}
			words[i] = st.argument.Render(w)
		}
	}
	return strings.Repeat(" ", lead) + strings.Join(words, " ")
}

func findSub(c *cobra.Command, name string) *cobra.Command {
	i := slices.IndexFunc(c.Commands(), func(s *cobra.Command) bool { return s.Name() == name })
	if i < 0 {
		return nil
	}
	return c.Commands()[i]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
