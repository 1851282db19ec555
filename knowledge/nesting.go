package knowledge

import "fmt"

// MaxNesting is how deep a knowledge or answers file may nest tables and
// lists: brackets ([ and {) inside a value, plus the parts of a dotted key
// (a.b.c) or a table header. The deepest thing the schema reads is a
// product's landmine condition with everything written inline,
// product = [{ landmine = [{ when = { key = { one_of = ["…"] } } }] }]:
// seven. The TOML decoder has no limit of its own and takes seconds and
// gigabytes on a few kilobytes nested thousands deep, so deeper files are
// refused before they are decoded.
const MaxNesting = 16

// checkNesting scans src the way TOML reads it (strings, literal strings,
// multi-line strings and comments are skipped, so a bracket inside quotes
// does not count) and returns an Error at the first line that nests deeper
// than MaxNesting, or nil. It reads src once.
func checkNesting(file string, src []byte) *Error {
	depth, dots, line := 0, 0, 1
	deepest := func() *Error {
		return &Error{File: file, Line: line,
			Problem: fmt.Sprintf("tables and lists are nested more than %d deep", MaxNesting),
			Hint:    "nothing stackpick reads nests that deep; write the tables out with [headers], or check that this is the file you meant"}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line++
			dots = 0
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			end, lines := skipString(src, i)
			line += lines
			i = end
		case '.':
			dots++
		case '=':
			if depth+dots+1 > MaxNesting {
				return deepest()
			}
			dots = 0
		case '[', '{':
			depth++
			dots = 0
			if depth > MaxNesting {
				return deepest()
			}
		case ']', '}':
			if depth+dots > MaxNesting {
				return deepest()
			}
			depth = max(depth-1, 0)
			dots = 0
		case ',':
			dots = 0
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string that opens
// at src[i] (a quote), and how many newlines it holds. An unterminated
// string runs to the end of its line (one-line strings) or of the file;
// the decoder reports it.
func skipString(src []byte, i int) (end, lines int) {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		j := i + 3
		for ; j < len(src); j++ {
			switch {
			case src[j] == '\n':
				lines++
			case q == '"' && src[j] == '\\':
				if j+1 < len(src) && src[j+1] == '\n' {
					lines++
				}
				j++
			case src[j] == q && j+2 < len(src) && src[j+1] == q && src[j+2] == q:
				// Up to two more quotes belong to the string: """a""""".
				j += 2
				for j+1 < len(src) && src[j+1] == q {
					j++
				}
				return j, lines
			}
		}
		return len(src) - 1, lines
	}
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\n':
			return j - 1, 0 // the newline is the caller's to count
		case q == '"' && src[j] == '\\':
			j++
			if j < len(src) && src[j] == '\n' {
				return j - 1, 0
			}
		case src[j] == q:
			return j, 0
		}
	}
	return len(src) - 1, 0
}
