package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/store"
)

// An exit code comes from the error's type, never from its wording: an
// internal error that happens to read like cobra's is still internal.
func TestTheExitCodeComesFromTheErrorsType(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"no error", nil, ExitOK},
		{"usage, wrapped further", fmt.Errorf("while parsing: %w", usage(errors.New("unknown flag: --x"))), ExitBadInput},
		{"bad input", badInputf("give --answers or --scenario, not both"), ExitBadInput},
		{"a knowledge base error", &knowledge.Error{File: "a.toml", Key: "nodes", Problem: "too small"}, ExitBadInput},
		{"internal, worded like a usage error", errors.New("unknown flag in the cache: requires a rebuild"), ExitInternal},
		{"interrupted", &exitError{code: ExitInterrupted, err: errUsageShown}, ExitInterrupted},
		{"a full disk, unmarked", fmt.Errorf("rendering: %w", &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}), ExitEnvironment},
		{"a read-only file system, as a file error", fileError(&fs.PathError{Op: "open", Path: "h.json", Err: syscall.EROFS}), ExitEnvironment},
		{"an I/O error, as a file error", fileError(fmt.Errorf("saving: %w", syscall.EIO)), ExitEnvironment},
		{"over quota", fileError(syscall.EDQUOT), ExitEnvironment},
		{"a locked history", fileError(fmt.Errorf("%w: another stackpick holds it", store.ErrLocked)), ExitEnvironment},
		{"a missing folder, as a file error", fileError(&fs.PathError{Op: "open", Path: "h.json", Err: syscall.ENOENT}), ExitBadInput},
		{"permission denied, as a file error", fileError(&fs.PathError{Op: "open", Path: "h.json", Err: syscall.EACCES}), ExitBadInput},
		{"a full disk marked bad input stays so", badInput(syscall.ENOSPC), ExitBadInput},
	}
	for _, c := range cases {
		if got := codeOf(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
	if u := usage(usage(errors.New("x"))); errors.Unwrap(u).Error() != "x" {
		t.Error("usage wraps a usage error twice")
	}
}

// The commands cobra adds itself check their arguments as ours do: a usage
// error, exit 2, with the pointer to --help.
func TestCobrasOwnCommandsReportUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"completion", "bash", "extra"}, {"completion", "zsh", "--nope"}, {"version", "extra"}} {
		var out, errb strings.Builder
		code := Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != ExitBadInput || !strings.HasSuffix(errb.String(), "for usage\n") || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes", args, code, errb.String(), out.Len())
		}
	}
}

// diskFull is a writer on a full disk.
type diskFull struct{}

func (diskFull) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// A write the disk refuses exits 74 (the environment's fault), whether the
// rendering goes to stdout or to --out; the message says why, without the
// temporary file's name, and nothing is left behind.
func TestAWriteTheDiskRefusesIsTheEnvironmentsFault(t *testing.T) {
	var errb strings.Builder
	a := newApp(IO{Stdin: strings.NewReader(""), Stdout: diskFull{}, Stderr: &errb})
	render := func(w io.Writer, color bool) error {
		_, err := io.WriteString(w, "# Decision\n")
		return err
	}
	if err := a.emit("", false, render); codeOf(err) != ExitEnvironment || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("stdout: exit %d (%v), want %d", codeOf(err), err, ExitEnvironment)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "adr", "0007.md")
	err := a.emit(out, false, func(io.Writer, bool) error { return syscall.ENOSPC })
	if codeOf(err) != ExitEnvironment || err.Error() != out+": cannot write: no space left on device" {
		t.Errorf("--out: exit %d, %q", codeOf(err), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q", errb.String())
	}
}

// Every exit code is in the manual page and in the README's exit-codes
// paragraph: a code added in one place and not the others is found here.
func TestEveryExitCodeIsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i := strings.Index(readme, "Exit codes: ")
	if i < 0 {
		t.Fatal("the README has no 'Exit codes:' paragraph")
	}
	para := readme[i:]
	para = strings.ReplaceAll(para[:strings.Index(para, "\n\n")], "\n", " ")
	for _, code := range []int{ExitOK, ExitInternal, ExitBadInput, ExitEnvironment, ExitHangup, ExitInterrupted, ExitTerminated} {
		found := false
		for _, s := range exitStatuses {
			found = found || s.code == code
		}
		if !found {
			t.Errorf("the manual page does not list exit code %d", code)
		}
		if !strings.Contains(para, fmt.Sprintf(" %d ", code)) && !strings.Contains(para, fmt.Sprintf(" %d,", code)) {
			t.Errorf("the README's exit-codes paragraph does not name %d: %q", code, para)
		}
	}
}
