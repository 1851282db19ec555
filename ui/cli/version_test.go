package cli

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

// version reports the module version and what the binary was built from,
// as the Go toolchain recorded it in the build information.
func TestVersionReportsTheModuleVersionAndVCSRevision(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/stackpick/stackpick", Version: "v0.3.1"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "28f774a4dfdde41afa3bf1642418d6660534edd5"},
			{Key: "vcs.time", Value: "2026-12-01T18:26:06Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	cases := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
		flag string // what --version prints
	}{
		{"go install from a clone with changes", stamped, true,
			"stackpick v0.3.1\nbuilt from git revision 28f774a4dfdde41afa3bf1642418d6660534edd5 (committed 2026-12-01 18:26 UTC) with uncommitted changes, by go1.26.8\n",
			"stackpick version v0.3.1 (28f774a4dfdd)\n"},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/stackpick/stackpick", Version: "(devel)"}}, true,
			"stackpick dev\nbuilt without a version control revision (go run, go test, or -buildvcs=false), by go1.26.8\n",
			"stackpick version dev\n"},
		{"no build information", nil, false,
			"stackpick dev\nbuilt without build information\n",
			"stackpick version dev\n"},
	}
	defer func(old func() (*debug.BuildInfo, bool)) { readBuildInfo = old }(readBuildInfo)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			readBuildInfo = func() (*debug.BuildInfo, bool) { return c.info, c.ok }
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{"version"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			if code != 0 || errb.Len() > 0 {
				t.Fatalf("exit %d, stderr %q", code, errb.String())
			}
			if !strings.HasPrefix(out.String(), c.want) || !strings.Contains(out.String(), "\nknowledge base: ") {
				t.Errorf("version printed\n%s\nwant it to start\n%s", out.String(), c.want)
			}
			out.Reset()
			Run(context.Background(), []string{"--version"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			if out.String() != c.flag {
				t.Errorf("--version printed %q, want %q", out.String(), c.flag)
			}
		})
	}
}
