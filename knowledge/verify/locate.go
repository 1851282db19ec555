package verify

import (
	"os"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// sourceLines finds the line of a source's own [[….source]] table in the
// knowledge file, so a failure points at the source rather than at the
// fact (a product's landmines and corrections share the product's line).
// It reads the file when it can (an overlay, or the built-in files when
// run from the repository), finds the first line at or after the fact's
// that holds the source's quote (or commit, or path), and goes back to
// the table header above it; when it cannot, the fact's line stands.
type sourceLines struct {
	files map[string][]string
}

func (l *sourceLines) line(pos knowledge.Pos, s knowledge.Source) int {
	if l.files == nil {
		l.files = map[string][]string{}
	}
	lines, ok := l.files[pos.File]
	if !ok {
		if fi, err := os.Stat(pos.File); err == nil && !fi.IsDir() && fi.Size() <= MaxFileBytes {
			if b, err := os.ReadFile(pos.File); err == nil {
				lines = strings.Split(string(b), "\n")
			}
		}
		l.files[pos.File] = lines
	}
	if len(lines) == 0 || pos.Line < 1 || pos.Line > len(lines) {
		return pos.Line
	}
	for _, needle := range needles(s) {
		for i := pos.Line - 1; i < len(lines); i++ {
			if !strings.Contains(lines[i], needle) {
				continue
			}
			for j := i; j >= pos.Line-1; j-- {
				t := strings.TrimSpace(lines[j])
				if strings.HasPrefix(t, "[[") && strings.Contains(t, "source") {
					return j + 1
				}
				if strings.HasPrefix(t, "[") {
					break
				}
			}
			return i + 1
		}
	}
	return pos.Line
}

// needles are strings that find a source in its TOML: a stretch of its
// quote with no character TOML would escape, its commit, its section.
func needles(s knowledge.Source) []string {
	var out []string
	q := s.Quote
	if i := strings.IndexAny(q, "\"\\\n\t"); i >= 0 {
		q = q[:i]
	}
	if len(strings.TrimSpace(q)) >= 12 {
		out = append(out, q)
	}
	if s.Commit != "" {
		out = append(out, `"`+s.Commit+`"`)
	}
	if s.Section != "" && !strings.ContainsAny(s.Section, "\"\\") {
		out = append(out, s.Section)
	}
	return out
}
