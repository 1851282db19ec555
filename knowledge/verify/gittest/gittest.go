// Package gittest builds the small git repositories kb verify's tests
// check sources against: git run with no user or system configuration
// and fixed identities and dates, so the repositories come out the same
// on every machine.
package gittest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Need skips a test that builds git repositories when git is missing, and
// fails it in CI, where .ci/run installs git.
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed; .ci/run installs it")
		}
		t.Skip("git is not installed")
	}
}

// Run runs git in dir and returns its trimmed output; a failure fails t.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
