package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/atomicfile"
	"github.com/stackpick/stackpick/ui/report"
)

var decideFormats = []string{"text", "json", "markdown"}

func (a *app) decideCommand() *cobra.Command {
	var answersFile, scenarioName, format, out, date string
	var force bool
	cmd := &cobra.Command{
		Use:   "decide (--answers FILE | --scenario NAME)",
		Short: "Recommend a stack for a set of answers, with the reasoning",
		Long: `Recommend an engine, a model server and an orchestrator for the answers in FILE
(a TOML file; keys are listed by 'stackpick questions', missing keys keep their
defaults) or for a preset scenario ('stackpick scenarios'). Each layer shows the
rules that fired and their sources, the alternatives and why they lost, the
risks, and the single answer changes that would change the pick.`,
		Example: `  stackpick decide --scenario exit-test
  stackpick decide --answers fleet.toml --format json --out decision.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(decideFormats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(decideFormats, ", "), Hint: hintFor(format, decideFormats)})
			}
			switch {
			case answersFile == "" && scenarioName == "":
				return badInputf("decide needs --answers FILE or --scenario NAME (see 'stackpick scenarios' and 'stackpick questions')")
			case answersFile != "" && scenarioName != "":
				return badInputf("give --answers or --scenario, not both")
			}
			memoDate, err := a.memoDate(date)
			if err != nil {
				return err
			}
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			answers, header, err := a.resolveAnswers(kb, answersFile, scenarioName)
			if err != nil {
				return err
			}
			d := decide.Decide(kb, answers)
			return a.emit(out, force, func(w io.Writer, color bool) error {
				switch format {
				case "markdown":
					source := "scenario " + scenarioName
					if answersFile != "" {
						source = "answers file " + answersFile
					}
					_, err := io.WriteString(w, report.Memo(kb, d, report.MemoInput{Title: header.Title, Story: header.Story, Source: source, Date: memoDate}))
					return err
				case "json":
					enc := json.NewEncoder(w)
					enc.SetIndent("", "  ")
					return enc.Encode(d)
				default:
					st := a.styles
					width := 100
					if color {
						width = a.width(a.io.Stdout)
					}
					_, err := io.WriteString(w, report.Decision(kb, d, header, st, width))
					return err
				}
			})
		},
	}
	cmd.Flags().StringVarP(&answersFile, "answers", "a", "", "answers TOML file")
	cmd.Flags().StringVarP(&scenarioName, "scenario", "s", "", "preset scenario name (see 'stackpick scenarios')")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, json, or markdown (a decision record)")
	cmd.Flags().StringVar(&date, "date", "", "date written in a markdown memo, YYYY-MM-DD (default: today, or SOURCE_DATE_EPOCH)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to FILE instead of stdout ('-' for stdout); never overwrites without --force")
	cmd.Flags().BoolVar(&force, "force", false, "allow --out to replace an existing file")
	return cmd
}

// memoDate is the date a memo carries: --date, else SOURCE_DATE_EPOCH (for
// reproducible builds), else today. Only the command line reads the clock.
func (a *app) memoDate(flag string) (string, error) {
	if flag != "" {
		if _, err := time.Parse(time.DateOnly, flag); err != nil {
			return "", badInput(&knowledge.Error{File: "--date", Key: flag, Problem: "not a date", Allowed: "YYYY-MM-DD", Hint: "for example --date " + time.Now().Format(time.DateOnly)})
		}
		return flag, nil
	}
	return a.clock()().Format(time.DateOnly), nil
}

// clock is what dates memos, here and in the interactive app:
// SOURCE_DATE_EPOCH when set (reproducible output), else the system clock.
func (a *app) clock() func() time.Time {
	if epoch := a.getenv("SOURCE_DATE_EPOCH"); epoch != "" {
		if secs, err := strconv.ParseInt(epoch, 10, 64); err == nil {
			return func() time.Time { return time.Unix(secs, 0).UTC() }
		}
	}
	return time.Now
}

func hintFor(got string, allowed []string) string {
	if n := knowledge.Nearest(got, allowed); n != "" {
		return fmt.Sprintf("did you mean %q?", n)
	}
	return ""
}

// resolveAnswers reads --answers or looks up --scenario.
func (a *app) resolveAnswers(kb *knowledge.KB, file, scenario string) (knowledge.Answers, report.Header, error) {
	if scenario != "" {
		all, err := scenarios.All(kb)
		if err != nil {
			return knowledge.Answers{}, report.Header{}, internal(err)
		}
		s, err := scenarios.Find(all, scenario)
		if err != nil {
			return knowledge.Answers{}, report.Header{}, badInput(err)
		}
		return s.Answers, report.Header{Title: s.Title, Story: s.Story}, nil
	}
	data, err := readInput(a.io.Stdin, file)
	if err != nil {
		return knowledge.Answers{}, report.Header{}, badInput(err)
	}
	answers, err := kb.ParseAnswers(file, data)
	if err != nil {
		return knowledge.Answers{}, report.Header{}, badInput(err)
	}
	return answers, report.Header{Title: "Answers from " + file}, nil
}

// readInput reads a file, or stdin for "-", with an error a person can act on.
func readInput(stdin io.Reader, file string) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(stdin)
	}
	data, err := os.ReadFile(file)
	if err == nil {
		return data, nil
	}
	e := &knowledge.Error{File: file, Problem: "cannot read the answers file"}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Problem += ": no such file"
		e.Hint = "check the path, or start from a preset: stackpick decide --scenario exit-test"
	case errors.Is(err, fs.ErrPermission):
		e.Problem += ": permission denied"
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			e.Problem += ": " + pe.Err.Error()
		} else {
			e.Problem += ": " + err.Error()
		}
	}
	return nil, e
}

// emit writes a rendering to stdout, or atomically to a file. render gets
// color=true when the destination is stdout (the writer strips colour when
// stdout is not a colour terminal); files never get colour.
func (a *app) emit(out string, force bool, render func(w io.Writer, color bool) error) error {
	if out == "" || out == "-" {
		w := a.out(a.io.Stdout)
		return render(w, true)
	}
	err := atomicfile.WriteFrom(out, func(w io.Writer) error {
		// Files never get colour, whatever the terminal can do.
		plain := colorprofile.NewWriter(w, a.io.Env)
		plain.Profile = colorprofile.NoTTY
		return render(plain, false)
	}, force)
	switch {
	case errors.Is(err, atomicfile.ErrIsDir):
		return badInput(&knowledge.Error{File: out, Problem: "is a folder", Hint: "give a file name inside it, for example --out " + filepath.Join(out, "decision.md")})
	case errors.Is(err, atomicfile.ErrExists):
		return badInput(&knowledge.Error{File: out, Problem: "already exists; not overwritten", Hint: "pass --force to replace it, or choose another --out"})
	case err != nil:
		return badInput(&knowledge.Error{File: out, Problem: "cannot write: " + strings.TrimPrefix(err.Error(), out+": ")})
	}
	fmt.Fprintf(a.io.Stderr, "wrote %s\n", out)
	return nil
}

func (a *app) scenariosCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the preset scenarios with their one-line stories",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			all, err := scenarios.All(kb)
			if err != nil {
				return badInput(err)
			}
			w := a.out(a.io.Stdout)
			_, err = io.WriteString(w, report.Scenarios(all, a.styles, a.width(a.io.Stdout)))
			return err
		},
	}
}

func (a *app) questionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "questions",
		Short: "List every question: key, type, allowed values, default, why it matters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			w := a.out(a.io.Stdout)
			_, err = io.WriteString(w, report.Questions(kb, a.styles, a.width(a.io.Stdout)))
			return err
		},
	}
}

func (a *app) kbCommand() *cobra.Command {
	kb := &cobra.Command{
		Use:   "kb",
		Short: "Check or list the knowledge base",
		Args:  cobra.NoArgs,
	}
	check := &cobra.Command{
		Use:   "check",
		Short: "Validate the knowledge base (with the --kb overlay, if any)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			if _, err := scenarios.All(k); err != nil {
				return badInput(fmt.Errorf("the knowledge base loads, but a preset scenario no longer fits it:\n%w", err))
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
			_, err = io.WriteString(w, report.KBSummary(k, files, a.styles))
			return err
		},
	}
	var format string
	rules := &cobra.Command{
		Use:   "rules",
		Short: "Print the rules table, generated from the knowledge base",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			formats := []string{"text", "markdown"}
			if !slices.Contains(formats, format) {
				return badInput(&knowledge.Error{File: "--format", Key: format, Problem: "unknown format", Allowed: strings.Join(formats, ", "), Hint: hintFor(format, formats)})
			}
			k, err := a.loadKB()
			if err != nil {
				return err
			}
			w := a.out(a.io.Stdout)
			if format == "markdown" {
				_, err = io.WriteString(w, report.RulesMarkdown(k))
			} else {
				_, err = io.WriteString(w, report.RulesText(k, a.styles, a.width(a.io.Stdout)))
			}
			return err
		},
	}
	rules.Flags().StringVarP(&format, "format", "f", "text", "output format: text or markdown")
	kb.AddCommand(check, rules)
	return kb
}
