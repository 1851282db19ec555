package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestKBCheckPassesOnTheBuiltInKnowledgeBase(t *testing.T) {
	code, stdout, stderr := run(t, nil, "kb", "check")
	if code != 0 || stderr != "" || stdout == "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestKBCheckFailsOnAnOverlayValueThatChangesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// A new workload value no rule, landmine or engine setting reads.
	q := "[[question]]\nkey = \"tenancy\"\npage = \"Models\"\ntype = \"enum\"\nvalues = [\"shared\", \"dedicated\"]\ndefault = \"shared\"\nprompt = \"p\"\nwhy = \"w\"\n"
	write(t, filepath.Join(dir, "kb", "q.toml"), q)
	code, stdout, stderr := run(t, nil, "kb", "check", "--kb", "kb")
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if stdout != "" {
		t.Errorf("stdout %q", stdout)
	}
	want := "stackpick: kb/q.toml:1: tenancy = dedicated: no rule, landmine or engine setting tells it apart from shared\n"
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "1 answer changes nothing") {
		t.Errorf("stderr:\n%s\nwant it to contain\n%s", stderr, want)
	}
}

func TestASubstrateThatContradictsKubernetesExitsTwoWithWhatToType(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, filepath.Join(dir, "a.toml"), "nodes = 2\nkubernetes = \"none\"\nsubstrate = \"openshift\"\n")
	code, _, stderr := run(t, nil, "decide", "-a", "a.toml")
	want := `stackpick: a.toml:3: substrate: substrate = "openshift" runs on Kubernetes, but kubernetes = "none" says the platform has none; write kubernetes = "available" (or "required"), or substrate = "bare-metal" (or "slurm", or "auto")` + "\n"
	if code != 2 || stderr != want {
		t.Errorf("exit %d, stderr:\n got: %q\nwant: %q", code, stderr, want)
	}
}
