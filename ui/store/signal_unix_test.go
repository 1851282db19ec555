//go:build unix

package store_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stackpick/stackpick/ui/store"
)

// signalHelperEnv makes the test binary a process that handles SIGTERM as
// stackpick's handler does (RemovePending, then exit 143) and is killed in
// the middle of a large write.
const signalHelperEnv = "STACKPICK_TEST_SIGNAL_WRITE"

func signalHelper(path string) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() {
		<-sigs
		store.RemovePending()
		os.Exit(143)
	}()
	store.WriteFrom(path, func(w io.Writer) error {
		w.Write(make([]byte, 1<<20))
		os.Stdout.WriteString("writing\n")
		select {} // the signal comes in the middle of the write
	}, true)
	os.Exit(0)
}

// A process killed with SIGTERM in the middle of a write, whose handler
// calls RemovePending, leaves no .NAME.tmp-* and the old file whole.
func TestASignalDuringAWriteLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decision.md")
	os.WriteFile(path, []byte("old"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), signalHelperEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "writing" {
		cmd.Process.Kill()
		t.Fatalf("the helper said %q", line)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("no temporary file during the write: %v", entries)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("exit: %v, want 143", err)
	}
	assertOnly(t, dir, "decision.md")
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("the old file holds %q", b)
	}
}
