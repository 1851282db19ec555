package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge/verify/gittest"
)

// verifyFixture is a repository example-org/engine with tag v1.0.0 on its
// first commit and a second commit after it, cloned into DIR
// (sources/example-org/engine), and the commits.
type verifyFixture struct {
	dir, sources, first, second string
}

func newVerifyFixture(t *testing.T) verifyFixture {
	t.Helper()
	gittest.Need(t)
	dir := t.TempDir()
	t.Chdir(dir)
	origin := filepath.Join(dir, "origin")
	if err := os.MkdirAll(origin, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, origin, "init", "-q")
	write(t, filepath.Join(origin, "src", "args.py"), "parser.add_argument(\n    \"--max-num-seqs\",\n    default=256,\n)\n")
	gittest.Run(t, origin, "add", "-A")
	gittest.Run(t, origin, "commit", "-q", "-m", "first")
	gittest.Run(t, origin, "tag", "v1.0.0")
	first := gittest.Run(t, origin, "rev-parse", "HEAD")
	write(t, filepath.Join(origin, "src", "args.py"), "parser.add_argument(\"--max-num-seqs\", default=512)\n")
	gittest.Run(t, origin, "commit", "-q", "-am", "second")
	second := gittest.Run(t, origin, "rev-parse", "HEAD")
	sources := filepath.Join(dir, "sources")
	gittest.Run(t, dir, "clone", "-q", origin, filepath.Join(sources, "example-org", "engine"))
	return verifyFixture{dir: dir, sources: "sources", first: first, second: second}
}

// overlay writes kb/f.toml: one flag with one repository source, whose
// [[flag.source]] table is on line 10 (where a failure points).
func (f verifyFixture) overlay(t *testing.T, repo, ref, commit, path, quote string) {
	t.Helper()
	refLine := ""
	if ref != "" {
		refLine = fmt.Sprintf("ref = %q\n", ref)
	}
	write(t, filepath.Join(f.dir, "kb", "f.toml"), fmt.Sprintf(`[[flag]]
id = "vllm-verify-test"
engine = "vllm"
name = "--verify-test"
default = "1"
values = "a number"
effect = "Tests kb verify."
status = "current"

[[flag.source]]
kind = "repo"
repo = %q
%scommit = %q
path = %q
quote = %q
checked_on = "2026-12-01"
`, repo, refLine, commit, path, quote))
}

func TestKBVerifyStatesAndExitCodes(t *testing.T) {
	f := newVerifyFixture(t)
	cases := []struct {
		name                    string
		repo, ref, commit, path string
		quote                   string
		code                    int
		want                    string
	}{
		{"verified (the quote spans lines)", "example-org/engine", "v1.0.0", f.first, "src/args.py", `"--max-num-seqs", default=256,`, 0, " repository sources: 1 verified,"},
		{"planted wrong quote", "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=1024", 1,
			`kb/f.toml:10: flag "vllm-verify-test", repo source: quote missing: example-org/engine v1.0.0 @` + f.first[:8] + ` src/args.py does not contain 'default=1024'; re-read the file at that commit`},
		{"missing file", "example-org/engine", "v1.0.0", f.first, "src/gone.py", "x", 1,
			`kb/f.toml:10: flag "vllm-verify-test", repo source: file missing: example-org/engine has no src/gone.py at ` + f.first[:8]},
		{"tag does not contain the commit", "example-org/engine", "v1.0.0", f.second, "src/args.py", "default=512", 1,
			"repo source example-org/engine v1.0.0 @" + f.second[:8] + " src/args.py: tag does not contain the commit: tag v1.0.0 of example-org/engine"},
		{"tag missing", "example-org/engine", "v9.9", f.first, "src/args.py", "default=256", 1,
			"repo source example-org/engine v9.9 @" + f.first[:8] + " src/args.py: tag missing: the copy of example-org/engine has no tag v9.9"},
		{"commit missing", "example-org/engine", "", strings.Repeat("ab", 20), "src/args.py", "x", 1,
			"repo source: commit missing: the copy of example-org/engine has no commit abababab (src/args.py): it may be older than the pinned commit; update the copy (git fetch in it)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.overlay(t, tc.repo, tc.ref, tc.commit, tc.path, tc.quote)
			code, stdout, stderr := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", f.sources)
			if code != tc.code || stderr != "" {
				t.Errorf("exit %d (want %d), stderr %q", code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.want) {
				t.Errorf("stdout:\n%s\nwant it to contain\n%s", stdout, tc.want)
			}
			if failed := strings.Contains(stdout, "FAILED"); failed != (tc.code == 1) {
				t.Errorf("FAILED line %v with exit %d:\n%s", failed, tc.code, stdout)
			}
		})
	}
}

func TestKBVerifyReadsBareMirrorsAndPlainTrees(t *testing.T) {
	f := newVerifyFixture(t)
	gittest.Run(t, f.dir, "clone", "-q", "--bare", "origin", filepath.Join("mirrors", "example-org+engine", "repo"))
	write(t, filepath.Join(f.dir, "trees", "example-org", "engine", "v1.0.0", "src", "args.py"), "parser.add_argument(\"--max-num-seqs\", default=256)\n")
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=256")
	for _, dir := range []string{"mirrors", "trees"} {
		code, stdout, stderr := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", dir)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "1 verified") {
			t.Errorf("%s: exit %d, stderr %q, stdout:\n%s", dir, code, stderr, stdout)
		}
	}
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=999")
	code, stdout, _ := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", "trees")
	if code != 1 || !strings.Contains(stdout, "quote missing") {
		t.Errorf("a wrong quote in a plain tree: exit %d\n%s", code, stdout)
	}
}

func TestKBVerifyJSON(t *testing.T) {
	f := newVerifyFixture(t)
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=1024")
	code, stdout, stderr := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", f.sources, "--format", "json")
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Sources []struct {
			Fact, File, State string
			Line              int
		}
		Counts       map[string]int
		ReposMissing []string `json:"repos_not_found"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Counts["quote missing"] != 1 {
		t.Errorf("counts %v", rep.Counts)
	}
	// The text promises the JSON lists the repositories with no copy.
	if !slices.Contains(rep.ReposMissing, "vllm-project/vllm") || slices.Contains(rep.ReposMissing, "example-org/engine") {
		t.Errorf("repos_not_found %v", rep.ReposMissing)
	}
	// Facts are named in the course's words, never "seed".
	for _, x := range rep.Sources {
		if strings.Contains(strings.ToLower(x.Fact), "seed") {
			t.Errorf("fact label %q", x.Fact)
			break
		}
	}
}

func TestKBVerifyBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, filepath.Join(dir, "afile"), "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"kb", "verify", "--sources", "missing"}, "stackpick: --sources missing: no such folder"},
		{[]string{"kb", "verify", "--sources", "afile"}, "stackpick: --sources afile: not a folder"},
		{[]string{"kb", "verify"}, "stackpick: kb verify needs --sources DIR"},
		{[]string{"kb", "verify", "--sources", ".", "--notes", "none.txt"}, "stackpick: --notes none.txt: no such file"},
		{[]string{"kb", "verify", "--sources", ".", "--format", "yaml"}, "stackpick: --format: yaml: unknown format"},
	}
	for _, tc := range cases {
		code, stdout, stderr := run(t, nil, tc.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// With no copy of any cited repository, nothing was checked: that is not
// a pass but an input error (exit 2) that says so, and notices a folder
// one level too deep.
func TestKBVerifyWithNoCopiesIsAnInputError(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := run(t, nil, "kb", "verify", "--sources", dir)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "holds none of the") || !strings.Contains(stderr, "nothing was checked") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	f := newVerifyFixture(t)
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=256")
	code, _, stderr = run(t, nil, "kb", "verify", "--kb", "kb", "--sources", filepath.Join(f.sources, "example-org"))
	if code != 2 || !strings.Contains(stderr, "did you mean its parent") {
		t.Errorf("one level too deep: exit %d, stderr %q", code, stderr)
	}
}

// Without git on PATH, git copies cannot be read: exit 2, saying so.
func TestKBVerifyWithoutGitIsAnInputError(t *testing.T) {
	f := newVerifyFixture(t)
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=256")
	t.Setenv("PATH", t.TempDir())
	code, _, stderr := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", f.sources)
	if code != 2 || !strings.Contains(stderr, "git not found: 1 git copy") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// --notes that is not the course notes is bad input, not a list of
// section failures.
func TestKBVerifyNotesThatAreNotTheCourseNotes(t *testing.T) {
	f := newVerifyFixture(t)
	f.overlay(t, "example-org/engine", "v1.0.0", f.first, "src/args.py", "default=256")
	write(t, filepath.Join(f.dir, "other.txt"), "# A different document\n\nwords\n")
	code, stdout, stderr := run(t, nil, "kb", "verify", "--kb", "kb", "--sources", f.sources, "--notes", "other.txt")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "does not look like the course notes") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
