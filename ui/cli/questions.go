package cli

import (
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

func (a *app) questionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "questions [KEY...]",
		Short: "List every question: key, type, allowed values, default, why it matters",
		Long: `List every question an answers file can answer: its key, type, default,
allowed values and why it matters, page by page as the app asks them. KEY (an
answer key, such as gpu; one or more) narrows the list to those questions.`,
		Example: `  stackpick questions
  stackpick questions gpu model kubernetes`,
		RunE: func(cmd *cobra.Command, args []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			if len(args) > 0 {
				if kb, err = onlyQuestions(kb, args); err != nil {
					return err
				}
			}
			w := a.out(a.io.Stdout)
			_, err = io.WriteString(w, report.Questions(kb, a.styles(), a.width(a.io.Stdout)))
			return err
		},
	}
}

// onlyQuestions is kb listing only the questions keys name, in the
// knowledge base's order; a key that is not an answer key exits 2.
func onlyQuestions(kb *knowledge.KB, keys []string) (*knowledge.KB, error) {
	asked := kb.AnswerKeys()
	for _, k := range keys {
		q := kb.Question(k)
		if q == nil || q.Derived {
			problem := "not an answer key"
			if q != nil {
				problem = "a derived answer: it is worked out from the others, never asked"
			}
			return nil, badInput(&knowledge.Error{File: "questions", Key: k, Problem: problem, Allowed: strings.Join(asked, ", "), Hint: hintFor(k, asked)})
		}
	}
	only := *kb
	only.Questions = nil
	for _, q := range kb.Questions {
		if !q.Derived && slices.Contains(keys, q.Key) {
			only.Questions = append(only.Questions, q)
		}
	}
	return &only, nil
}
