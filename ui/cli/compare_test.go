package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/ui/report"
)

// stackpickBinary builds the real binary into the test's own folder (the
// go build cache makes every build after the first a link).
func stackpickBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stackpick")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/stackpick/stackpick").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runBinary runs the stackpick at bin with args, stdout piped.
func runBinary(t *testing.T, bin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

var gridLabels = []string{"Kubernetes needed", "Bare metal", "KV-aware routing", "Prefill/decode disaggregation", "LoRA adapter routing", "Autoscaling", "Governance", "Engines it runs", "Accelerator vendors", "Licence", "Latest release"}

func TestCompareDynamoLlmDKServeThroughTheBinary(t *testing.T) {
	bin := stackpickBinary(t)
	t.Run("text", func(t *testing.T) {
		code, out, stderr := runBinary(t, bin, "compare", "dynamo", "llm-d", "kserve", "--width", "200")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if strings.Contains(out, "\x1b[") {
			t.Error("piped text has escape codes")
		}
		for _, want := range append([]string{"NVIDIA Dynamo vs llm-d vs KServe", "CNCF incubating project", "v0.21.0, 2026-09", "Sources", "[20] KServe, latest release"}, gridLabels...) {
			if !strings.Contains(out, want) {
				t.Errorf("text lacks %q", want)
			}
		}
	})
	t.Run("markdown", func(t *testing.T) {
		code, out, stderr := runBinary(t, bin, "compare", "Dynamo", "LLM-D", "KServe", "--format", "markdown")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if !strings.HasPrefix(out, "# NVIDIA Dynamo vs llm-d vs KServe\n\n| | NVIDIA Dynamo | llm-d | KServe |\n| --- | --- | --- | --- |\n") {
			t.Errorf("markdown does not open on the title and the table:\n%s", out)
		}
		for _, l := range gridLabels {
			if !strings.Contains(out, "\n| "+l+" | ") {
				t.Errorf("markdown has no row %q", l)
			}
		}
		if !strings.Contains(out, "\n## Sources\n") {
			t.Error("markdown has no Sources")
		}
	})
	t.Run("json", func(t *testing.T) {
		code, out, stderr := runBinary(t, bin, "compare", "NVIDIA Dynamo", "llm-d", "kserve", "-f", "json")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var g report.Grid
		if err := json.Unmarshal([]byte(out), &g); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if g.Schema != report.GridSchema || len(g.Products) != 3 || g.Products[0].ID != "dynamo" || len(g.Rows) != len(gridLabels) {
			t.Fatalf("schema %q, %d products, %d rows", g.Schema, len(g.Products), len(g.Rows))
		}
		for i, r := range g.Rows {
			if r.Label != gridLabels[i] || len(r.Cells) != 3 {
				t.Errorf("row %d: %q with %d cells", i, r.Label, len(r.Cells))
			}
		}
	})
}

// One product, four, an unknown one, one named twice or an unknown format:
// exit 2, nothing on stdout, and what to type instead.
func TestCompareBadInputExitsTwoWithWhatToType(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"compare", "dynamo"},
			"stackpick: compare takes two or three products, got 1; for example: stackpick compare dynamo llm-d kserve\n" + usageHint},
		{[]string{"compare", "dynamo", "llm-d", "kserve", "ray-serve"},
			"stackpick: compare takes two or three products, got 4; for example: stackpick compare dynamo llm-d kserve\n" + usageHint},
		{[]string{"compare", "dynamo", "lmd"},
			`stackpick: compare: lmd: unknown product (allowed: vllm, sglang, tensorrt-llm, llama-cpp, dynamo-triton, dynamo, llm-d, kserve, ray-serve, sgl-router); did you mean "llm-d"?` + "\n"},
		{[]string{"compare", "Kserv", "dynamo"},
			`stackpick: compare: Kserv: unknown product (allowed: vllm, sglang, tensorrt-llm, llama-cpp, dynamo-triton, dynamo, llm-d, kserve, ray-serve, sgl-router); did you mean "kserve"?` + "\n"},
		{[]string{"compare", "dynamo", "NVIDIA Dynamo"},
			"stackpick: NVIDIA Dynamo is named twice; compare two or three different products, for example: stackpick compare dynamo llm-d kserve\n"},
		{[]string{"compare", "dynamo", "llm-d", "--format", "yaml"},
			"stackpick: --format: yaml: unknown format (allowed: text, markdown, json)\n"},
	}
	bin := stackpickBinary(t)
	for _, c := range cases {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			code, stdout, stderr := runBinary(t, bin, c.args...)
			if code != 2 || stdout != "" || stderr != c.want {
				t.Errorf("exit %d, stdout %q, stderr:\n got: %q\nwant: %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// kb check refuses an overlay product that drops its licence or release,
// and says what to add.
func TestKBCheckRejectsAProductWithoutLicenceOrRelease(t *testing.T) {
	product := "[[product]]\nid = \"kserve\"\nname = \"KServe\"\nlayer = \"orchestrator\"\nrole = \"r\"\n[[product.source]]\nkind = \"docs\"\nurl = \"https://example.org/v1/p\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n" +
		"[product.governance]\nkind = \"foundation\"\ntext = \"CNCF incubating project\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	for name, c := range map[string]struct{ extra, want string }{
		"no licence": {"[product.release]\ntag = \"v1\"\ndate = \"2026-08-06\"\nchecked_on = \"2026-12-01\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			`stackpick: kb/p.toml:1: product "kserve": needs its licence; add [product.licence] with spdx = "…" (the SPDX id its LICENSE file states) and its [[product.licence.source]]` + "\n"},
		"no release": {"[product.licence]\nspdx = \"Apache-2.0\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			`stackpick: kb/p.toml:1: product "kserve": needs its latest release; add [product.release] with tag, date, checked_on and its [[product.release.source]] (or not_found = "why")` + "\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			write(t, filepath.Join(dir, "kb", "p.toml"), product+c.extra)
			code, stdout, stderr := run(t, nil, "kb", "check", "--kb", "kb")
			if code != 2 || stdout != "" || stderr != c.want {
				t.Errorf("exit %d, stdout %q, stderr:\n got: %q\nwant: %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// Piped, compare and diff honour a valid COLUMNS, and diff takes --width
// as compare does; an invalid COLUMNS falls back to 100.
func TestPipedWidthFollowsColumnsAndDiffTakesWidth(t *testing.T) {
	widest := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			n = max(n, ansi.StringWidth(l))
		}
		return n
	}
	for _, c := range []struct {
		env  []string
		args []string
		want int
	}{
		{[]string{"COLUMNS=60"}, []string{"compare", "dynamo", "llm-d"}, 60},
		{[]string{"COLUMNS=60"}, []string{"diff", "scenario:exit-test", "scenario:single-node"}, 60},
		{nil, []string{"diff", "scenario:exit-test", "scenario:single-node", "--width", "70"}, 70},
		{[]string{"COLUMNS=abc"}, []string{"compare", "dynamo", "llm-d"}, 100},
	} {
		code, out, errOut := run(t, c.env, c.args...)
		if code != 0 {
			t.Fatalf("%v %v: exit %d: %s", c.env, c.args, code, errOut)
		}
		if got := widest(out); got > c.want || got < c.want-10 {
			t.Errorf("%v %v: widest line %d, want about %d", c.env, c.args, got, c.want)
		}
	}
	if code, _, errOut := run(t, nil, "diff", "scenario:exit-test", "scenario:single-node", "--width", "-5"); code != 2 || !strings.Contains(errOut, "--width -5") {
		t.Errorf("diff --width -5: exit %d, %s", code, errOut)
	}
}
