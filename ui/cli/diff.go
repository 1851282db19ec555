package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// scenarioPrefix names a preset in place of an answers file:
// `stackpick diff scenario:exit-test mine.toml`.
const scenarioPrefix = "scenario:"

func (a *app) diffCommand() *cobra.Command {
	var format, out string
	var force bool
	var width int
	cmd := &cobra.Command{
		Use:   "diff A.toml B.toml",
		Short: "Compare two decisions: the stacks, the answers that differ, what moved and why",
		Long: `Decide for two answer files and set the decisions side by side: both stacks,
the answers that differ (stated or default), each layer whose pick moved with
the reasons and arguments that hold in one decision and not the other, and the
engine settings that changed. Either file may be a preset instead, written
scenario:NAME ('stackpick scenarios' lists them). The files are read exactly
as 'decide --answers' reads them.`,
		Example: `  stackpick diff fleet.toml fleet-no-k8s.toml
  stackpick diff scenario:exit-test mine.toml --format markdown --out diff.md
  stackpick diff a.toml b.toml --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usage(fmt.Errorf("diff takes two answer files, A and B (got %d): stackpick diff A.toml B.toml", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(decideFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(decideFormats, ", "), Hint: hintFor(format, decideFormats)})
			}
			if err := checkWidth(width); err != nil {
				return err
			}
			if args[0] == "-" && args[1] == "-" {
				return badInputf("only one of A and B can be read from stdin ('-')")
			}
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			dec := decide.Compile(kb)
			var ds [2]decide.Decision
			for i, arg := range args {
				file, scenario := arg, ""
				if name, ok := strings.CutPrefix(arg, scenarioPrefix); ok {
					file, scenario = "", name
				}
				answers, _, err := a.resolveAnswers(kb, file, scenario)
				var e *knowledge.Error
				if errors.As(err, &e) && e.File == "--scenario" {
					e.File = fmt.Sprintf("argument %d (%s)", i+1, scenarioPrefix)
				}
				if err != nil {
					return err
				}
				ds[i] = dec.Decide(answers)
			}
			dd := report.DiffDecisions(kb, ds[0], ds[1], args[0], args[1])
			return a.emit(out, force, func(w io.Writer, color bool) error {
				switch format {
				case "markdown":
					_, err := io.WriteString(w, report.DiffMarkdown(dd))
					return err
				case "json":
					if cw, ok := w.(*colorprofile.Writer); ok {
						w = cw.Forward
					}
					return report.DiffJSON(w, dd)
				default:
					if width == 0 {
						width = 100
						if out == "" || out == "-" {
							width = a.textWidth()
						}
					}
					_, err := io.WriteString(w, report.DiffText(dd, a.styles(), width))
					return err
				}
			})
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, json (schema "+report.DiffSchema+"), or markdown")
	outFlag(cmd.Flags(), &out)
	cmd.Flags().BoolVar(&force, "force", false, "allow --out to replace an existing file")
	cmd.Flags().IntVarP(&width, "width", "w", 0, widthHelp)
	return cmd
}
