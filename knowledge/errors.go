package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Problem)
	if e.Allowed != "" {
		b.WriteString(" (allowed: ")
		b.WriteString(e.Allowed)
		b.WriteString(")")
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Errors is every problem found in one load, sorted by file and line.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
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
		return fmt.Sprintf("did you mean %q?", best)
	}
	return ""
}

// Nearest returns the candidate closest to got by edit distance, if it is
// close enough to be a plausible typo (or a prefix), else "".
func Nearest(got string, candidates []string) string {
	best, bestD := "", 1<<30
	g := strings.ToLower(got)
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
	for _, c := range candidates {
		d := editDistance(g, strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	limit := max(2, len(got)/3)
	if bestD <= limit || (len(g) >= 2 && strings.HasPrefix(strings.ToLower(best), g)) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: the transposition case (Damerau) looks two rows back.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
