package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
)

// Version is the module version, or "dev" for a source build.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print stackpick's version and the date of its knowledge",
		Args:  noArgs,
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
	for _, f := range kb.Facts() {
		for _, s := range f.Sources {
			if !s.Unavailable() && s.CheckedOn > newest {
				newest = s.CheckedOn
			}
		}
	}
	return newest
}
