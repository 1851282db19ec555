package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

func (a *app) kbCommand() *cobra.Command {
	kb := &cobra.Command{
		Use:   "kb",
		Short: "Check or list the knowledge base",
		Args:  noArgs,
	}
	check := &cobra.Command{
		Use:   "check",
		Short: "Validate the knowledge base (with the --kb overlay, if any)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			if _, err := scenarios.All(k); err != nil {
				return badInput(fmt.Errorf("the knowledge base loads, but a preset scenario no longer fits it:\n%w", err))
			}
			if dead := knowledge.DeadValues(k, engineReads); len(dead) > 0 {
				lines := make([]string, len(dead))
				for i, d := range dead {
					lines[i] = d.String()
				}
				what := fmt.Sprintf("%d answers change", len(dead))
				if len(dead) == 1 {
					what = "1 answer changes"
				}
				return internal(fmt.Errorf("%s nothing: give each a rule that tells it apart (or remove the value):\n%s", what, strings.Join(lines, "\n")))
			}
			var files []string
			for _, f := range knowledge.Embedded() {
				files = append(files, f.Name)
			}
			if dir := a.overlayDir(); dir != "" {
				over, _ := knowledge.ReadOverlay(dir)
				for _, f := range over {
					files = append(files, f.Name+" (overlay)")
				}
			}
			w := a.out(a.io.Stdout)
			_, err = io.WriteString(w, report.KBSummary(k, files, a.styles(), a.width(a.io.Stdout)))
			return err
		},
	}
	var format string
	rules := &cobra.Command{
		Use:   "rules",
		Short: "Print the rules table, generated from the knowledge base",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(rulesFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(rulesFormats, ", "), Hint: hintFor(format, rulesFormats)})
			}
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			w := a.out(a.io.Stdout)
			if format == "markdown" {
				_, err = io.WriteString(w, report.RulesMarkdown(k))
			} else {
				_, err = io.WriteString(w, report.RulesText(k, a.styles(), a.width(a.io.Stdout)))
			}
			return err
		},
	}
	rules.Flags().StringVarP(&format, "format", "f", "text", "output format: text or markdown")
	kb.AddCommand(check, rules, a.kbChangesCommand(), a.kbVerifyCommand())
	return kb
}

var rulesFormats = []string{"text", "markdown"}

var changesFormats = []string{"text", "markdown", "json"}

// kbChangesCommand is `kb changes [PRODUCT]`: what changed since the
// course notes, the list the app's knowledge browser shows.
func (a *app) kbChangesCommand() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "changes [PRODUCT...]",
		Short: "List what changed since the course notes: claims corrected, run-book flags gone",
		Long: `List, per product, where the knowledge base parts from 'Engines as Products'
(the course notes stackpick's knowledge started from): the claims it corrects
and the run-book flags the notes name that are removed or renamed, each with
what replaced it and its source. PRODUCT (a product id, such as vllm; one or
more) narrows the list to those products.`,
		Example: `  stackpick kb changes
  stackpick kb changes vllm llm-d kserve
  stackpick kb changes vllm --format markdown`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(changesFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(changesFormats, ", "), Hint: hintFor(format, changesFormats)})
			}
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{""} // every product
			}
			var changes []report.ProductChanges
			for _, product := range args {
				pc, err := report.CourseNoteChanges(k, product)
				if err != nil {
					return badInput(err)
				}
				changes = append(changes, pc...)
			}
			w := a.out(a.io.Stdout)
			switch format {
			case "markdown":
				_, err = io.WriteString(w, report.CourseNotesMarkdown(changes))
			case "json":
				err = report.CourseNotesJSON(w, changes)
			default:
				_, err = io.WriteString(w, report.CourseNotesText(changes, a.styles(), a.width(a.io.Stdout)))
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, markdown or json")
	return cmd
}

// engineReads is what the engine settings read (decide.EngineReads), for
// kb check's dead-answer test: an answer the engine settings read is live
// even when no rule tests it.
var engineReads = decide.EngineReads
