package knowledge

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// MaxInputBytes is the most an answers file or an overlay file may hold.
// The largest built-in knowledge file is a few hundred KiB; an answers
// file is a few KiB. The limit keeps a device (/dev/zero) or a runaway
// file from eating the machine's memory.
const MaxInputBytes = 1 << 20

// maxInputText is MaxInputBytes in words, for messages.
const maxInputText = "1 MiB"

// What ReadInput reads, in the words of its messages.
const (
	AnswersFile   = "answers file"
	KnowledgeFile = "knowledge file"
)

// withArticle is "an answers file", "a knowledge file".
func withArticle(what string) string {
	if strings.ContainsRune("aeiou", rune(what[0])) {
		return "an " + what
	}
	return "a " + what
}

// ReadInput reads the file at path for what (AnswersFile, KnowledgeFile), refusing, before it reads a byte, anything that is not a regular
// file within MaxInputBytes: a folder, a named pipe (which would block
// until something writes to it), a device, a socket, a symlink loop. The
// error is an *Error naming path; errors.Is sees the cause
// (fs.ErrNotExist, fs.ErrPermission).
func ReadInput(path, what string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, readError(path, what, err)
	}
	if e := notRegular(path, what, info); e != nil {
		return nil, e
	}
	if info.Size() > MaxInputBytes {
		return nil, tooLarge(path, what, info.Size())
	}
	// Opened without blocking: a regular file swapped for a named pipe
	// after the check must not hang the open.
	fh, err := os.OpenFile(path, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, readError(path, what, err)
	}
	defer fh.Close()
	if info, err = fh.Stat(); err != nil {
		return nil, readError(path, what, err)
	}
	if e := notRegular(path, what, info); e != nil {
		return nil, e
	}
	return readBounded(fh, path, what)
}

// ReadInputFrom reads what from r (stdin, for "-"), up to MaxInputBytes:
// more is refused, not read on.
func ReadInputFrom(r io.Reader, name, what string) ([]byte, error) {
	return readBounded(r, name, what)
}

func readBounded(r io.Reader, path, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, readError(path, what, err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(path, what, -1)
	}
	return data, nil
}

func tooLarge(path, what string, size int64) *Error {
	// In bytes: "1.0 MiB, larger than the limit of 1 MiB" read as a
	// contradiction for a file one byte over.
	limit := fmt.Sprintf("the %s (%s-byte) limit", maxInputText, groupDigits(MaxInputBytes))
	e := &Error{File: path, Problem: fmt.Sprintf("the %s is over %s", what, limit), cause: ErrTooLarge}
	if size >= 0 {
		e.Problem = fmt.Sprintf("the %s is %s bytes%s, over %s", what, groupDigits(size), sizeText(size), limit)
	}
	e.Hint = withArticle(what) + " is a short TOML text: check that this is the file you meant"
	if what == KnowledgeFile {
		e.Hint = withArticle(what) + " is a TOML text of at most " + maxInputText + ": split it into several .toml files"
	}
	return e
}

// ErrTooLarge is the cause of an input over MaxInputBytes.
var ErrTooLarge = errors.New("over the input size limit")

// sizeText is a large size in MiB or GiB, in brackets, after its bytes;
// nothing for a size near the limit, where bytes say it exactly.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf(" (%.1f GiB)", float64(n)/(1<<30))
	case n >= 2<<20:
		return fmt.Sprintf(" (%.1f MiB)", float64(n)/(1<<20))
	}
	return ""
}

// groupDigits is n with commas between thousands: 1,048,576.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// notRegular explains why a file that is not a regular file is not read.
func notRegular(path, what string, info fs.FileInfo) *Error {
	m := info.Mode()
	if m.IsRegular() {
		return nil
	}
	kind := "a special file"
	switch {
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	}
	e := &Error{File: path, Problem: "is " + kind + ", not " + withArticle(what), cause: ErrNotRegular}
	if m.IsDir() {
		e.Hint = "give the path of a file inside it"
	} else {
		e.Hint = "give the path of a regular file; to read from a pipe, use --answers - and pipe it in"
		if what == KnowledgeFile {
			e.Hint = "an overlay folder holds regular .toml files: move this one out"
		}
	}
	return e
}

// ErrNotRegular is the cause of an input that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// readError is a file that cannot be read, in words.
func readError(path, what string, err error) *Error {
	e := &Error{File: path, Problem: "cannot read the " + what, cause: err}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Problem += ": no such file"
	case errors.Is(err, fs.ErrPermission):
		e.Problem += ": permission denied"
	default:
		e.Problem += ": " + plainIOError(err)
	}
	return e
}
