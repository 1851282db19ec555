package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Error is one problem in a knowledge or answers file, written for the person
// who has to fix it: where, which key, what is wrong, what is allowed, and
// the nearest valid spelling when there is one.
type Error struct {
	File    string
	Line    int
	Key     string
	Problem string
	Allowed string
	Hint    string
	// cause is the error underneath (a file that cannot be read), for
	// errors.Is; it is not shown.
	cause error
}

// Error writes the problem on one line. Every field can hold text from the
// user's file, so each is shown through Shown: control characters and
// bidirectional overrides escaped, an overlong field cut.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(shownField(e.File, maxFieldShown))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(shownField(e.Key, maxKeyShown))
		b.WriteString(": ")
	}
	b.WriteString(shownField(e.Problem, maxFieldShown))
	if e.Allowed != "" {
		b.WriteString(" (allowed: ")
		b.WriteString(shownField(e.Allowed, maxFieldShown))
		b.WriteString(")")
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(shownField(e.Hint, maxFieldShown))
	}
	return b.String()
}

// Unwrap is the cause underneath, if any (fs.ErrNotExist for a missing file).
func (e *Error) Unwrap() error { return e.cause }

// Errors is every problem found in one load, sorted by file and line.
type Errors []*Error

// MaxShownErrors is how many problems Errors.Error lists before it
// counts the rest: a file of 16,000 unknown keys gets a page, not 10 MB.
const MaxShownErrors = 100

func (es Errors) Error() string {
	n := min(len(es), MaxShownErrors)
	lines := make([]string, n, n+1)
	for i, e := range es[:n] {
		lines[i] = e.Error()
	}
	if rest := len(es) - n; rest > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more problems, not shown: fix these and run again", rest))
	}
	return strings.Join(lines, "\n")
}

func (es Errors) sorted() Errors {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return es
}

// orNil keeps a nil Errors from turning into a non-nil error interface.
func (es Errors) orNil() error {
	if len(es) == 0 {
		return nil
	}
	return es.sorted()
}

// didYouMean returns `did you mean "x"?` for the nearest candidate, or "".
func didYouMean(got string, candidates []string) string {
	if best := Nearest(got, candidates); best != "" {
		return "did you mean " + Quote(best) + "?"
	}
	return ""
}

// Nearest returns the candidate closest to got by edit distance, if it is
// close enough to be a plausible typo (or a prefix), else "".
func Nearest(got string, candidates []string) string {
	best, bestD := "", 1<<30
	g := strings.ToLower(got)
	gn := utf8.RuneCountInString(g)
	limit := max(2, len(got)/3)
	// A candidate that contains what was typed ("4090" in "rtx-4090",
	// "qwen3-235b" in "qwen3-235b-a22b") beats any edit-distance guess.
	if len(g) >= 3 {
		for _, c := range candidates {
			lc := strings.ToLower(c)
			if lc != g && strings.Contains(lc, g) && (best == "" || len(c) < len(best)) {
				best = c
			}
		}
		if best != "" {
			return best
		}
	}
	rg := []rune(g)
	var rows editRows
	for _, c := range candidates {
		// The distance is at least the difference in length: a candidate
		// too far off by that alone cannot be a typo of got (and a 1 MB
		// value costs no more than a short one). Short input keeps every
		// candidate for the prefix rule below. Past the limit, or past the
		// best so far, the distance need not be finished.
		cutoff := 1 << 30
		if gn >= 3 {
			cutoff = min(limit, bestD-1)
			if abs(gn-utf8.RuneCountInString(c)) > cutoff {
				continue
			}
		}
		d := rows.distance(rg, []rune(strings.ToLower(c)), cutoff)
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	if bestD <= limit || (len(g) >= 2 && strings.HasPrefix(strings.ToLower(best), g)) {
		return best
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editRows are the rows editDistance works in, kept across candidates.
type editRows struct{ buf []int }

// distance is the Damerau (optimal string alignment) distance of ra and
// rb, or more than cutoff once it is sure to exceed it.
func (e *editRows) distance(ra, rb []rune, cutoff int) int {
	// Three rows: the transposition case (Damerau) looks two rows back.
	n := len(rb) + 1
	if cap(e.buf) < 3*n {
		e.buf = make([]int, 3*n)
	}
	prev2, prev, cur := e.buf[:n], e.buf[n:2*n], e.buf[2*n:3*n]
	clear(prev2)
	for j := range prev {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		curMin := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			curMin = min(curMin, cur[j])
		}
		// Every later cell builds on these two rows, plus something.
		if curMin > cutoff && prevMin > cutoff {
			return cutoff + 1
		}
		prevMin = curMin
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
