package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/ui/report"
)

func (a *app) questionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "questions",
		Short: "List every question: key, type, allowed values, default, why it matters",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			w := a.out(a.io.Stdout)
			_, err = io.WriteString(w, report.Questions(kb, a.styles(), a.width(a.io.Stdout)))
			return err
		},
	}
}
