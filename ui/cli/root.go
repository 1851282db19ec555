package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"

	"runtime/debug"
	"strings"

	"charm.land/fang/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui"
	"github.com/stackpick/stackpick/ui/report"
)

// IO is the process's streams and environment, injectable for tests.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Env    []string
}

// app holds what every command shares: streams, global flags, styles.
type app struct {
	io         IO
	kbDir      string
	noColor    bool
	accessible bool
	styles     report.Styles
}

func (a *app) getenv(key string) string {
	for i := len(a.io.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(a.io.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// out wraps w so colour is dropped when w is not a colour terminal, when
// NO_COLOR is set, or when --no-color was given.
func (a *app) out(w io.Writer) *colorprofile.Writer {
	cw := colorprofile.NewWriter(w, a.io.Env)
	if a.noColor {
		cw.Profile = colorprofile.NoTTY
	}
	return cw
}

// width is the terminal's width when w is one, else a readable 100.
func (a *app) width(w io.Writer) int {
	if f, ok := w.(term.File); ok && term.IsTerminal(f.Fd()) {
		if wd, _, err := term.GetSize(f.Fd()); err == nil && wd > 20 {
			return min(wd, 120)
		}
	}
	return 100
}

// overlayDir is the --kb folder, else STACKPICK_KB, else "".
func (a *app) overlayDir() string {
	if a.kbDir != "" {
		return a.kbDir
	}
	return a.getenv(knowledge.EnvKB)
}

// loadKB loads the knowledge base with the --kb overlay (or STACKPICK_KB).
// A broken overlay is the user's to fix; a broken embedded base is ours.
func (a *app) loadKB() (*knowledge.KB, error) {
	dir := a.overlayDir()
	kb, err := knowledge.Load(dir)
	if err != nil {
		if dir != "" {
			return nil, badInput(err)
		}
		return nil, internal(fmt.Errorf("the built-in knowledge base is broken (a bug in stackpick):\n%w", err))
	}
	return kb, nil
}

// Run executes the command line and returns the process exit code.
func Run(ctx context.Context, args []string, stdio IO) int {
	a := &app{io: stdio, styles: report.DefaultStyles()}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdio.Stdin)
	root.SetOut(stdio.Stdout)
	root.SetErr(stdio.Stderr)
	err := fang.Execute(ctx, root,
		fang.WithVersion(Version()),
		fang.WithoutManpage(),
		fang.WithErrorHandler(a.printError),
	)
	return codeOf(err)
}

// printError writes err to stderr: every line prefixed so it is greppable,
// and a pointer to --help for usage mistakes.
func (a *app) printError(w io.Writer, _ fang.Styles, err error) {
	if errors.Is(err, errUsageShown) {
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "stackpick: %s\n", line)
	}
	if codeOf(err) == ExitBadInput && isFlagError(err) {
		fmt.Fprintln(w, "stackpick: run 'stackpick --help' (or 'stackpick COMMAND --help') for usage")
	}
}

var invalidFlagRE = regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: (?:strconv\.)?Parse(\w+)`)

// flagError adds the nearest flag name to cobra's "unknown flag" errors and
// says what a flag's value should look like instead of Go's parse error.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if m := invalidFlagRE.FindStringSubmatch(msg); m != nil {
		want := map[string]string{"Float": "a number", "Int": "a whole number", "Uint": "a whole number", "Bool": "true or false"}[m[3]]
		if want == "" {
			want = "a " + strings.ToLower(m[3])
		}
		flagName := m[2]
		if i := strings.LastIndex(flagName, "--"); i >= 0 {
			flagName = flagName[i:]
		}
		return badInput(&knowledge.Error{File: flagName, Problem: fmt.Sprintf("%q is not %s", m[1], want)})
	}
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if n := knowledge.Nearest(name, names); n != "" {
			return badInput(fmt.Errorf("%s; did you mean --%s?", msg, n))
		}
	}
	return badInput(err)
}

func isFlagError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown flag", "unknown shorthand flag", "flag needs an argument", "bad flag syntax", "invalid argument", "unknown command", "accepts ", "requires "} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

var errUsageShown = errors.New("usage shown")

// Version is the module version, or "dev" for a source build.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

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
result, and a browser for the knowledge base.`,
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
			return badInput(e)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runRoot(cmd)
		},
	}
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().StringVar(&a.kbDir, "kb", "", "folder of TOML files overlaid on the built-in knowledge base (env "+knowledge.EnvKB+")")
	root.PersistentFlags().BoolVar(&a.noColor, "no-color", false, "plain output without colour (NO_COLOR is honoured too)")
	root.Flags().BoolVar(&a.accessible, "accessible", false, "plain prompts for screen readers instead of the full-screen app (env ACCESSIBLE=1)")
	root.AddCommand(a.decideCommand(), a.drillCommand(), a.scenariosCommand(), a.questionsCommand(), a.kbCommand(), a.versionCommand(), a.sizeCommand())
	return root
}

// runRoot is `stackpick` with no command: the interactive app. It needs a
// terminal on both ends; without one, say what to run instead.
func (a *app) runRoot(cmd *cobra.Command) error {
	if !isTerminal(a.io.Stdin) || !isTerminal(a.io.Stdout) {
		fmt.Fprint(a.io.Stderr, `stackpick: the interactive app needs a terminal (stdin and stdout are not both one).
For scripts and pipes, use a command instead:
  stackpick decide --answers FILE [--format text|json]
  stackpick decide --scenario exit-test
  stackpick size --model ID --gpu ID
  stackpick drill taxonomy | scenario | flags | explain | mock | stats
  stackpick scenarios | questions | kb check | kb rules
Run 'stackpick --help' for more.
`)
		return badInput(errUsageShown)
	}
	kb, err := a.loadKB()
	if err != nil {
		return err
	}
	list, err := scenarios.All(kb)
	if err != nil {
		return badInput(fmt.Errorf("the knowledge base loads, but a preset scenario no longer fits it:\n%w", err))
	}
	err = ui.Run(cmd.Context(), kb, list, ui.Options{
		NoColor:     a.noColor || a.getenv("NO_COLOR") != "",
		Accessible:  a.accessible || envTrue(a.getenv("ACCESSIBLE")),
		Env:         a.io.Env,
		Stdin:       a.io.Stdin,
		Stdout:      a.io.Stdout,
		Stderr:      a.io.Stderr,
		Now:         a.clock(),
		HistoryPath: a.getenv(EnvHistory),
		// The overlay the knowledge base was loaded with, named in the
		// replay line of saved answers.
		KBDir: a.overlayDir(),
	})
	if errors.Is(err, ui.ErrInterrupted) {
		return &exitError{code: ExitInterrupted, err: errUsageShown}
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

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print stackpick's version and the date of its knowledge",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			fmt.Fprintf(a.io.Stdout, "stackpick %s\nknowledge base: %d products, %d rules, newest fact as of %s\n", Version(), len(kb.Products), len(kb.Rules), newestAsOf(kb))
			return nil
		},
	}
}

func newestAsOf(kb *knowledge.KB) string {
	newest := ""
	consider := func(s string) {
		if s > newest {
			newest = s
		}
	}
	for _, p := range kb.Products {
		for _, s := range p.Sources {
			consider(s.AsOf)
		}
		for _, m := range p.Landmines {
			consider(m.AsOf)
		}
	}
	for _, r := range kb.Rules {
		consider(r.AsOf)
	}
	return newest
}
