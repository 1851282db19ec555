package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/cli"
)

// fullDisk mounts a 64 KiB tmpfs, fills it, and returns its folder.
func fullDisk(t *testing.T) string {
	t.Helper()
	disk := filepath.Join(t.TempDir(), "disk")
	os.Mkdir(disk, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("a full disk needs a small tmpfs, and mounting one is not permitted here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { exec.Command("umount", disk).Run() })
	f, err := os.Create(filepath.Join(disk, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return disk
		}
	}
}

// A write the full disk refuses is the environment's fault: exit 74, the
// reason said, nothing left behind (no temporary file, no folder made for
// it), whether to --out, to the drill history, or to stdout.
func TestAFullDiskExits74AndLeavesNothing(t *testing.T) {
	disk := fullDisk(t)

	code, stdout, stderr := run(t, nil, "decide", "-s", "exit-test", "--format", "markdown", "--out", filepath.Join(disk, "adr", "0007.md"))
	want := "stackpick: " + filepath.Join(disk, "adr", "0007.md") + ": cannot write: no space left on device\n"
	if code != cli.ExitEnvironment || stdout != "" || stderr != want {
		t.Errorf("--out: exit %d, stdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	assertHolds(t, disk, "fill")

	kb := knowledge.MustDefault()
	c, _ := drill.Load(kb)
	var input strings.Builder
	for range c.TaxonomyQuiz(3, nil) {
		input.WriteString("e\n")
	}
	hist := filepath.Join(disk, "history.json")
	env := []string{"STACKPICK_HISTORY=" + hist}
	code, _, stderr = runWithInput(t, env, input.String(), "drill", "taxonomy", "--seed", "3")
	if code != cli.ExitEnvironment || !strings.Contains(stderr, "could not be added to the drill history "+hist+": ") || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("drill: exit %d, stderr %q", code, stderr)
	}
	assertHolds(t, disk, "fill", "history.json.lock")

	out, err := os.Create(filepath.Join(disk, "stdout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var errb bytes.Buffer
	code = cli.Run(context.Background(), []string{"decide", "-s", "exit-test"}, cli.IO{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb})
	if code != cli.ExitEnvironment || !strings.Contains(errb.String(), "no space left on device") {
		t.Errorf("stdout on a full disk: exit %d, stderr %q", code, errb.String())
	}
}

func assertHolds(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}
