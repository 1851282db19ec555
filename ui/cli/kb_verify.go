package cli

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/knowledge/verify"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

var verifyFormats = []string{"text", "json"}

// kbVerifyCommand is `kb verify --sources DIR`: every repository source
// read at its pinned commit from local copies, its quote looked for
// there; the course notes' sections and quotes with --notes; and every
// flag the launch commands can emit looked for in the engine's argument
// parser at the release.
func (a *app) kbVerifyCommand() *cobra.Command {
	var format, sources, notes string
	cmd := &cobra.Command{
		Use:   "verify --sources DIR",
		Short: "Check every repository source's quote against local copies of the repositories",
		Long: `Read every repository source of the knowledge base (with the --kb overlay, if
any) at its pinned commit from local copies, and check its quote is there
(runs of whitespace count as one space). With a git copy, also check the
release tag contains the commit. DIR holds the copies: git clones or bare
mirrors at DIR/OWNER/NAME, DIR/OWNER/NAME.git, DIR/OWNER+NAME or
DIR/OWNER+NAME/repo, or plain trees at DIR/OWNER/NAME/REF/PATH (REF the tag,
or the commit where there is none). No network is used.

Each source is verified, quote missing, file missing, symbol missing (the
file declares no def, class, function, field or heading of the symbol's last
part), quote outside lines, commit missing (the copy may be older than the
pinned commit: update it), tag missing, tag does not contain the commit, file
too large (over 16 MiB), or not available (its repository is not in DIR, or
the knowledge base marks it not available). Docs, pull-request, issue and
release sources are counted but not checked (no network). Every flag
stackpick can emit for an engine is looked for where the engine's argument
parser registers it (the quoted flag name in code, or a config field declared
at the start of a line; a comment or a mention does not count) at the release
its sources name and at the release the launch commands are written for, or,
for an engine with no release (llama.cpp), at the commits its sources name.
--notes checks the course notes' sources: the section must be a heading of
the notes and hold the quote.

Exit 1 when any check failed, 0 when everything that could be checked passed,
2 when nothing could be checked (git is not installed, or DIR holds none of
the cited repositories) or --notes is not the course notes.`,
		Example: `  stackpick kb verify --sources ~/src
  stackpick kb verify --sources /work/.mirror --notes engines-as-products.txt
  stackpick kb verify --sources ~/src --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(verifyFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(verifyFormats, ", "), Hint: hintFor(format, verifyFormats)})
			}
			if sources == "" {
				return usage(errors.New("kb verify needs --sources DIR: the folder of repository copies to read the sources from"))
			}
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			rep, err := verify.Run(k, verify.Options{Sources: sources, Notes: notes, Releases: commandReleases(k)})
			var ie *verify.InputError
			if errors.As(err, &ie) {
				return badInput(err)
			}
			if err != nil {
				return internal(err)
			}
			w := a.out(a.io.Stdout)
			if format == "json" {
				err = rep.WriteJSON(w)
			} else {
				var b strings.Builder
				if err = rep.WriteText(&b); err == nil {
					_, err = io.WriteString(w, a.wrapAtTerminal(b.String()))
				}
			}
			if err != nil {
				return internal(err)
			}
			if rep.Failed() {
				return &exitError{code: ExitInternal, err: errUsageShown}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&sources, "sources", "", "folder of repository copies (git clones, bare mirrors or OWNER/NAME/REF trees)")
	cmd.Flags().StringVar(&notes, "notes", "", "the course notes' text file, to check course-notes sources")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text or json")
	return cmd
}

// wrapAtTerminal word-wraps each line of the report to the terminal's
// width, continuation lines indented, as kb check does; piped output keeps
// one line per finding, for grep and CI logs.
func (a *app) wrapAtTerminal(text string) string {
	f, ok := a.io.Stdout.(term.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return text
	}
	width := a.width(a.io.Stdout)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		for _, w := range report.Wrap(l, width, 0, 4) {
			b.WriteString(strings.TrimRight(w, " ") + "\n")
		}
	}
	return b.String()
}

// commandReleases is, per engine, the releases the launch commands of the
// preset scenarios are written for (EngineConfig.Release), for every engine
// that gets a command.
func commandReleases(kb *knowledge.KB) map[string][]string {
	list, err := scenarios.All(kb)
	if err != nil {
		return nil
	}
	answers := make([]knowledge.Answers, len(list))
	for i, s := range list {
		answers[i] = s.Answers
	}
	return decide.CommandReleases(kb, answers)
}
