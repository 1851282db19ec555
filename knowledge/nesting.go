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
//
// The depth is the same for lists and inline tables: each [ or { that
// opens a value is one level, and the parts of a key (a.b.c, or a table
// header [a.b.c]) are one level each. So a = [[…16 lists…]] and
// a = {b = …16 inline tables…} both load, and one more of either is
// refused. The dots of a value (1.5, a date) are not key parts.
func checkNesting(file string, src []byte) *Error {
	const (
		table  = '{' // an inline table: a key comes after { and ,
		list   = 'l' // a list: values come after [ and ,
		header = 'h' // a table header: [a.b] or [[a.b]]
	)
	var open []byte    // the brackets open now, innermost last
	dots, line := 0, 1 // dots: the key's dotted parts so far
	inValue := false   // after a key's =, until the value ends
	deepest := func(hint string) *Error {
		return &Error{File: file, Line: line,
			Problem: fmt.Sprintf("tables and lists are nested more than %d deep", MaxNesting),
			Hint:    "nothing stackpick reads nests that deep; " + hint}
	}
	const inlineHint = "write the tables out with [headers], or check that this is the file you meant"
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line++
			if len(open) == 0 {
				dots, inValue = 0, false
			}
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			end, lines := skipString(src, i)
			line += lines
			i = end
		case '.':
			if !inValue {
				dots++
			}
		case '=':
			if inValue {
				break
			}
			// A key's parts: inside braces the first part is the brace's
			// level; at the top the first part is a level of its own.
			parts := len(open) + dots
			if len(open) == 0 {
				parts++
			}
			if parts > MaxNesting {
				return deepest(inlineHint)
			}
			dots, inValue = 0, true
		case '[', '{':
			kind := byte(table)
			switch {
			case c == '[' && inValue:
				kind = list
			case c == '[':
				kind = header
			}
			if kind != header {
				open = append(open, kind)
				if len(open) > MaxNesting {
					return deepest(inlineHint)
				}
			} else if len(open) == 0 || open[len(open)-1] != header {
				open = append(open, header) // [[a]] is one level, as [a]
			}
			dots, inValue = 0, kind == list
		case ']', '}':
			if len(open) == 0 {
				break
			}
			kind := open[len(open)-1]
			if kind == header {
				if 1+dots > MaxNesting {
					return deepest("check that this is the file you meant")
				}
				if i+1 < len(src) && src[i+1] == ']' {
					i++ // the second ] of [[a.b]]
				}
			}
			open = open[:len(open)-1]
			dots = 0
			// After a closed value, the enclosing value goes on; after a
			// header, keys come.
			inValue = kind != header && (len(open) > 0 && open[len(open)-1] == list || len(open) == 0)
		case ',':
			dots = 0
			inValue = len(open) > 0 && open[len(open)-1] == list
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
