package knowledge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The size limit's message gives bytes near the limit: a file one byte
// over was "1.0 MiB, larger than the limit of 1 MiB", which reads as a
// contradiction. A file of exactly the limit is read.
func TestTheSizeLimitIsSaidInBytes(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at.toml")
	over := filepath.Join(dir, "over.toml")
	huge := filepath.Join(dir, "huge.toml")
	os.WriteFile(at, []byte(strings.Repeat("#", MaxInputBytes)), 0o644)
	os.WriteFile(over, []byte(strings.Repeat("#", MaxInputBytes+1)), 0o644)
	os.WriteFile(huge, []byte(strings.Repeat("#", 50<<20)), 0o644)
	if _, err := ReadInput(at, AnswersFile); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
	for path, want := range map[string]string{
		over: over + ": the answers file is 1,048,577 bytes, over the 1 MiB (1,048,576-byte) limit",
		huge: huge + ": the knowledge file is 52,428,800 bytes (50.0 MiB), over the 1 MiB (1,048,576-byte) limit",
	} {
		what := AnswersFile
		if path == huge {
			what = KnowledgeFile
		}
		if _, err := ReadInput(path, what); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
	if _, err := ReadInputFrom(strings.NewReader(strings.Repeat("#", MaxInputBytes+1)), "-", AnswersFile); err == nil || !strings.HasPrefix(err.Error(), "-: the answers file is over the 1 MiB (1,048,576-byte) limit") {
		t.Errorf("stdin: %v", err)
	}
}

// --kb given a device is not told to use the device's folder (--kb /dev).
func TestAnOverlayThatIsADeviceGetsSensibleAdvice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	_, err := ReadOverlay("/dev/zero")
	want := "/dev/zero: --kb must name a folder of .toml files, not a device; pass --kb (or STACKPICK_KB) a folder that holds your .toml overlay files"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	file := filepath.Join(t.TempDir(), "rules.toml")
	os.WriteFile(file, nil, 0o644)
	if _, err := ReadOverlay(file); err == nil || !strings.HasSuffix(err.Error(), "pass the folder that holds it: --kb "+filepath.Dir(file)) {
		t.Errorf("a .toml file: %v", err)
	}
}
