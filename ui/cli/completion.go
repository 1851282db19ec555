package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// Shell completion (cobra's `completion` scripts call the hidden
// `__complete` command): what the shell offers for each flag's value and
// each command's arguments. Only the functions are registered at start-up;
// the knowledge base (with the --kb overlay the line names, if any) is
// loaded when the shell asks for a value that comes from it.

// completionHelp is the help of the completion commands, in place of
// cobra's: its command lines are markdown ("#### Linux:" headings) in
// indented prose, which a help page wraps as prose, splitting the very
// lines a newcomer copies. Here the commands are examples, wrapped (if at
// all) as a shell reads them.
var completionHelp = map[string]struct{ long, example string }{
	"completion": {
		long: `Print a script that completes stackpick's commands, flags and values
(scenarios, formats, GPUs, models, answer keys, products) when you press Tab.
Each shell's help says how to install it.`,
		example: `  stackpick completion bash --help`,
	},
	"bash": {
		long: `Print the bash completion script. It needs the bash-completion package:
install it with your system's package manager if it is not there already.
Start a new shell after installing the script.`,
		example: `  # in the current shell only:
  source <(stackpick completion bash)
  # for every new shell, on Linux:
  stackpick completion bash > /etc/bash_completion.d/stackpick
  # for every new shell, on macOS with Homebrew:
  stackpick completion bash > $(brew --prefix)/etc/bash_completion.d/stackpick`,
	},
	"zsh": {
		long: `Print the zsh completion script. If completion is not yet enabled in your
zsh, enable it once (the first example). Start a new shell after installing
the script.`,
		example: `  # enable completion in zsh, once:
  echo "autoload -U compinit; compinit" >> ~/.zshrc
  # in the current shell only:
  source <(stackpick completion zsh)
  # for every new shell, on Linux:
  stackpick completion zsh > "${fpath[1]}/_stackpick"
  # for every new shell, on macOS with Homebrew:
  stackpick completion zsh > $(brew --prefix)/share/zsh/site-functions/_stackpick`,
	},
	"fish": {
		long: `Print the fish completion script. Start a new shell after installing it.`,
		example: `  # in the current shell only:
  stackpick completion fish | source
  # for every new shell:
  stackpick completion fish > ~/.config/fish/completions/stackpick.fish`,
	},
	"powershell": {
		long: `Print the PowerShell completion script. To load it in every new session,
add the example's command to your PowerShell profile.`,
		example: `  # in the current session:
  stackpick completion powershell | Out-String | Invoke-Expression`,
	},
}

// describeCompletion gives the completion command and its shells
// stackpick's help, and their usage lines their flags.
func describeCompletion(c *cobra.Command) {
	for _, cmd := range append([]*cobra.Command{c}, c.Commands()...) {
		h, ok := completionHelp[cmd.Name()]
		if !ok {
			continue
		}
		cmd.Long, cmd.Example = h.long, h.example
		cmd.DisableFlagsInUseLine = false
	}
}

// formatsOf is each command's --format values, the lists its RunE checks.
var formatsOf = map[string][]string{
	"stackpick decide":     decideFormats,
	"stackpick diff":       decideFormats,
	"stackpick compare":    compareFormats,
	"stackpick size":       sizeFormats,
	"stackpick kb rules":   rulesFormats,
	"stackpick kb changes": changesFormats,
	"stackpick kb verify":  verifyFormats,
}

func (a *app) registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		a.registerCommandCompletions(c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func (a *app) registerCommandCompletions(c *cobra.Command) {
	flag := func(name string, fn cobra.CompletionFunc) {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, fn)
		}
	}
	if formats, ok := formatsOf[c.CommandPath()]; ok {
		flag("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp))
	}
	flag("scenario", a.fromKB(presetNames))
	flag("gpu", a.fromKB(gpuIDs))
	flag("model", a.fromKB(modelIDs))
	flag("status", cobra.FixedCompletions(knowledge.MemoStatuses, cobra.ShellCompDirectiveNoFileComp))
	flag("answers", tomlFiles)
	flag("kb", folders)
	flag("sources", folders)
	flag("vllm-version", a.fromKB(vllmReleases))
	// A number the user picks: nothing to offer, and no file names.
	flag("seed", cobra.NoFileCompletions)

	switch c.CommandPath() {
	case "stackpick questions":
		c.ValidArgsFunction = a.fromKB(answerKeys)
	case "stackpick compare":
		// Two or three products: none offered after the third.
		c.ValidArgsFunction = atMost(3, a.fromKB(productIDs))
	case "stackpick kb changes":
		c.ValidArgsFunction = a.fromKB(productIDs)
	case "stackpick drill":
		// cobra completes ValidArgs itself and stops, letting the shell
		// offer file names, after the first argument: the names are
		// offered here instead.
		c.ValidArgs = nil
		c.ValidArgsFunction = func(_ *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, n := range append(slices.Clone(drill.Names), "stats") {
				if strings.HasPrefix(n, typed) {
					out = append(out, n)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		}
	case "stackpick open", "stackpick diff":
		c.ValidArgsFunction = tomlFiles
	case "stackpick manifest":
		flag("out", folders)
		flag("target", a.fromKB(targetVersions))
		flag("set", a.placeholderNames)
	}
}

// fromKB completes with values read from the knowledge base, loaded now
// (with the overlay the command line names). Values already given as
// arguments are not offered again, nor values that do not start with what
// is typed so far. A knowledge base that does not load
// offers nothing.
func (a *app) fromKB(values func(kb *knowledge.KB) []cobra.Completion) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		kb, err := a.loadKB()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		var out []cobra.Completion
		for _, v := range values(kb) {
			name, _, _ := strings.Cut(v, "\t")
			if strings.HasPrefix(name, typed) && !slices.Contains(args, name) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// atMost offers nothing (and no file names) once n arguments are given.
func atMost(n int, fn cobra.CompletionFunc) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return fn(c, args, typed)
	}
}

// vllmReleases is the vLLM release the knowledge base records defaults
// for (its newest; --vllm-version takes that or an older one).
func vllmReleases(kb *knowledge.KB) []cobra.Completion {
	v := strings.TrimPrefix(decide.VLLMRelease(kb), "v")
	if v == "" {
		return nil
	}
	return []cobra.Completion{cobra.CompletionWithDesc(v, "the newest vLLM release the knowledge base knows")}
}

func presetNames(kb *knowledge.KB) []cobra.Completion {
	all, err := scenarios.All(kb)
	if err != nil {
		return nil
	}
	out := make([]cobra.Completion, len(all))
	for i, s := range all {
		out[i] = cobra.CompletionWithDesc(s.Name, s.Title)
	}
	return out
}

// idsOf completes the ids of a knowledge base list, each described by its
// name.
func idsOf[T any](items []T, idName func(T) (string, string)) []cobra.Completion {
	out := make([]cobra.Completion, len(items))
	for i, it := range items {
		out[i] = cobra.CompletionWithDesc(idName(it))
	}
	return out
}

func gpuIDs(kb *knowledge.KB) []cobra.Completion {
	return idsOf(kb.GPUs, func(g *knowledge.GPU) (string, string) { return g.ID, g.Name })
}

func modelIDs(kb *knowledge.KB) []cobra.Completion {
	return idsOf(kb.Models, func(m *knowledge.Model) (string, string) { return m.ID, m.Name })
}

func productIDs(kb *knowledge.KB) []cobra.Completion {
	return idsOf(kb.Products, func(p *knowledge.Product) (string, string) { return p.ID, p.Name })
}

// answerKeys are the keys an answers file may set: the asked questions,
// not the derived answers.
func answerKeys(kb *knowledge.KB) []cobra.Completion {
	var out []cobra.Completion
	for _, q := range kb.Questions {
		if !q.Derived {
			out = append(out, cobra.CompletionWithDesc(q.Key, q.Prompt))
		}
	}
	return out
}

func tomlFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"toml"}, cobra.ShellCompDirectiveFilterFileExt
}

func folders(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// targetVersions completes --target: each target's id at each vendored
// version, newest first, described by the project's name.
func targetVersions(kb *knowledge.KB) []cobra.Completion {
	var out []cobra.Completion
	for _, t := range kb.Targets {
		for i := len(t.Versions) - 1; i >= 0; i-- {
			out = append(out, cobra.CompletionWithDesc(t.ID+"@"+t.Versions[i], t.Name))
		}
	}
	return out
}

// placeholderNames completes --set with NAME= for each placeholder of the
// files for the answers the command line names so far (none before
// --answers or --scenario): a decision and the files, some milliseconds.
func (a *app) placeholderNames(cmd *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
	none := cobra.ShellCompDirectiveNoFileComp
	file, _ := cmd.Flags().GetString("answers")
	scenario, _ := cmd.Flags().GetString("scenario")
	if (file == "") == (scenario == "") || file == "-" {
		return nil, none
	}
	kb, err := a.loadKB()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	answers, _, err := a.resolveAnswers(kb, file, scenario)
	if err != nil {
		return nil, none
	}
	d := decide.Decide(kb, answers)
	set, err := report.ManifestSet(manifest.Request{KB: kb, Decision: &d})
	if err != nil {
		return nil, none
	}
	var out []cobra.Completion
	for _, p := range set.Placeholders {
		if v := p.Name + "="; strings.HasPrefix(v, typed) {
			out = append(out, cobra.CompletionWithDesc(v, p.Explains))
		}
	}
	return out, none | cobra.ShellCompDirectiveNoSpace
}
