package knowledge

import (
	"regexp"
	"strings"
)

// locator finds the line a key was written on. The TOML decoder keeps key
// positions private, so this scans the source text: good enough for the
// layouts people write (headers, key = value, inline tables), and it falls
// back to the enclosing table's header when a key cannot be seen.
type locator struct {
	lines []string
	// headers[i] is the table header in force on line i+1 ("" at top level),
	// without brackets, e.g. "rule", "rule.when", "answers".
	headers []string
	// arrays maps an array-of-tables name to the lines of its [[name]] headers.
	arrays map[string][]int
}

var headerRE = lazyRE(`^\s*(\[\[?)\s*([A-Za-z0-9_.\-" ]+?)\s*\]\]?`)

func newLocator(src []byte) *locator {
	l := &locator{arrays: map[string][]int{}}
	l.lines = strings.Split(string(src), "\n")
	cur := ""
	for i, line := range l.lines {
		if m := headerRE.FindStringSubmatch(line); m != nil {
			cur = strings.ReplaceAll(strings.ReplaceAll(m[2], `"`, ""), " ", "")
			if m[1] == "[[" {
				l.arrays[cur] = append(l.arrays[cur], i+1)
			}
		}
		l.headers = append(l.headers, cur)
	}
	return l
}

// element returns the header line of the idx-th [[array]] element, or 0.
func (l *locator) element(array string, idx int) int {
	if hs := l.arrays[array]; idx >= 0 && idx < len(hs) {
		return hs[idx]
	}
	return 0
}

// keyLine finds the line of key (a path such as ["when","nodes","at_least"])
// inside the block starting at line from (1-based; 0 means the whole file at
// top level) and ending before the next header of the same depth. It returns
// the best line it can see, falling back to from.
func (l *locator) keyLine(from int, path ...string) int {
	if len(path) == 0 {
		return from
	}
	start := max(from, 1)
	end := len(l.lines)
	base := ""
	if from > 0 {
		base = l.headers[from-1]
		for i := from; i < len(l.lines); i++ { // i+1 is the line number
			if contains(l.arrays[base], i+1) {
				end = i
				break
			}
			if h := l.headers[i]; h != base && !strings.HasPrefix(h, base+".") {
				end = i
				break
			}
		}
	} else {
		for i, h := range l.headers {
			if h != "" {
				end = i
				break
			}
		}
	}
	// Try the most specific component first: the last key of the path,
	// written as "key =" on a line whose header and dotted prefix fit.
	for depth := len(path); depth >= 1; depth-- {
		want := path[depth-1]
		re := regexp.MustCompile(`(^|[\s{,.])"?` + regexp.QuoteMeta(want) + `"?\s*=`)
		hdr := regexp.MustCompile(`^\s*\[\[?\s*` + regexp.QuoteMeta(strings.Trim(strings.Join(append([]string{base}, path[:depth]...), "."), ".")) + `\s*\]`)
		for i := start - 1; i < end && i < len(l.lines); i++ {
			line := stripComment(l.lines[i])
			if hdr.MatchString(line) || (re.MatchString(line) && l.headerFits(i, base, path[:depth-1])) {
				return i + 1
			}
		}
	}
	if from == 0 {
		// A top-level key written as a table header: [fleet].
		hdr := regexp.MustCompile(`^\s*\[\[?\s*` + regexp.QuoteMeta(strings.Join(path, ".")) + `\s*\]`)
		for i, line := range l.lines {
			if hdr.MatchString(stripComment(line)) {
				return i + 1
			}
		}
	}
	return from
}

// headerFits reports whether a key on line i can belong to the path prefix:
// either the header is base+prefix, or the rest of the prefix is written
// on the line itself (an inline table: `nodes = { at_least = 2 }`).
func (l *locator) headerFits(i int, base string, prefix []string) bool {
	h := l.headers[i]
	full := strings.Trim(strings.Join(append([]string{base}, prefix...), "."), ".")
	if h == full {
		return true
	}
	if h != "" && h != base && !strings.HasPrefix(full, h+".") {
		return false
	}
	if len(prefix) == 0 {
		return true
	}
	covered := strings.Count(strings.TrimPrefix(strings.TrimPrefix(h, base), "."), ".") + 1
	if h == base || h == "" {
		covered = 0
	}
	if covered >= len(prefix) {
		return true
	}
	parent := prefix[len(prefix)-1]
	re := regexp.MustCompile(`(^|[\s{,.])"?` + regexp.QuoteMeta(parent) + `"?\s*[=.]`)
	return re.MatchString(stripComment(l.lines[i]))
}

func stripComment(s string) string {
	inStr := false
	for i, r := range s {
		switch r {
		case '"':
			inStr = !inStr
		case '#':
			if !inStr {
				return s[:i]
			}
		}
	}
	return s
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// subElement returns the header line of the idx-th [[base.name]] table
// inside the block whose header is on line from (a [[rule.source]] of
// the rule there), or 0 when it cannot be seen.
func (l *locator) subElement(from int, name string, idx int) int {
	if from <= 0 || from > len(l.lines) {
		return 0
	}
	base := l.headers[from-1]
	want := base + "." + name
	n := 0
	for i := from; i < len(l.lines); i++ {
		h := l.headers[i]
		if contains(l.arrays[base], i+1) || (h != base && !strings.HasPrefix(h, base+".")) {
			break
		}
		if h == want && contains(l.arrays[want], i+1) {
			if n == idx {
				return i + 1
			}
			n++
		}
	}
	return 0
}
