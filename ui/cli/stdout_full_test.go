package cli

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios/drill"
)

// fullStdout is /dev/full where there is one, else a writer that fails as
// it does.
func fullStdout(t *testing.T) io.Writer {
	t.Helper()
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		t.Cleanup(func() { f.Close() })
		return f
	}
	return failingWriter{}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// Every command, its help page, the version flag and the completion
// scripts, with stdout on a full disk, exit 74 (the environment's fault,
// as the README says) and say so: never 0 with the output lost, never 1,
// the code for a bug. The table is checked against the command tree, so a
// new command has to be added to it.
func TestEveryCommandOnAFullStdoutExits74(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.toml")
	b := filepath.Join(dir, "b.toml")
	os.WriteFile(a, []byte("nodes = 4\ngpu = \"h200\"\nkubernetes = \"available\"\n"), 0o644)
	os.WriteFile(b, []byte("nodes = 4\ngpu = \"h200\"\nkubernetes = \"none\"\n"), 0o644)
	c, _ := drill.Load(knowledge.MustDefault())
	taxonomy := strings.Repeat("e\n", len(c.TaxonomyQuiz(3, nil)))

	// How each command is run; nil: it cannot write to a full stdout, and why.
	runs := map[string][][]string{
		"stackpick":                       {{"--version"}, {"-v"}, {"help"}, {"help", "decide"}},
		"stackpick compare":               {{"compare", "dynamo", "llm-d"}, {"compare", "dynamo", "llm-d", "--format", "markdown"}},
		"stackpick completion bash":       {{"completion", "bash"}},
		"stackpick completion fish":       {{"completion", "fish"}},
		"stackpick completion powershell": {{"completion", "powershell"}},
		"stackpick completion zsh":        {{"completion", "zsh"}},
		"stackpick decide":                {{"decide", "-s", "exit-test"}, {"decide", "-s", "exit-test", "--format", "json"}, {"decide", "-s", "exit-test", "--format", "markdown"}},
		"stackpick diff":                  {{"diff", a, b}, {"diff", a, b, "--format", "json"}},
		"stackpick drill":                 {{"drill", "stats"}, {"drill", "taxonomy", "--seed", "3"}},
		"stackpick kb changes":            {{"kb", "changes"}},
		"stackpick kb check":              {{"kb", "check"}},
		"stackpick kb rules":              {{"kb", "rules"}, {"kb", "rules", "--format", "markdown"}},
		"stackpick kb verify":             nil, // needs clones of the cited repositories (kb_verify_test.go)
		"stackpick man":                   {{"man"}},
		"stackpick manifest":              {{"manifest", "-s", "single-node", "--out", "-"}, {"manifest", "-s", "single-node", "--out", t.TempDir()}},
		"stackpick open":                  nil, // the interactive app: a terminal, not a file
		"stackpick questions":             {{"questions"}, {"questions", "gpu"}},
		"stackpick scenarios":             {{"scenarios"}},
		"stackpick size":                  {{"size", "--model", "llama-3.3-70b", "--gpu", "h100"}, {"size", "--model", "llama-3.3-70b", "--gpu", "h100", "--format", "json"}},
		"stackpick version":               {{"version"}},
	}
	root := newApp(IO{}).rootCommand()
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		paths = append(paths, c.CommandPath())
		for _, sub := range c.Commands() {
			if sub.Name() != "help" {
				walk(sub)
			}
		}
	}
	walk(root)

	var cases [][]string
	for _, p := range paths {
		args := strings.Fields(p)[1:]
		cases = append(cases, append(args, "--help"))
		if !hasSub(root, args) {
			continue
		}
		list, ok := runs[p]
		if !ok {
			t.Errorf("%s is not in the table: say how it writes to stdout", p)
		}
		cases = append(cases, list...)
	}
	cases = append(cases, []string{"__complete", "decide", "--scenario", ""})
	t.Logf("%d commands, %d command lines", len(paths), len(cases))

	for _, args := range cases {
		env := []string{EnvHistory + "=" + filepath.Join(t.TempDir(), "history.json")}
		var errb bytes.Buffer
		stdin := ""
		if args[0] == "drill" && args[1] == "taxonomy" {
			stdin = taxonomy
		}
		code := Run(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: fullStdout(t), Stderr: &errb, Env: env})
		want := "stackpick: cannot write to standard output: no space left on device\n"
		if code != ExitEnvironment || !strings.HasSuffix(errb.String(), want) {
			t.Errorf("stackpick %s > /dev/full: exit %d, stderr %q; want exit %d, %q", strings.Join(args, " "), code, errb.String(), ExitEnvironment, want)
		}
	}
}

// hasSub says whether the command at path runs (is not only a group).
func hasSub(root *cobra.Command, path []string) bool {
	c, _, err := root.Find(path)
	return err == nil && c.Runnable()
}
