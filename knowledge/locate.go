package knowledge

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// locator finds the line a key was written on. The TOML decoder keeps key
// positions private, so this reads the source text: good enough for the
// layouts people write (headers, key = value, inline tables), and it falls
// back to the enclosing table's header when a key cannot be seen.
//
// It reads the text once, into an index of where each key and header is
// written, so finding a line is a lookup: a file of 16,000 unknown keys is
// reported as fast as one of ten.
type locator struct {
	lines []string
	// headers[i] is the table header in force on line i+1 ("" at top level),
	// without brackets, e.g. "rule", "rule.when", "answers".
	headers []string
	// arrays maps an array-of-tables name to the lines of its [[name]] headers.
	arrays map[string][]int
	// arrayAt[i] is whether line i+1 is a [[…]] header.
	arrayAt []bool
	// topEnd is the index of the first line under a header (the end of
	// the top-level block).
	topEnd int

	once sync.Once
	// keys[w] lists the indexes of the lines (ascending) that write w as a
	// key followed by "=", dotted[w] those that write it followed by ".":
	// `w = 1`, `a.w = 1`, `{ w = 1 }`, `w.x = 1`.
	keys, dotted map[string][]int
	// written[name] lists the indexes of the lines that are a [name] or
	// [[name]] header, name as written between the brackets.
	written map[string][]int

	mu sync.Mutex
	// ends caches blockEnd by the block's first line.
	ends map[int]int
}

var headerRE = lazyRE(`^\s*(\[\[?)\s*([A-Za-z0-9_.\-" ]+?)\s*\]\]?`)

func newLocator(src []byte) *locator {
	l := &locator{arrays: map[string][]int{}}
	l.lines = strings.Split(string(src), "\n")
	l.headers = make([]string, 0, len(l.lines))
	l.arrayAt = make([]bool, len(l.lines))
	l.topEnd = len(l.lines)
	cur := ""
	for i, line := range l.lines {
		if strings.Contains(line, "[") {
			if m := headerRE.FindStringSubmatch(line); m != nil {
				cur = strings.ReplaceAll(strings.ReplaceAll(m[2], `"`, ""), " ", "")
				if m[1] == "[[" {
					l.arrays[cur] = append(l.arrays[cur], i+1)
					l.arrayAt[i] = true
				}
				if cur != "" && l.topEnd == len(l.lines) {
					l.topEnd = i
				}
			}
		}
		l.headers = append(l.headers, cur)
	}
	return l
}

// index reads every line's keys and headers, once, on the first lookup:
// a file without errors never needs it.
func (l *locator) index() {
	l.once.Do(func() {
		l.keys, l.dotted, l.written = map[string][]int{}, map[string][]int{}, map[string][]int{}
		for i, line := range l.lines {
			line = stripComment(line)
			if strings.Contains(line, "[") {
				if m := headerRE.FindStringSubmatch(line); m != nil {
					l.written[m[2]] = append(l.written[m[2]], i)
				}
			}
			eachKey(line, func(word string, follow byte) {
				idx := l.keys
				if follow == '.' {
					idx = l.dotted
				}
				if ws := idx[word]; len(ws) == 0 || ws[len(ws)-1] != i {
					idx[word] = append(ws, i)
				}
			})
		}
	})
}

// eachKey calls fn for every word on line that is written as a key: after
// the start of the line, a space, "{", "," or "." and, quoted or bare,
// followed (after spaces) by "=" or ".". Quoted text that is a value is
// passed over.
func eachKey(line string, fn func(word string, follow byte)) {
	for p := 0; p < len(line); p++ {
		if p > 0 && !strings.ContainsRune(" \t\r\v\f{,.", rune(line[p-1])) {
			continue
		}
		var word string
		var q int // index after the word
		switch c := line[p]; c {
		case '"', '\'':
			end := strings.IndexByte(line[p+1:], c)
			if end < 0 {
				return
			}
			word, q = line[p+1:p+1+end], p+2+end
		default:
			q = p
			for q < len(line) && !strings.ContainsRune(" \t\r\v\f=.,{}[]\"'", rune(line[q])) {
				q++
			}
			if q == p {
				continue
			}
			word = line[p:q]
		}
		r := q
		for r < len(line) && (line[r] == ' ' || line[r] == '\t') {
			r++
		}
		if r < len(line) && (line[r] == '=' || line[r] == '.') {
			fn(word, line[r])
			if line[p] == '"' && strings.Contains(word, `\`) {
				// "\u001b…" is the key the decoder reads, escapes undone.
				if un, err := strconv.Unquote(`"` + word + `"`); err == nil {
					fn(un, line[r])
				}
			}
		}
		if line[p] == '"' || line[p] == '\'' {
			p = q - 1 // a quoted word is passed over whole
		}
	}
}

// element returns the header line of the idx-th [[array]] element, or 0.
func (l *locator) element(array string, idx int) int {
	if hs := l.arrays[array]; idx >= 0 && idx < len(hs) {
		return hs[idx]
	}
	return 0
}

// elementAt returns the header line of the [[array]] element whose block
// holds line index i, or 0.
func (l *locator) elementAt(array string, i int) int {
	hs := l.arrays[array]
	n, _ := slices.BinarySearch(hs, i+2) // the headers on or before line i+1
	if n == 0 {
		return 0
	}
	return hs[n-1]
}

// blockEnd returns the index of the first line after the block whose
// header is on line from (1-based): the next [[same]] header, or the next
// header that is not inside it. 0 is the top-level block.
func (l *locator) blockEnd(from int) int {
	if from <= 0 {
		return l.topEnd
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if end, ok := l.ends[from]; ok {
		return end
	}
	end := len(l.lines)
	base := l.headers[from-1]
	for i := from; i < len(l.lines); i++ { // i+1 is the line number
		if h := l.headers[i]; (l.arrayAt[i] && h == base) || (h != base && !strings.HasPrefix(h, base+".")) {
			end = i
			break
		}
	}
	if l.ends == nil {
		l.ends = map[int]int{}
	}
	l.ends[from] = end
	return end
}

// keyLine finds the line of key (a path such as ["when","nodes","at_least"])
// inside the block starting at line from (1-based; 0 means the whole file at
// top level) and ending before the next header of the same depth. It returns
// the best line it can see, falling back to from.
func (l *locator) keyLine(from int, path ...string) int {
	if len(path) == 0 {
		return from
	}
	if from > len(l.lines) {
		return from
	}
	l.index()
	start := max(from, 1) - 1 // the first line index searched
	end := l.blockEnd(from)
	base := ""
	if from > 0 {
		base = l.headers[from-1]
	}
	// Try the most specific component first: the last key of the path,
	// written as "key =" on a line whose header and dotted prefix fit, or
	// as the header of its own table.
	for depth := len(path); depth >= 1; depth-- {
		want := path[depth-1]
		hdr := strings.Trim(strings.Join(append([]string{base}, path[:depth]...), "."), ".")
		best := firstIn(l.written[hdr], start, end)
		for _, i := range within(l.keys[want], start, min(end, best)) {
			if l.headerFits(i, base, path[:depth-1]) {
				best = i
				break
			}
		}
		if best < end {
			return best + 1
		}
	}
	if from == 0 {
		// A top-level key written as a table header: [fleet].
		if i := firstIn(l.written[strings.Join(path, ".")], 0, len(l.lines)); i < len(l.lines) {
			return i + 1
		}
	}
	return from
}

// within returns the part of the ascending line indexes xs in [start, end).
func within(xs []int, start, end int) []int {
	lo, _ := slices.BinarySearch(xs, start)
	hi, _ := slices.BinarySearch(xs, end)
	if hi < lo {
		return nil
	}
	return xs[lo:hi]
}

// firstIn returns the first of the ascending line indexes xs in
// [start, end), or end.
func firstIn(xs []int, start, end int) int {
	if in := within(xs, start, end); len(in) > 0 {
		return in[0]
	}
	return end
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
	return len(within(l.keys[parent], i, i+1)) > 0 || len(within(l.dotted[parent], i, i+1)) > 0
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

// lineOfKey returns the line of the unknown key path (its first part the
// name of an array of tables: rule, product) inside the first element
// that writes it, else the first element's header line. Only the
// elements whose text names a part of the path are tried, most specific
// part first, so each key costs a lookup, not a pass over every element.
func (l *locator) lineOfKey(path []string) int {
	array, rest := path[0], path[1:]
	l.index()
	for depth := len(rest); depth >= 1; depth-- {
		want := rest[depth-1]
		seen := -1
		for _, idx := range [][]int{l.keys[want], l.dotted[want], l.written[strings.Join(path[:depth+1], ".")]} {
			for _, i := range idx {
				el := l.elementAt(array, i)
				if el == 0 || el == seen {
					continue
				}
				seen = el
				if line := l.keyLine(el, rest...); line != el {
					return line
				}
			}
		}
	}
	return l.element(array, 0)
}

// subElement returns the header line of the idx-th [[base.name]] table
// inside the block whose header is on line from (a [[rule.source]] of
// the rule there), or 0 when it cannot be seen.
func (l *locator) subElement(from int, name string, idx int) int {
	if from <= 0 || from > len(l.lines) {
		return 0
	}
	want := l.headers[from-1] + "." + name
	n := 0
	for i, end := from, l.blockEnd(from); i < end; i++ {
		if l.headers[i] == want && l.arrayAt[i] {
			if n == idx {
				return i + 1
			}
			n++
		}
	}
	return 0
}
