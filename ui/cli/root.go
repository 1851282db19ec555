package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/tui"
)

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "stackpick",
		Short: "Choose an LLM serving stack and defend the choice",
		Long: `stackpick recommends an LLM serving stack (engine, model server, orchestrator)
from your answers to a few scenario questions, and defends every pick with the
rules that fired, their sources, the alternatives and why they lost, the risks,
and the single answers that would change it.

Run it with no command in a terminal for the interactive app: a guided
questionnaire with the stack re-decided after every answer, the defended
result, and a browser for the knowledge base.

Its knowledge started from 'Engines as Products' (the course notes); where
they have aged, the knowledge base corrects them, with sources:
'stackpick kb changes' lists what changed.`,
		Example: `  stackpick
  stackpick --accessible
  stackpick decide --scenario exit-test
  stackpick decide --answers my-fleet.toml --format json
  stackpick scenarios
  stackpick questions`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			e := fmt.Errorf("unknown command %q", args[0])
			var names []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			if n := knowledge.Nearest(args[0], names); n != "" {
				e = fmt.Errorf("unknown command %q; did you mean %q?", args[0], n)
			}
			return usage(e)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runRoot(cmd, a.answersFile)
		},
	}
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().StringVar(&a.kbDir, "kb", "", "folder of TOML files overlaid on the built-in knowledge base (env "+knowledge.EnvKB+")")
	root.PersistentFlags().BoolVar(&a.noColor, "no-color", false, "plain output without colour (NO_COLOR is honoured too)")
	root.Flags().StringVarP(&a.answersFile, "answers", "a", "", "open the app on this answers file, at its result (as 'stackpick open FILE')")
	root.Flags().BoolVar(&a.accessible, "accessible", false, "plain prompts for screen readers instead of the full-screen app (env ACCESSIBLE=1)")
	root.AddCommand(a.decideCommand(), a.diffCommand(), a.drillCommand(), a.scenariosCommand(), a.questionsCommand(), a.kbCommand(), a.versionCommand(), a.sizeCommand(), a.openCommand(), a.compareCommand(), a.manifestCommand(), a.manCommand())
	// cobra adds its completion command when it runs; added now, its
	// argument checks can report usage errors like every other command's.
	// Its shells write to the stdout root has when they are made: the
	// watched one (help.go), so a failed write is reported.
	watchStdout(a)
	root.SetOut(a.io.Stdout)
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		usageArgs(c)
		describeCompletion(c)
	}
	a.registerCompletions(root)
	return root
}

// runRoot is `stackpick` with no command: the interactive app, opened on
// the answers in file if one is given (checked first, so a mistake in it
// is reported whether or not there is a terminal). It needs a terminal on
// both ends; without one, say what to run instead.
func (a *app) runRoot(cmd *cobra.Command, file string) error {
	kb, opened, err := a.openFile(file)
	if err != nil {
		return err
	}
	if !isTerminal(a.io.Stdin) || !isTerminal(a.io.Stdout) {
		fmt.Fprint(a.io.Stderr, `stackpick: the interactive app needs a terminal (stdin and stdout are not both one).
For scripts and pipes, use a command instead:
  stackpick decide --answers FILE [--format text|json]
  stackpick decide --scenario exit-test
  stackpick size --model ID --gpu ID
  stackpick drill taxonomy | scenario | flags | explain | mock | stats
  stackpick scenarios | questions | kb check | kb rules | kb changes
  stackpick compare dynamo llm-d kserve
Run 'stackpick --help' for more.
`)
		return badInput(errUsageShown)
	}
	list, err := scenarios.All(kb)
	if err != nil {
		return badInput(fmt.Errorf("the knowledge base loads, but a preset scenario no longer fits it:\n%w", err))
	}
	err = tui.Run(cmd.Context(), kb, list, tui.Options{
		NoColor:     a.noColor || a.getenv("NO_COLOR") != "",
		Profile:     a.profile(a.io.Stdout),
		Accessible:  a.accessible || envTrue(a.getenv("ACCESSIBLE")),
		Env:         a.io.Env,
		Stdin:       a.io.Stdin,
		Stdout:      a.io.Stdout,
		Stderr:      a.io.Stderr,
		Now:         a.clock(),
		HistoryPath: a.getenv(EnvHistory),
		// The overlay the knowledge base was loaded with, named in the
		// replay line of saved answers.
		KBDir:   a.overlayDir(),
		Version: Version(),
		Open:    opened,
	})
	return appError(err)
}

// appError is the command's error for how the interactive app (or the
// accessible prompts) ended.
func appError(err error) error {
	switch {
	case errors.Is(err, tui.ErrInterrupted):
		return &exitError{code: ExitInterrupted, err: errUsageShown}
	case errors.Is(err, tui.ErrHangup):
		return hungUp()
	case errors.Is(err, tui.ErrInputEnded):
		// ctrl+d at an accessible prompt: left, as a line-mode drill is.
		return badInput(err)
	}
	return internalIf(err)
}

// envTrue reads a yes/no environment variable: set and not "0" or "false".
func envTrue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false" && v != "no"
}

func internalIf(err error) error {
	if err == nil {
		return nil
	}
	return internal(err)
}

func isTerminal(x any) bool {
	f, ok := x.(term.File)
	return ok && term.IsTerminal(f.Fd())
}
