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
	consider := func(s string) {
		if s > newest {
			newest = s
		}
	}
	for _, p := range kb.Products {
		for _, s := range p.Sources {
			consider(s.AsOf)
		}
		for _, m := range p.Landmines {
			consider(m.AsOf)
		}
	}
	for _, r := range kb.Rules {
		consider(r.AsOf)
	}
	return newest
}
