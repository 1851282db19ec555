package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// `stackpick open FILE` and `stackpick --answers FILE` check the file with
// the loader of 'decide --answers' before any app starts: a mistake names
// file:line and exits 2, whether or not there is a terminal; a good file
// without a terminal gets the app's own "needs a terminal" and exit 2.
func TestOpenChecksTheFileBeforeTheApp(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	good := filepath.Join(dir, "good.toml")
	write(t, bad, "# fleet\nnodes = 4\ngpu = \"h10\"\n")
	write(t, good, "nodes = 4\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"open, bad file", []string{"open", bad}, bad + `:3: gpu: "h10" is not an allowed value`},
		{"--answers, bad file", []string{"--answers", bad}, bad + `:3: gpu: "h10" is not an allowed value`},
		{"-a, bad file", []string{"-a", bad}, bad + ":3: gpu:"},
		{"open, missing file", []string{"open", filepath.Join(dir, "nope.toml")}, "nope.toml: cannot read the answers file: no such file"},
		{"open, good file, no terminal", []string{"open", good}, "the interactive app needs a terminal"},
		{"--answers, good file, no terminal", []string{"--answers", good}, "the interactive app needs a terminal"},
		{"open, no file", []string{"open"}, "open needs one answers file, for example: stackpick open fleet.toml"},
		{"open, two files", []string{"open", good, bad}, "open needs one answers file"},
		{"open, stdin", []string{"open", "-"}, "-: the app reads its keys from stdin"},
		{"--answers with --accessible", []string{"--answers", good, "--accessible"}, "run: stackpick decide --answers " + good},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, nil, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout should be empty, got %q", stdout)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr should say %q:\n%s", tc.want, stderr)
			}
		})
	}
}

// The open command is listed in the help with what it does.
func TestOpenIsInTheHelp(t *testing.T) {
	code, stdout, _ := run(t, nil, "--help")
	if code != 0 || !strings.Contains(stdout, "open") || !strings.Contains(stdout, "saved answers file") {
		t.Errorf("--help should list open (exit %d):\n%s", code, stdout)
	}
	code, stdout, _ = run(t, nil, "open", "--help")
	if code != 0 || !strings.Contains(stdout, "stackpick open fleet.toml") {
		t.Errorf("open --help should show an example (exit %d):\n%s", code, stdout)
	}
}
