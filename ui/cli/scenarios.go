package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

func (a *app) scenariosCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the preset scenarios with their one-line stories",
		Args:  noArgs,
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
			_, err = io.WriteString(w, report.Scenarios(all, a.styles(), a.width(a.io.Stdout)))
			return err
		},
	}
}
