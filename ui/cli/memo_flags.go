package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

// memoFlags are the decision record's metadata given on the command line:
// they override the answers file's [memo] table, which overrides the
// memo's defaults.
type memoFlags struct {
	title, status, deciders, problem string
	pinned                           string
}

// memoFlagNames are the flags that only the markdown memo reads, --date
// (decide's, the memo's date) among them: given with another format, they
// are refused rather than ignored.
var memoFlagNames = []string{"title", "status", "deciders", "date", "problem", "pinned"}

func (f *memoFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.title, "title", "", "the memo's title (default: the preset's title, or \"Serve <models> with <stack>\")")
	fl.StringVar(&f.status, "status", "", "the memo's status: "+strings.Join(knowledge.MemoStatuses, ", ")+" (default: proposed)")
	fl.StringVar(&f.deciders, "deciders", "", "who decides, comma-separated (default: a placeholder to fill in)")
	fl.StringVar(&f.problem, "problem", "", "a short problem statement (default: the question the decision answers)")
	fl.StringVar(&f.pinned, "pinned", "", "an answers FILE (or a preset's name) whose decision the memo lists as a pinned alternative under the options")
}

// pinnedDecision decides the --pinned answers, if given, for the memo's
// options: an answers file, or a preset when no file has that name.
func (a *app) pinnedDecision(kb *knowledge.KB, f *memoFlags) (*report.PinnedDecision, error) {
	if f.pinned == "" {
		return nil, nil
	}
	file, scenario := f.pinned, ""
	if _, err := os.Stat(f.pinned); errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(f.pinned, `/\.`) {
		file, scenario = "", f.pinned
	}
	answers, origin, err := a.resolveAnswers(kb, file, scenario)
	if err != nil && scenario != "" {
		var names []string
		if all, lerr := scenarios.All(kb); lerr == nil {
			for _, s := range all {
				names = append(names, s.Name)
			}
		}
		return nil, badInput(&knowledge.Error{File: "--pinned", Key: f.pinned, Problem: "no such answers file or preset",
			Allowed: "an answers file, or a preset: " + strings.Join(names, ", "), Hint: hintFor(f.pinned, names)})
	}
	if err != nil {
		return nil, err
	}
	label := filepath.Base(f.pinned)
	if origin.Scenario != nil {
		label = origin.Scenario.Title
	}
	return &report.PinnedDecision{Label: label, Decision: decide.Decide(kb, answers)}, nil
}

// given lists the memo flags set on the command line, as --name.
func (f *memoFlags) given(cmd *cobra.Command) []string {
	var out []string
	for _, n := range memoFlagNames {
		if cmd.Flags().Changed(n) {
			out = append(out, "--"+n)
		}
	}
	return out
}

// memo is the flags as memo metadata, validated: a bad status exits 2.
func (f *memoFlags) memo() (knowledge.Memo, error) {
	m := knowledge.Memo{
		Title:    strings.TrimSpace(f.title),
		Status:   strings.TrimSpace(f.status),
		Deciders: knowledge.SplitDeciders(f.deciders),
		Problem:  strings.TrimSpace(f.problem),
	}
	if m.Status != "" {
		if e := knowledge.CheckMemoStatus("--status", m.Status); e != nil {
			e.Key = ""
			if e.Hint != "" {
				e.Hint = strings.Replace(e.Hint, "did you mean ", "did you mean --status ", 1)
			}
			return knowledge.Memo{}, badInput(e)
		}
	}
	return m, nil
}

// memoInput is the memo's input for answers from origin: the flags over
// the answers file's [memo] table over the defaults, dated by --date, else
// the file's date, else today.
func (a *app) memoInput(cmd *cobra.Command, f *memoFlags, answers knowledge.Answers, origin report.Origin, dateFlag string) (report.MemoInput, error) {
	flags, err := f.memo()
	if err != nil {
		return report.MemoInput{}, err
	}
	meta := flags.Over(answers.Memo())
	if dateFlag == "" && meta.Date != "" {
		dateFlag = meta.Date
	}
	date, err := a.memoDate(dateFlag)
	if err != nil {
		return report.MemoInput{}, err
	}
	meta.Date = date
	in := origin.MemoInput(date).WithMemo(meta)
	if in.Pinned, err = a.pinnedDecision(answers.KB(), f); err != nil {
		return report.MemoInput{}, err
	}
	return in, nil
}

func memoFlagVerb(n int) string {
	if n == 1 {
		return "sets"
	}
	return "set"
}
