package tui

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// stackpickBinary builds the real stackpick command once per test run.
func stackpickBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "stackpick-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "stackpick")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/stackpick/stackpick").CombinedOutput()
		if err != nil {
			binErr = &buildError{err: err, out: string(out)}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// Without a terminal, `stackpick` alone explains what to run instead and
// exits 2; nothing reaches stdout.
func TestNoTerminalPrintsUsage(t *testing.T) {
	cmd := exec.Command(stackpickBinary(t))
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdin = devnull
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("want exit status 2, got %v", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout should be empty, got %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), "decide --answers") {
		t.Errorf("the usage should point to decide --answers:\n%s", stderr.String())
	}
}
