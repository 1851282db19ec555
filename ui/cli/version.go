package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stackpick/stackpick/knowledge"
)

// readBuildInfo is runtime/debug.ReadBuildInfo, replaced in tests.
var readBuildInfo = debug.ReadBuildInfo

// Version is the module version, or "dev" for a source build.
func Version() string {
	info, ok := readBuildInfo()
	return moduleVersion(info, ok)
}

func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// versionFlag is what --version prints after "stackpick version": the
// module version and, when the build recorded one, the short revision.
func versionFlag() string {
	info, ok := readBuildInfo()
	v := moduleVersion(info, ok)
	if ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

// buildLine says what the binary was built from, as the Go toolchain
// recorded it: the VCS revision and its time, whether the work tree had
// changes, and the Go version. `go build` and `go install` in a clone
// record the revision; `go run`, `go test` and builds with
// -buildvcs=false do not, and the line says so.
func buildLine(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "built without build information"
	}
	setting := func(key string) string {
		for _, s := range info.Settings {
			if s.Key == key {
				return s.Value
			}
		}
		return ""
	}
	var parts []string
	if rev := setting("vcs.revision"); rev != "" {
		vcs := setting("vcs")
		if vcs == "" {
			vcs = "version control"
		}
		p := "built from " + vcs + " revision " + rev
		if t, err := time.Parse(time.RFC3339, setting("vcs.time")); err == nil {
			p += " (committed " + t.UTC().Format("2006-01-02 15:04 UTC") + ")"
		}
		if setting("vcs.modified") == "true" {
			p += " with uncommitted changes"
		}
		parts = append(parts, p)
	} else {
		parts = append(parts, "built without a version control revision (go run, go test, or -buildvcs=false)")
	}
	if info.GoVersion != "" {
		parts = append(parts, "by "+info.GoVersion)
	}
	return strings.Join(parts, ", ")
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print stackpick's version, what it was built from, and the date of its knowledge",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := a.loadKB()
			if err != nil {
				return err
			}
			info, ok := readBuildInfo()
			_, err = fmt.Fprintf(a.io.Stdout, "stackpick %s\n%s\nknowledge base: %d products, %d rules, newest fact as of %s\n",
				moduleVersion(info, ok), buildLine(info, ok), len(kb.Products), len(kb.Rules), newestAsOf(kb))
			return err
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
