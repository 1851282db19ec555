package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/report/manifest"
	"github.com/stackpick/stackpick/ui/store"
)

func (a *app) manifestCommand() *cobra.Command {
	var answersFile, scenarioName, out string
	var targetArgs, setArgs []string
	var force bool
	cmd := &cobra.Command{
		Use:   "manifest (--answers FILE | --scenario NAME) --out DIR",
		Short: "Write the deployable files for the picked stack",
		Long: `Write the files that deploy the stack stackpick picks for the answers in FILE
(or for a preset): Kubernetes objects (KServe, llm-d, NVIDIA Dynamo, KubeRay),
a Ray Serve config, a Triton model repository, or, on one node with no
orchestrator, a Compose file and the same docker run line. They come from the
same decision and launch command as the memo, and MANIFESTS.md beside them
says what each deploys and the command that applies it, and, file by file,
what was checked and what only the place it runs can check.

Every value stackpick cannot know (a namespace, a Secret's name, a model
folder) is a named placeholder, ${NAME}: --set NAME=VALUE fills it. --target
PROJECT@VERSION picks the schema version a project's files are written for
(default: the newest vendored); a feature that version lacks is an error that
names the version that has it. The projects and versions are the README's
vendored schemas; shell completion offers them, and a wrong one is refused
with the list.

--out - prints every file to stdout, each after a "==> path <==" line. No
file is replaced without --force; with any file of the set in the way,
nothing is written. Exit 3 when stackpick writes no files for the stack
(with the reason).`,
		Example: `  stackpick manifest --scenario single-node --out deploy
  stackpick manifest --answers fleet.toml --out deploy --set NAMESPACE=llm-serving
  stackpick manifest --scenario exit-test --out deploy --target kserve@v0.19
  stackpick manifest --scenario cpu-box --out -`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case answersFile == "" && scenarioName == "":
				return badInputf("manifest needs --answers FILE or --scenario NAME (see 'stackpick scenarios' and 'stackpick questions')")
			case answersFile != "" && scenarioName != "":
				return badInputf("give --answers or --scenario, not both")
			case out == "":
				return badInputf("manifest needs --out DIR, the folder to write the files in (--out - prints them to stdout)")
			}
			targets, err := manifest.ParseTargets(targetArgs)
			if err != nil {
				return badInput(err)
			}
			sets, err := manifest.ParseSets(setArgs)
			if err != nil {
				return badInput(err)
			}
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			answers, _, err := a.resolveAnswers(kb, answersFile, scenarioName)
			if err != nil {
				return err
			}
			d := decide.Decide(kb, answers)
			origin := "answers " + answersFile
			command := a.manifestLine(answersFile, scenarioName, out, targets, sets)
			switch {
			case scenarioName != "":
				origin = "scenario " + scenarioName
			case answersFile == "-":
				// Answers piped in are not kept: no command writes these
				// files again, and the header says so.
				origin = "answers read from standard input (not kept: save them to a file to trace these files back to them)"
				command = ""
			}
			set, err := report.ManifestSet(manifest.Request{KB: kb, Decision: &d, Origin: origin, Version: Version(), Targets: targets, Sets: sets, Command: command})
			var ue *manifest.UsageError
			var nc *manifest.NotCoveredError
			switch {
			case errors.As(err, &ue):
				return badInput(err)
			case errors.As(err, &nc):
				return noFiles(fmt.Errorf("no deployable files: %s", nc.Why))
			case err != nil:
				return internal(err)
			}
			files := make([]store.SetFile, 0, len(set.Files)+1)
			for _, f := range set.Files {
				files = append(files, store.SetFile{Path: f.Path, Data: f.Body})
			}
			files = append(files, store.SetFile{Path: manifest.IndexPath})
			if out != "-" {
				// The set written here before: its files this one does not
				// replace stay, and the index and the summary name them.
				before, _ := knowledge.ReadInput(filepath.Join(out, manifest.IndexPath), "index of deployable files")
				set.Earlier = store.Leftovers(out, manifest.Listed(before), files)
			}
			files[len(files)-1].Data = set.Index(origin, Version())
			if out == "-" {
				summary := report.ManifestSummary(set, out, command, a.width(a.io.Stderr))
				if err := writeSetTo(a.out(a.io.Stdout), files); err != nil {
					return err
				}
				_, err := io.WriteString(a.io.Stderr, summary)
				return err
			}
			if err := a.writeSet(out, files, force, set.Earlier); err != nil {
				return err
			}
			width := a.width(a.io.Stdout)
			summary := report.ManifestSummary(set, out, command, width)
			if left := report.ManifestLeftovers(out, set.Earlier, width); left != "" {
				summary += "\n" + left
			}
			_, err = io.WriteString(a.out(a.io.Stdout), summary)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&answersFile, "answers", "a", "", "answers TOML file")
	fl.StringVarP(&scenarioName, "scenario", "s", "", "preset scenario name (see 'stackpick scenarios')")
	fl.VarP(outValue{&out}, "out", "o", "the folder to write the files in ('-' prints them to stdout); never overwrites without --force")
	fl.StringArrayVar(&targetArgs, "target", nil, "PROJECT@VERSION: the schema version a project's files are written for (repeat for more projects)")
	fl.StringArrayVar(&setArgs, "set", nil, "NAME=VALUE: fill the placeholder ${NAME} (repeat for more)")
	fl.BoolVar(&force, "force", false, "allow replacing files that exist in --out")
	return cmd
}

// manifestLine is the command line that writes the same files again.
func (a *app) manifestLine(answersFile, scenarioName, out string, targets, sets map[string]string) string {
	line := "stackpick"
	if dir := a.overlayDir(); dir != "" {
		line += " --kb " + report.ShellQuote(dir)
	}
	line += " manifest"
	if scenarioName != "" {
		line += " --scenario " + report.ShellQuote(scenarioName)
	} else {
		line += " --answers " + report.ShellQuote(answersFile)
	}
	line += " --out " + report.ShellQuote(out)
	for _, id := range sortedKeys(targets) {
		line += " --target " + report.ShellQuote(id+"@"+targets[id])
	}
	for _, name := range sortedKeys(sets) {
		line += " --set " + report.ShellQuote(name+"="+sets[name])
	}
	return line
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// writeSetTo prints a set to w, each file after a "==> path <==" line (as
// head and tail print several files) and a blank line between files.
func writeSetTo(w io.Writer, files []store.SetFile) error {
	for i, f := range files {
		sep := ""
		if i > 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s==> %s <==\n", sep, f.Path); err != nil {
			return err
		}
		if _, err := w.Write(f.Data); err != nil {
			return err
		}
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeSet writes the set under dir, with the messages emit gives for one
// file: a file in the way is named with what to type instead, and so are
// the files of an earlier set there that this one would not replace.
func (a *app) writeSet(dir string, files []store.SetFile, force bool, earlier []string) error {
	_, err := store.WriteSet(dir, files, force)
	var exists *store.ExistsError
	var notRegular *store.NotRegularError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exists):
		what, them := exists.Paths[0]+" already exists", "it"
		if n := len(exists.Paths); n > 1 {
			what = fmt.Sprintf("%s and %d more files of the set already exist (%s)", exists.Paths[0], n-1, strings.Join(exists.Paths[1:], ", "))
			them = "them"
		}
		hint := "pass --force to replace " + them + ", or choose another --out"
		switch n := len(earlier); {
		case n == 1:
			hint += "; 1 file of the set written there before (" + earlier[0] + ") is not part of this one and would stay"
		case n > 1:
			hint += fmt.Sprintf("; %d files of the set written there before (%s) are not part of this one and would stay", n, strings.Join(earlier, ", "))
		}
		return badInput(&knowledge.Error{File: dir, Problem: what + "; nothing written", Hint: hint})
	case errors.Is(err, store.ErrNotFolder):
		return badInput(&knowledge.Error{File: dir, Problem: "is a file, not a folder", Hint: "--out names the folder the files go in, for example --out " + filepath.Join(filepath.Dir(dir), "deploy")})
	case errors.Is(err, store.ErrIsDir):
		return badInput(&knowledge.Error{File: dir, Problem: strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)) + ", where a file of the set goes; nothing written", Hint: "move it away, or choose another --out"})
	case errors.As(err, &notRegular):
		return badInput(&knowledge.Error{File: notRegular.Path, Problem: notRegular.Problem() + "; nothing written", Hint: "move it away, or choose another --out"})
	}
	state := "; the folder is as it was (files this run had replaced are back, and the files and folders it made are removed)"
	var re *store.RestoreError
	if errors.As(err, &re) {
		state = "; every other file is as it was"
	}
	ke := &knowledge.Error{File: dir, Problem: "cannot write the files: " + err.Error() + state}
	if isEnvironment(err) {
		return environmentFault(ke)
	}
	return badInput(ke)
}
