package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `stackpick diff` through the real binary, built here: two answer files
// that differ in one answer that moves the orchestrator.
func TestDiffThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "stackpick")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/stackpick/stackpick").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	write(t, filepath.Join(dir, "k8s.toml"), "nodes = 4\ngpu = \"h200\"\nkubernetes = \"available\"\n")
	write(t, filepath.Join(dir, "no-k8s.toml"), "nodes = 4\ngpu = \"h200\"\nkubernetes = \"none\"\n")
	write(t, filepath.Join(dir, "broken.toml"), "nodes = 4\nkubernetes = \"avaliable\"\n")
	stackpick := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errb.String()
	}

	t.Run("text names both stacks, the answer and what moved", func(t *testing.T) {
		code, out, errs := stackpick("diff", "k8s.toml", "no-k8s.toml")
		if code != 0 || errs != "" {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		for _, want := range []string{"A · k8s.toml", "B · no-k8s.toml", "vLLM · no model server · llm-d", "vLLM · no model server · NVIDIA Dynamo",
			"kubernetes", "available", "none", "ORCHESTRATOR", "llm-d → NVIDIA Dynamo", "excluded", "Held in A only", "Holds in B only"} {
			if !strings.Contains(out, want) {
				t.Errorf("the diff does not say %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "\x1b[") {
			t.Error("piped text carries escape codes")
		}
	})
	t.Run("json parses and names its schema", func(t *testing.T) {
		code, out, _ := stackpick("diff", "k8s.toml", "no-k8s.toml", "--format", "json")
		var got struct {
			Schema    string `json:"schema"`
			Identical bool   `json:"identical"`
			A, B      struct {
				Label, Stack string
			}
			Answers []struct{ Key, A, B string }
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
			t.Fatalf("exit %d, %v:\n%s", code, err, out)
		}
		if got.Schema != "stackpick.diff/v1" || got.Identical || got.A.Label != "k8s.toml" || len(got.Answers) != 1 || got.Answers[0].Key != "kubernetes" {
			t.Errorf("json: %+v", got)
		}
	})
	t.Run("markdown to a file", func(t *testing.T) {
		code, _, errs := stackpick("diff", "k8s.toml", "no-k8s.toml", "-f", "markdown", "--out", "diff.md")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		data, err := os.ReadFile(filepath.Join(dir, "diff.md"))
		if err != nil {
			t.Fatal(err)
		}
		md := string(data)
		if !strings.HasPrefix(md, "# Two decisions compared: k8s.toml and no-k8s.toml\n") || !strings.Contains(md, "### Orchestrator: llm-d → NVIDIA Dynamo") {
			t.Errorf("markdown:\n%s", md)
		}
	})
	t.Run("identical files say so and exit 0", func(t *testing.T) {
		code, out, _ := stackpick("diff", "k8s.toml", "k8s.toml")
		if code != 0 || !strings.Contains(out, "A and B are the same decision") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("a preset stands in for a file", func(t *testing.T) {
		code, out, errs := stackpick("diff", "scenario:single-node", "no-k8s.toml")
		if code != 0 || !strings.Contains(out, "A · scenario:single-node") || !strings.Contains(out, "no orchestrator") {
			t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
		}
	})
	t.Run("a broken file gives file:line and exit 2", func(t *testing.T) {
		code, out, errs := stackpick("diff", "k8s.toml", "broken.toml")
		if code != 2 || out != "" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		if !strings.Contains(errs, "broken.toml:2: kubernetes:") || !strings.Contains(errs, `did you mean "available"?`) {
			t.Errorf("stderr should name broken.toml:2 and a fix:\n%s", errs)
		}
	})
	t.Run("bad calls exit 2", func(t *testing.T) {
		for _, args := range [][]string{{"diff", "k8s.toml"}, {"diff", "k8s.toml", "no-k8s.toml", "--format", "yaml"}, {"diff", "k8s.toml", "missing.toml"}, {"diff", "k8s.toml", "scenario:nope"}} {
			if code, _, errs := stackpick(args...); code != 2 || errs == "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errs)
			}
		}
		// A preset named as an argument is reported as that argument, not
		// as a --scenario flag nobody typed.
		if _, _, errs := stackpick("diff", "k8s.toml", "scenario:nope"); !strings.Contains(errs, "argument 2 (scenario:): nope: no such scenario") || strings.Contains(errs, "--scenario") {
			t.Errorf("stderr should name argument 2: %q", errs)
		}
	})
}
