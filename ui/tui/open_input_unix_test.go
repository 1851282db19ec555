//go:build unix

package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The app's open screen reads only a regular answers file within the
// limit: a named pipe with no writer, a device or a folder is refused at
// once (the read runs off the UI goroutine, but a hang would leave the
// screen waiting for ever), with the path as typed.
func TestOpenScreenRefusesWhatIsNotARegularFile(t *testing.T) {
	kb, _ := loadKB(t)
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.toml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", 200_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		pipe:        pipe + ": is a named pipe (FIFO), not an answers file",
		"/dev/zero": "/dev/zero: is a device, not an answers file",
		dir:         dir + ": is a folder, not an answers file",
		big:         big + ": the answers file is 2,000,000 bytes, over the 1 MiB (1,048,576-byte) limit",
	} {
		done := make(chan error, 1)
		go func() {
			_, err := readAnswersFile(kb, path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: got %v, want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: not read within 10 s", path)
		}
	}
}
