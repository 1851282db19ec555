package verify

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// notesFile is the course notes, as lines with whitespace collapsed.
type notesFile struct {
	path  string
	lines []string
}

func readNotes(path string) (*notesFile, error) {
	fi, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return nil, &InputError{fmt.Sprintf("--notes %s: no such file; pass the course notes' text file ('%s')", path, knowledge.CourseNotesTitle)}
	case err != nil:
		return nil, &InputError{fmt.Sprintf("--notes %s: %v", path, err)}
	case fi.IsDir():
		return nil, &InputError{fmt.Sprintf("--notes %s: a folder, not a file; pass the course notes' text file", path)}
	case fi.Size() > MaxFileBytes:
		return nil, &InputError{fmt.Sprintf("--notes %s: %d bytes, over the %d MiB kb verify reads of one file", path, fi.Size(), MaxFileBytes>>20)}
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, &InputError{fmt.Sprintf("--notes %s: %v", path, err)}
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes))
	if err != nil {
		return nil, &InputError{fmt.Sprintf("--notes %s: %v", path, err)}
	}
	n := &notesFile{path: path}
	for _, l := range strings.Split(string(b), "\n") {
		n.lines = append(n.lines, collapse(l))
	}
	return n, nil
}

// topLevel reports whether a line opens one of the notes' numbered
// sections ("1. vLLM as a product — …", "01 — Engines as Products").
func topLevel(line string) bool {
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 0 || i > 3 {
		return false
	}
	rest := line[i:]
	return strings.HasPrefix(rest, ". ") || strings.HasPrefix(rest, " — ")
}

// headingTitle is a line read as a heading's title: without a trailing
// colon, and the line with its number dropped as a second spelling.
func headingTitles(line string) []string {
	t := strings.TrimSuffix(line, ":")
	out := []string{t}
	if topLevel(t) {
		if _, rest, ok := strings.Cut(t, ". "); ok {
			out = append(out, rest)
		} else if _, rest, ok := strings.Cut(t, " — "); ok {
			out = append(out, rest)
		}
	}
	return out
}

// check finds the section (a line of the notes that is its title) and
// the quote in the section: from the heading to the next numbered
// section, so a sub-heading's quote may run on to the sub-headings after
// it, but never into another numbered section.
func (n *notesFile) check(s knowledge.Source) Result {
	if s.Unavailable() {
		return Result{State: NotAvailable, Detail: "marked " + s.Checked, Hint: "read the section in the course notes and record its title and a quote"}
	}
	title := strings.TrimSuffix(collapse(s.Section), ":")
	start := -1
	for i, l := range n.lines {
		for _, t := range headingTitles(l) {
			if t != "" && t == title {
				start = i
				break
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return Result{State: SectionMissing, Detail: fmt.Sprintf("the course notes have no heading '%s'", clip(title)), Hint: "write the section's title exactly as its heading line reads (without a § number or quotes)"}
	}
	end := len(n.lines)
	for i := start + 1; i < len(n.lines); i++ {
		if topLevel(n.lines[i]) {
			end = i
			break
		}
	}
	text := collapse(strings.Join(n.lines[start:end], " "))
	if q := collapse(s.Quote); q == "" || !strings.Contains(text, q) {
		return Result{State: QuoteMissing, Detail: fmt.Sprintf("section '%s' of the course notes does not contain '%s'", clip(title), clip(q)), Hint: "copy the quote exactly from the section (or cite the section it is in)"}
	}
	return Result{State: Verified}
}
