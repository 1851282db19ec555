package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

var decideFormats = []string{"text", "json", "markdown"}

func (a *app) decideCommand() *cobra.Command {
	var answersFile, scenarioName, format, out, date string
	var force, trace bool
	var memo memoFlags
	cmd := &cobra.Command{
		Use:   "decide (--answers FILE | --scenario NAME)",
		Short: "Recommend a stack for a set of answers, with the reasoning",
		Long: `Recommend an engine, a model server and an orchestrator for the answers in FILE
(a TOML file; keys are listed by 'stackpick questions', missing keys keep their
defaults) or for a preset scenario ('stackpick scenarios'). The text opens on a
summary (the stack, its topology, why each layer, the close calls, the
assumptions and the nearest flips), then the details: each layer's reasons and
their sources, the alternatives and why they lost, the launch command and its
arithmetic, the risks, and the course-notes flags that are gone. --trace adds
rule ids and scores (JSON always carries them).

With --format markdown it writes a decision record (MADR). A [memo] table in
FILE (title, status, deciders, date, problem) heads it; --title, --status,
--deciders, --date and --problem override the table, and --pinned adds
another decision under the options considered.`,
		Example: `  stackpick decide --scenario exit-test
  stackpick decide --scenario exit-test --trace
  stackpick decide --answers fleet.toml --format json --out decision.json
  stackpick decide --answers fleet.toml --format markdown --status accepted --deciders "Ana Ruiz, Ben Okafor"`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(decideFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(decideFormats, ", "), Hint: hintFor(format, decideFormats)})
			}
			if trace && format != "text" {
				why := "JSON always carries the rule ids and scores"
				if format == "markdown" {
					why = "the memo is for readers and never carries rule ids or scores"
				}
				return badInputf("--trace is for the text output only (%s): drop --trace, or use --format text", why)
			}
			switch {
			case answersFile == "" && scenarioName == "":
				return badInputf("decide needs --answers FILE or --scenario NAME (see 'stackpick scenarios' and 'stackpick questions')")
			case answersFile != "" && scenarioName != "":
				return badInputf("give --answers or --scenario, not both")
			}
			if given := memo.given(cmd); len(given) > 0 && format != "markdown" {
				return badInputf("%s only %s the markdown memo: add --format markdown", strings.Join(given, ", "), memoFlagVerb(len(given)))
			}
			if _, err := memo.memo(); err != nil {
				return err
			}
			if _, err := a.memoDate(date); err != nil {
				return err
			}
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			answers, origin, err := a.resolveAnswers(kb, answersFile, scenarioName)
			if err != nil {
				return err
			}
			d := decide.Decide(kb, answers)
			memoIn, err := a.memoInput(cmd, &memo, answers, origin, date)
			if err != nil {
				return err
			}
			return a.emit(out, force, func(w io.Writer, color bool) error {
				switch format {
				case "markdown":
					_, err := io.WriteString(w, report.Memo(kb, d, memoIn))
					return err
				case "json":
					// encoding/json escapes control characters, so JSON
					// has no escape codes for the colour writer to strip:
					// write past it rather than have it scan every byte.
					if cw, ok := w.(*colorprofile.Writer); ok {
						w = cw.Forward
					}
					return report.DecisionJSON(w, d)
				default:
					width := 100
					if color {
						width = a.textWidth()
					}
					st := a.styles()
					_, err := io.WriteString(w, report.DecisionText(kb, d, origin.Header(), st, width, report.CardOptions{Trace: trace}))
					return err
				}
			})
		},
	}
	cmd.Flags().StringVarP(&answersFile, "answers", "a", "", "answers TOML file")
	cmd.Flags().StringVarP(&scenarioName, "scenario", "s", "", "preset scenario name (see 'stackpick scenarios')")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, json, or markdown (a decision record)")
	cmd.Flags().StringVar(&date, "date", "", "date written in a markdown memo, YYYY-MM-DD (default: the answers file's [memo] date, else today, or SOURCE_DATE_EPOCH)")
	memo.register(cmd)
	outFlag(cmd.Flags(), &out)
	cmd.Flags().BoolVar(&force, "force", false, "allow --out to replace an existing file")
	cmd.Flags().BoolVar(&trace, "trace", false, "text: add rule ids, weights and scores, and every rule's outcome")
	return cmd
}

// textWidth is the wrap width of text on stdout: the terminal's when it is
// one; when it is piped, a valid COLUMNS (a whole number of at least 20,
// at most the terminal's 120), else a readable 100.
func (a *app) textWidth() int {
	if f, ok := a.io.Stdout.(term.File); ok && term.IsTerminal(f.Fd()) {
		return a.width(a.io.Stdout)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(a.getenv("COLUMNS"))); err == nil && n >= 20 {
		return min(n, 120)
	}
	return a.width(a.io.Stdout)
}

func hintFor(got string, allowed []string) string {
	if n := knowledge.Nearest(got, allowed); n != "" {
		return fmt.Sprintf("did you mean %q?", n)
	}
	return ""
}

// resolveAnswers reads --answers or looks up --scenario, and says which
// it was for the title and the memo's source line.
func (a *app) resolveAnswers(kb *knowledge.KB, file, scenario string) (knowledge.Answers, report.Origin, error) {
	if scenario != "" {
		all, err := scenarios.All(kb)
		if err != nil {
			return knowledge.Answers{}, report.Origin{}, internal(err)
		}
		s, err := scenarios.Find(all, scenario)
		if err != nil {
			return knowledge.Answers{}, report.Origin{}, badInput(err)
		}
		return s.Answers, report.Origin{Scenario: &s}, nil
	}
	if file == "-" && isTerminal(a.io.Stdin) {
		// Else it waits in silence for what the user does not know to type.
		fmt.Fprintln(a.io.Stderr, "stackpick: reading answers (TOML) from standard input; end with Ctrl-D on a line of its own")
	}
	data, err := readInput(a.io.Stdin, file)
	if err != nil {
		return knowledge.Answers{}, report.Origin{}, badInput(err)
	}
	answers, err := kb.ParseAnswers(file, data)
	if err != nil {
		return knowledge.Answers{}, report.Origin{}, badInput(err)
	}
	return answers, report.Origin{File: file, Title: answers.Memo().Title}, nil
}
