package cli

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stackpick/stackpick/knowledge"
)

// The manual page is generated from the command tree, so it says what
// --help says: every command with its usage line, description, examples
// and flags, then the global flags, the environment and the exit codes.
// It is written here rather than with fang's man command (mango: dated
// with the clock, so never reproducible; subcommands get only their short
// line; each source line becomes a paragraph; a line starting with ' is
// read by roff as a request and dropped) or cobra/doc (it brings
// go-md2man and blackfriday for a page this size).

func (a *app) manCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (roff): stackpick man > stackpick.1",
		Long: `Print stackpick's manual page, in roff, on standard output. It is generated
from the commands themselves, so it says what --help says. Install it with,
for example, stackpick man > ~/.local/share/man/man1/stackpick.1 (then
man stackpick), or read it at once with stackpick man | man -l -.
SOURCE_DATE_EPOCH dates it, for reproducible builds.`,
		Example: `  stackpick man > stackpick.1
  stackpick man | man -l -`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(a.io.Stdout, manPage(cmd.Root(), Version(), a.clock()()))
			return err
		},
	}
}

// exitStatuses are the exit codes the manual page lists.
var exitStatuses = []struct {
	code int
	what string
}{
	{ExitOK, "success"},
	{ExitInternal, "a bug in stackpick (the message says what broke)"},
	{ExitBadInput, "bad input or a usage mistake: the message says what, where, and what to type instead"},
	{ExitEnvironment, "the environment failed a read or write: a full disk, a quota, a read-only file system, an I/O error, a drill history another stackpick keeps locked"},
	{ExitHangup, "SIGHUP: the terminal went away (128 plus the signal's number)"},
	{ExitInterrupted, "interrupted: ctrl+c in the interactive app, or SIGINT"},
	{ExitTerminated, "SIGTERM"},
}

var environment = []struct{ name, what string }{
	{knowledge.EnvKB, "a folder of TOML files overlaid on the built-in knowledge base, as --kb"},
	{EnvHistory, "the drill history file, instead of the one in the XDG state folder"},
	{"NO_COLOR", "set (to anything): as --no-color, text and help without any escape code (the full-screen app keeps only bold and reverse video)"},
	{"ACCESSIBLE", "1: plain prompts for screen readers instead of the full-screen app"},
	{"SOURCE_DATE_EPOCH", "seconds since 1970: the date memos and this page carry, for reproducible output"},
	{"COLUMNS", "the width piped text wraps to"},
}

func manPage(root *cobra.Command, version string, now time.Time) string {
	var b strings.Builder
	name := root.Name()
	fmt.Fprintf(&b, ".TH %s 1 %q %q \"User Commands\"\n", strings.ToUpper(name), now.UTC().Format(time.DateOnly), name+" "+footerVersion(version))
	// No hyphenation: a flag, a path or a command split with a hyphen is
	// a broken one when copied.
	b.WriteString(".nh\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", name, roffText(root.Short))
	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n[\\fICOMMAND\\fR] [\\fIFLAGS\\fR]\n", name)
	b.WriteString(".SH DESCRIPTION\n")
	roffParagraphs(&b, root.Long)
	if root.Example != "" {
		b.WriteString(".SS Examples\n")
		roffExample(&b, root.Example)
	}
	if root.HasAvailableLocalFlags() {
		b.WriteString(".SS Flags\n")
		roffFlags(&b, root.LocalNonPersistentFlags())
	}
	b.WriteString(".SH COMMANDS\n")
	for _, c := range manCommands(root) {
		fmt.Fprintf(&b, ".SS \"%s\"\n", strings.ReplaceAll(roffText(c.UseLine()), `"`, `\(dq`))
		roffParagraphs(&b, cmp.Or(c.Long, c.Short))
		if c.Example != "" {
			b.WriteString(".PP\nExamples:\n")
			roffExample(&b, c.Example)
		}
		if c.HasAvailableLocalFlags() {
			b.WriteString(".PP\nFlags:\n")
			roffFlags(&b, c.LocalFlags())
		}
	}
	b.WriteString(".SH GLOBAL FLAGS\nEvery command takes these.\n")
	roffFlags(&b, root.PersistentFlags())
	b.WriteString(".SH ENVIRONMENT\n")
	for _, e := range environment {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", e.name, roffText(e.what))
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, s := range exitStatuses {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", s.code, roffText(s.what))
	}
	b.WriteString(".SH VERSION\n")
	fmt.Fprintf(&b, "This page is %s %s's.\n", name, roffText(version))
	b.WriteString(".SH SEE ALSO\n")
	fmt.Fprintf(&b, "%s \\-\\-help, and %s COMMAND \\-\\-help, say the same per command.\n", name, name)
	return b.String()
}

// manCommands is every command a user can run, depth first, in the order
// --help lists them: not the hidden ones, not help.
func manCommands(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.Name() == "help" {
			continue
		}
		if sub.Runnable() {
			out = append(out, sub)
		}
		out = append(out, manCommands(sub)...)
	}
	return out
}

// roffParagraphs writes text's paragraphs (split at blank lines): a
// paragraph with indented lines (a list or a table) keeps its lines, the
// others are filled by roff.
func roffParagraphs(b *strings.Builder, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		lines := strings.Split(para, "\n")
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, " ") }) {
			b.WriteString(".nf\n")
			for _, l := range wrapText(para, manListWidth) {
				b.WriteString(roffLine(l) + "\n")
			}
			b.WriteString(".fi\n")
			continue
		}
		b.WriteString(roffLine(strings.Join(lines, " ")) + "\n")
	}
}

// manExampleWidth is the width examples are wrapped to (as a shell reads
// them, as --help does): on an 80-column terminal man indents them 11
// columns (the page's 7, .RS 4) and keeps a margin of 2.
const manExampleWidth = 80 - 11 - 2

// manListWidth is the width of a paragraph's indented lines (7 columns in).
const manListWidth = 80 - 7 - 2

func roffExample(b *strings.Builder, example string) {
	b.WriteString(".PP\n.RS 4\n.nf\n")
	for _, l := range strings.Split(strings.TrimRight(example, "\n"), "\n") {
		l = strings.TrimSpace(l)
		lines := wrapCommand(l, manExampleWidth)
		if strings.HasPrefix(l, "#") {
			lines = wrapWords(l, manExampleWidth, "# ")
		}
		for _, w := range lines {
			b.WriteString(roffLine(w) + "\n")
		}
	}
	b.WriteString(".fi\n.RE\n")
}

// footerVersion is the version the page's footer shows: a pseudo-version
// (v0.0.0-20261201191137-c60abf093435, a build from a clone) ran into the
// date at 80 columns, so it is given by its revision; the VERSION section
// has it whole.
func footerVersion(v string) string {
	base, meta, _ := strings.Cut(v, "+") // +dirty: uncommitted changes
	parts := strings.Split(base, "-")
	if n := len(parts); n >= 3 && len(parts[n-1]) == 12 && len(parts[n-2]) >= 14 {
		if rev, stamp := parts[n-1], parts[n-2]; isDigits(stamp[len(stamp)-14:]) {
			if meta != "" {
				rev += "+" + meta
			}
			return rev
		}
	}
	return v
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func roffFlags(b *strings.Builder, flags *pflag.FlagSet) {
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := `\-\-` + roffText(f.Name)
		if f.Shorthand != "" {
			name = `\-` + f.Shorthand + ", " + name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if varname != "" {
			name += ` \fI` + roffText(varname) + `\fR`
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			usage += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n%s\n", name, roffLine(usage))
	})
}

// roffText escapes text for roff: backslashes, hyphens as the minus signs
// that man pages type for flags, and every character outside ASCII by its
// code point (roff reads its input as Latin-1 unless told otherwise).
func roffText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roffLine is roffText for a whole input line: one starting with a period
// or an apostrophe would be read as a request.
func roffLine(s string) string {
	s = roffText(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
