//go:build unix

package cli_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A SIGTERM in the middle of `decide --out` leaves no .NAME.tmp-* (the
// signal handler calls store.RemovePending, then exits 143; without it,
// 11 to 23 of these 60 kills left one). Kills are spread over a whole run,
// so some land in the write; whichever phase a kill hits, no temporary
// file may be left. The spread aims the kills; no result depends on it. A
// kill before main installs the handler ends the process by the signal,
// before any write.
func TestASigtermDuringOutLeavesNoTemporaryFile(t *testing.T) {
	bin := stackpickBinary(t)
	args := []string{"decide", "--scenario", "exit-test", "--format", "markdown", "--force", "--out"}
	// How long one run takes here, to spread the kills over it.
	start := time.Now()
	if out, err := exec.Command(bin, append(args, filepath.Join(t.TempDir(), "m.md"))...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	whole := time.Since(start)
	const trials = 60
	left, killed, handled := 0, 0, 0
	for i := range trials {
		dir := t.TempDir()
		cmd := exec.Command(bin, append(args, filepath.Join(dir, "memo.md"))...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(whole * time.Duration(i) / trials)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil: // finished before the signal
		case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
			killed++ // before the handler is installed, or no handler at all
		case errors.As(err, &ee) && ee.ExitCode() == 143:
			handled++
		default:
			t.Errorf("trial %d: %v, want exit 0 or 143", i, err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".memo.md.tmp-") {
				left++
			}
		}
	}
	t.Logf("%d kills: %d handled (exit 143), %d killed by the signal, %d finished first; %d left a temporary file", trials, handled, killed, trials-handled-killed, left)
	if handled == 0 {
		t.Errorf("no run exited 143: the signal handler (signals.go) never ran; %d of %d died of SIGTERM", killed, trials)
	}
	if left > 0 {
		t.Errorf("%d of %d SIGTERMs left a .memo.md.tmp-* file", left, trials)
	}
}
