package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpTexts is every help page's path and the texts it must show whole:
// the command's description, its subcommands' and its flags'.
func helpTexts(t *testing.T) map[string][]string {
	t.Helper()
	root := newApp(IO{}).rootCommand()
	out := map[string][]string{}
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		var texts []string
		if c.Long != "" {
			texts = append(texts, c.Long)
		} else {
			texts = append(texts, c.Short)
		}
		for _, sc := range c.Commands() {
			if sc.IsAvailableCommand() {
				texts = append(texts, sc.Short)
				walk(sc, append(slices.Clone(path), sc.Name()))
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" {
				texts = append(texts, f.Usage)
			}
		})
		out[strings.Join(path, " ")] = texts
	}
	walk(root, nil)
	return out
}

// Every help page, piped, at 80 columns (and at 40 and 120): no line
// wider than the page (but one holding a word too wide for a line: a
// path is never cut), no word split across lines (each description's
// words appear whole and in order), no trailing space, no escape code.
func TestHelpWrapsBetweenWordsWithoutTrailingSpaces(t *testing.T) {
	pages := helpTexts(t)
	if len(pages) < 15 {
		t.Fatalf("found %d commands", len(pages))
	}
	for _, cols := range []int{80, 40, 120} {
		for path, texts := range pages {
			args := append(strings.Fields(path), "--help")
			code, page, stderr := runHelp([]string{"COLUMNS=" + strconv.Itoa(cols)}, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%v: exit %d stderr %q", args, code, stderr)
			}
			checkHelpPage(t, "stackpick "+path+" --help at "+strconv.Itoa(cols), page, texts, cols)
		}
	}
}

func checkHelpPage(t *testing.T, what, page string, texts []string, cols int) {
	t.Helper()
	if strings.Contains(page, "\x1b") {
		t.Errorf("%s: an escape code in piped help", what)
	}
	for i, l := range strings.Split(page, "\n") {
		// Only a word too wide for the widest text column (a description
		// under its flag, 8 columns in) may stick out.
		if w := ansi.StringWidth(l); w > cols && !slices.ContainsFunc(strings.Fields(l), func(w string) bool { return ansi.StringWidth(w) > cols-helpBlock-4 }) {
			t.Errorf("%s: line %d is %d columns wide: %q", what, i+1, w, l)
		}
		if strings.TrimRight(l, " \t") != l {
			t.Errorf("%s: line %d ends in a space: %q", what, i+1, l)
		}
	}
	if strings.Contains(page, "####") {
		t.Errorf("%s: a markdown heading on the page:\n%s", what, page)
	}
	words := strings.Fields(strings.ReplaceAll(page, " \\\n", "\n"))
	for _, text := range texts {
		want := strings.Fields(text)
		if len(want) == 0 {
			continue
		}
		want[0] = strings.ToUpper(want[0][:1]) + want[0][1:] // help capitalises a flag's first word
		if !containsRun(words, want) && !containsRun(words, strings.Fields(text)) {
			t.Errorf("%s: the words of %q are not whole and in order on the page:\n%s", what, text, page)
		}
	}
}

// containsRun says whether want appears in words as a run.
func containsRun(words, want []string) bool {
	for i := 0; i+len(want) <= len(words); i++ {
		if slices.Equal(words[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// runHelp runs the command line in-process with env, as the binary would.
func runHelp(env []string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Env: env})
	return code, out.String(), errb.String()
}

var colourSGR = regexp.MustCompile("\x1b\\[[0-9;:]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;:m]")

// On an 80-column terminal (a pty under script(1)): help is painted in
// colour and wrapped to the terminal; --no-color paints no escape code at
// all, and NO_COLOR=1 no colour.
func TestHelpOnATerminalHonoursNoColor(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "stackpick")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/stackpick/stackpick").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	texts := helpTexts(t)
	for _, c := range []struct {
		name, args string
		env        string
		escapes    bool // any escape code
		colour     bool
	}{
		{"colour", "decide --help", "", true, true},
		{"--no-color", "decide --help --no-color", "", false, false},
		{"--no-color on the root", "--no-color --help", "", false, false},
		// NO_COLOR is --no-color: not bold kept and an empty "\e[m"
		// left where each colour was.
		{"NO_COLOR", "decide --help", "NO_COLOR=1", false, false},
		{"NO_COLOR, a command's text", "decide -s exit-test", "NO_COLOR=1", false, false},
		{"NO_COLOR, kb rules", "kb rules", "NO_COLOR=1", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			transcript := filepath.Join(dir, "transcript")
			cmd := exec.Command(script, "-qec", "stty cols 80 rows 50; "+bin+" "+c.args, transcript)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor", "COLORFGBG=15;0", "NO_COLOR=", "TMUX=", c.env)
			cmd.Stdin = strings.NewReader("")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			raw, err := os.ReadFile(transcript)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(raw), "\r\n", "\n")
			// script(1) writes a line before and after the program's output.
			if strings.HasPrefix(got, "Script started") {
				got = got[strings.Index(got, "\n")+1:]
			}
			if i := strings.LastIndex(got, "\nScript done"); i >= 0 {
				got = got[:i+1]
			}
			if has := strings.Contains(got, "\x1b"); has != c.escapes {
				t.Errorf("escape codes: %v, want %v:\n%q", has, c.escapes, got)
			}
			if has := colourSGR.MatchString(got); has != c.colour {
				t.Errorf("colour: %v, want %v", has, c.colour)
			}
			if !strings.Contains(c.args, "--help") {
				return
			}
			path := strings.TrimSpace(strings.NewReplacer("--help", "", "--no-color", "").Replace(c.args))
			checkHelpPage(t, c.args, ansi.Strip(got), texts[path], 80)
		})
	}
}

// Every example on every help page is a command a reader can copy at any
// width: its lines, joined where they end in " \", are the example whole.
// (The completion commands' install lines were prose in cobra's help,
// split inside "$(brew --prefix)" and "source <(stackpick completion
// bash)".)
func TestExamplesStayWholeCommands(t *testing.T) {
	root := newApp(IO{}).rootCommand()
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, sc := range c.Commands() {
			if sc.IsAvailableCommand() {
				walk(sc)
			}
		}
	}
	walk(root)
	sawBrew := false
	for _, c := range cmds {
		var want []string
		cont := ""
		for _, ex := range strings.Split(c.Example, "\n") {
			if ex = strings.TrimSpace(ex); ex != "" && !strings.HasPrefix(ex, "#") {
				if rest, ok := strings.CutSuffix(ex, " \\"); ok {
					cont += rest + " "
					continue
				}
				want = append(want, cont+ex)
				cont = ""
			}
		}
		if len(want) == 0 {
			continue
		}
		args := append(strings.Fields(c.CommandPath())[1:], "--help")
		for _, cols := range []int{40, 80, 120} {
			_, page, _ := runHelp([]string{"COLUMNS=" + strconv.Itoa(cols)}, args...)
			_, section, _ := strings.Cut(page, "\n  EXAMPLES\n\n")
			section, _, _ = strings.Cut(section, "\n\n")
			var got []string
			joined := ""
			for _, l := range strings.Split(section, "\n") {
				l = strings.TrimSpace(l)
				if strings.HasPrefix(l, "#") && joined == "" {
					continue
				}
				if rest, ok := strings.CutSuffix(l, " \\"); ok {
					joined += rest + " "
					continue
				}
				got = append(got, joined+l)
				joined = ""
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s --help at %d: the examples are\n%q\nwant\n%q", c.CommandPath(), cols, got, want)
			}
			sawBrew = sawBrew || strings.Contains(section, "$(brew --prefix)/etc/bash_completion.d/stackpick")
		}
	}
	if !sawBrew {
		t.Error("completion bash --help does not show its Homebrew install line as an example")
	}
}
