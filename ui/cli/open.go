package cli

import (
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/tui"
)

// openCommand is `stackpick open FILE`: the app, opened on a saved answers
// file at its result. `stackpick --answers FILE` is the same.
func (a *app) openCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "open FILE",
		Short: "Open the interactive app on a saved answers file, at its result",
		Long: `Open the interactive app on the answers in FILE (a TOML file, as the app's save
writes it or as 'stackpick decide --answers' reads it), at its result. Saving in
the app (s) writes back to FILE. A mistake in the file is reported with its
file and line before the app starts. 'stackpick --answers FILE' does the same.`,
		Example: `  stackpick open fleet.toml
  stackpick --answers fleet.toml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(badInputf("open needs one answers file, for example: stackpick open fleet.toml"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runRoot(cmd, args[0])
		},
	}
}

// openFile loads the knowledge base and reads and checks the answers file
// the app opens on, with the loader of 'decide --answers', before anything
// draws: a mistake in it names file:line and exits 2. No file ("") opens
// nothing.
func (a *app) openFile(file string) (*knowledge.KB, *tui.Opened, error) {
	kb, err := a.loadKB()
	if err != nil || file == "" {
		return kb, nil, err
	}
	if file == "-" {
		return nil, nil, badInput(&knowledge.Error{File: file, Problem: "the app reads its keys from stdin, so it cannot read answers from it", Hint: "save them to a file and open that, or use: stackpick decide --answers -"})
	}
	if a.accessible || envTrue(a.getenv("ACCESSIBLE")) {
		return nil, nil, badInputf("the accessible prompts start from the questions, not from a file; for the decision of %s as plain text, run: stackpick decide --answers %s", file, file)
	}
	answers, _, err := a.resolveAnswers(kb, file, "")
	if err != nil {
		return nil, nil, err
	}
	return kb, &tui.Opened{Path: file, Answers: answers}, nil
}
