package knowledge

import (
	"fmt"
	"slices"
)

// AnswerChange is one answer that differs between two answer sets.
type AnswerChange struct {
	Q        *Question
	From, To Value
}

// FromText and ToText are the two values as a person reads them.
func (c AnswerChange) FromText() string { return c.From.Plain(c.Q.Type) }
func (c AnswerChange) ToText() string   { return c.To.Plain(c.Q.Type) }

// Diff lists, in question order, the answers a user sets that differ from
// from to to. Derived answers are left out: they follow from the others.
func (kb *KB) Diff(from, to Answers) []AnswerChange {
	var out []AnswerChange
	for _, q := range kb.Questions {
		if q.Derived {
			continue
		}
		a, b := from.Get(q.Key), to.Get(q.Key)
		if !a.Equal(b, q.Type) {
			out = append(out, AnswerChange{Q: q, From: a, To: b})
		}
	}
	return out
}

// Changed lists the answers of a that differ from the defaults.
func (kb *KB) Changed(a Answers) []AnswerChange {
	return kb.Diff(kb.Defaults(), a)
}

// Same reports whether a and b hold the same answer to every question,
// derived ones included.
func (kb *KB) Same(a, b Answers) bool {
	av, bv := a.Values(), b.Values()
	if len(av) != len(bv) || len(av) != len(kb.Questions) {
		return false
	}
	for i, q := range kb.Questions {
		if !av[i].Equal(bv[i], q.Type) {
			return false
		}
	}
	return true
}

// Check reports whether v is an answer q allows: a number within its range,
// one of its words, a list of its values each at most once. It returns an
// Error with the problem and what is allowed, for the caller to place.
func (q *Question) Check(v Value) *Error {
	bad := func(problem string) *Error {
		return &Error{Key: q.Key, Problem: problem, Allowed: q.AllowedText()}
	}
	switch q.Type {
	case TypeInt:
		if q.Min != nil && v.Int < *q.Min {
			return bad(fmt.Sprintf("%d is too small", v.Int))
		}
		if q.Max != nil && v.Int > *q.Max {
			return bad(fmt.Sprintf("%d is too large", v.Int))
		}
	case TypeEnum:
		if !slices.Contains(q.Values, v.Str) {
			return bad(fmt.Sprintf("%q is not an allowed value", v.Str))
		}
	case TypeList:
		for i, s := range v.List {
			if !slices.Contains(q.Values, s) {
				return bad(fmt.Sprintf("%q is not an allowed value", s))
			}
			if slices.Contains(v.List[:i], s) {
				return bad(fmt.Sprintf("%q is listed twice", s))
			}
		}
	}
	return nil
}

// Check reports every answer of a that its question does not allow (answers
// built with Put or With are not validated as they are made).
func (kb *KB) Check(a Answers) error {
	var errs Errors
	for i, q := range kb.Questions {
		if i >= len(a.vals) {
			break
		}
		if e := q.Check(a.vals[i]); e != nil {
			e.File = "answers"
			errs = append(errs, e)
		}
	}
	if len(a.vals) != len(kb.Questions) {
		errs = append(errs, &Error{File: "answers", Problem: fmt.Sprintf("%d answers for %d questions: made against another knowledge base", len(a.vals), len(kb.Questions))})
	} else if e := a.conflict("answers", nil); e != nil {
		errs = append(errs, e)
	}
	return errs.orNil()
}
