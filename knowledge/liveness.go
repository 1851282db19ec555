package knowledge

import (
	"fmt"
	"slices"
)

// DeadValue is an answer that changes nothing: no rule condition, landmine
// condition or engine setting tells it apart from the question's default
// (for an int question: nothing compares the number at all).
type DeadValue struct {
	Question *Question
	// Value is the answer as a user would type it ("true", "speech", "200");
	// AnyValue for an int question nothing reads.
	Value string
}

// AnyValue stands for every value of an int question nothing reads.
const AnyValue = "any value"

func (d DeadValue) String() string {
	q := d.Question
	if d.Value == AnyValue {
		return fmt.Sprintf("%s:%d: %s: no rule, landmine or engine setting compares it, so no number changes the decision", q.File, q.Line, q.Key)
	}
	base := q.def.Plain(q.Type)
	if q.Type == TypeList {
		base = "without it"
	}
	return fmt.Sprintf("%s:%d: %s = %s: no rule, landmine or engine setting tells it apart from %s", q.File, q.Line, q.Key, d.Value, base)
}

// DeadValues lists, for every question a user answers, the allowed values
// that cannot change the decision, the sizing or the launch command: enum
// values and bools (both ways) no condition tells apart from the default,
// list items whose presence no condition notices, and int questions nothing
// compares. A condition on a derived key counts for the answers it is
// computed from (DerivedFrom). engineReads names what the engine settings
// read, key to values: a key with no values reads every value (a number, a
// catalog entry); with values, only those are told apart from the default.
func DeadValues(kb *KB, engineReads map[string][]string) []DeadValue {
	var conds []*Cond
	for _, r := range kb.Rules {
		for i := range r.Conds {
			conds = append(conds, &r.Conds[i])
		}
	}
	for _, p := range kb.Products {
		for _, m := range p.Landmines {
			for i := range m.Conds {
				conds = append(conds, &m.Conds[i])
			}
		}
	}
	// feeds[k] are the derived keys computed from k.
	feeds := map[string][]string{}
	for d, from := range DerivedFrom {
		for _, k := range from {
			feeds[k] = append(feeds[k], d)
		}
	}
	tests := func(c *Cond, key string) bool {
		return c.Key == key || slices.Contains(feeds[key], c.Key)
	}
	var dead []DeadValue
	for i, q := range kb.Questions {
		if q.Derived {
			continue
		}
		reads, engine := engineReads[q.Key]
		if engine && len(reads) == 0 {
			continue // the engine reads every value
		}
		if q.Type == TypeInt {
			if !slices.ContainsFunc(conds, func(c *Cond) bool { return tests(c, q.Key) }) {
				dead = append(dead, DeadValue{Question: q, Value: AnyValue})
			}
			continue
		}
		var relevant []*Cond
		for _, c := range conds {
			if tests(c, q.Key) {
				relevant = append(relevant, c)
			}
		}
		bases := contexts(kb, q.Key, feeds[q.Key])
		for _, v := range candidates(q) {
			label := v.Plain(q.Type)
			if q.Type == TypeList {
				label = v.List[0]
			}
			if slices.Contains(reads, label) {
				continue
			}
			live := false
			for _, base := range bases {
				if live {
					break
				}
				from := base.With(i, baseline(q))
				to := base.With(i, v)
				for _, c := range relevant {
					if c.Holds(from.vals[c.Q]) != c.Holds(to.vals[c.Q]) {
						live = true
						break
					}
				}
			}
			if !live {
				dead = append(dead, DeadValue{Question: q, Value: label})
			}
		}
	}
	return dead
}

// baseline is what a value is told apart from: the default, or for a list
// the empty list (a list item is live when its presence is noticed).
func baseline(q *Question) Value {
	if q.Type == TypeList {
		return Value{}
	}
	return q.def.clone()
}

// candidates are the values of q other than its baseline: every other enum
// value, the other bool, and each list item alone.
func candidates(q *Question) []Value {
	var out []Value
	switch q.Type {
	case TypeBool:
		out = append(out, Value{Bool: !q.def.Bool})
	case TypeList:
		for _, v := range q.Values {
			out = append(out, Value{List: []string{v}})
		}
	default:
		for _, v := range q.Values {
			if v != q.def.Str {
				out = append(out, Value{Str: v})
			}
		}
	}
	return out
}

// contexts are the answer sets a value is tried in: the defaults, and for a
// question that feeds a derived key, the defaults with each value of the
// derived key's other enum or bool inputs (substrate = bare-metal differs
// from auto only where kubernetes is not none).
func contexts(kb *KB, key string, derived []string) []Answers {
	out := []Answers{kb.Defaults()}
	for _, d := range derived {
		for _, k := range DerivedFrom[d] {
			o := kb.Question(k)
			if k == key || o == nil || o.Type == TypeInt || o.Type == TypeList {
				continue
			}
			for _, v := range candidates(o) {
				out = append(out, kb.Defaults().With(kb.QuestionIndex(k), v))
			}
		}
	}
	return out
}
