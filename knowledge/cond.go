package knowledge

import (
	"fmt"
	"slices"
	"strings"
)

// Condition operators: the whole vocabulary a rule may use.
const (
	OpEquals  = "equals"
	OpOneOf   = "one_of"
	OpAtLeast = "at_least"
	OpAtMost  = "at_most"
)

// Cond is one compiled test on one answer. A TOML condition with several
// operators compiles to several Conds; all must hold.
type Cond struct {
	Key  string
	Q    int // index into KB.Questions
	Type string
	Op   string
	Int  int
	Bool bool
	Str  string
	// Strs holds one_of strings (enum, list) or the equals set of a list.
	Strs []string
	Ints []int
	// Bools holds one_of booleans.
	Bools []bool
	// Text is String(), computed once at load.
	Text string
	// kind encodes Type and Op as one small number for fast evaluation;
	// zero means "not compiled" and falls back to the strings.
	kind uint8
}

const (
	kIntEq uint8 = iota + 1
	kIntOneOf
	kIntAtLeast
	kIntAtMost
	kBoolEq
	kBoolOneOf
	kEnumEq
	kEnumOneOf
	kListEq
	kListOneOf
	kListAtLeast
	kListAtMost
)

func kindOf(typ, op string) uint8 {
	base := map[string]uint8{TypeInt: kIntEq, TypeBool: kBoolEq, TypeEnum: kEnumEq, TypeList: kListEq}[typ]
	off := map[string]uint8{OpEquals: 0, OpOneOf: 1, OpAtLeast: 2, OpAtMost: 3}[op]
	if base == 0 || ((typ == TypeBool || typ == TypeEnum) && off > 1) {
		return 0
	}
	return base + off
}

// Holds reports whether the answer v satisfies c.
func (c *Cond) Holds(v Value) bool {
	k := c.kind
	if k == 0 {
		k = kindOf(c.Type, c.Op)
	}
	switch k {
	case kIntEq:
		return v.Int == c.Int
	case kIntOneOf:
		return slices.Contains(c.Ints, v.Int)
	case kIntAtLeast:
		return v.Int >= c.Int
	case kIntAtMost:
		return v.Int <= c.Int
	case kBoolEq:
		return v.Bool == c.Bool
	case kBoolOneOf:
		return slices.Contains(c.Bools, v.Bool)
	case kEnumEq:
		return v.Str == c.Str
	case kEnumOneOf:
		return slices.Contains(c.Strs, v.Str)
	case kListEq:
		return sameSet(v.List, c.Strs)
	case kListOneOf:
		for _, s := range v.List {
			if slices.Contains(c.Strs, s) {
				return true
			}
		}
		return false
	case kListAtLeast:
		return len(v.List) >= c.Int
	case kListAtMost:
		return len(v.List) <= c.Int
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// String renders the condition as a reader would say it: "nodes ≥ 2".
func (c *Cond) String() string {
	switch c.Op {
	case OpAtLeast:
		if c.Type == TypeList {
			return fmt.Sprintf("%s has ≥ %d", c.Key, c.Int)
		}
		return fmt.Sprintf("%s ≥ %d", c.Key, c.Int)
	case OpAtMost:
		if c.Type == TypeList {
			return fmt.Sprintf("%s has ≤ %d", c.Key, c.Int)
		}
		return fmt.Sprintf("%s ≤ %d", c.Key, c.Int)
	case OpOneOf:
		var parts []string
		switch c.Type {
		case TypeInt:
			for _, n := range c.Ints {
				parts = append(parts, fmt.Sprint(n))
			}
		case TypeBool:
			for _, b := range c.Bools {
				parts = append(parts, fmt.Sprint(b))
			}
		default:
			parts = c.Strs
		}
		if c.Type == TypeList {
			return fmt.Sprintf("%s has any of %s", c.Key, strings.Join(parts, "|"))
		}
		return fmt.Sprintf("%s ∈ %s", c.Key, strings.Join(parts, "|"))
	default:
		switch c.Type {
		case TypeInt:
			return fmt.Sprintf("%s = %d", c.Key, c.Int)
		case TypeBool:
			return fmt.Sprintf("%s = %t", c.Key, c.Bool)
		case TypeList:
			return fmt.Sprintf("%s = [%s]", c.Key, strings.Join(c.Strs, ","))
		}
		return fmt.Sprintf("%s = %s", c.Key, c.Str)
	}
}

// DescribeConds joins conditions for a table cell; "always" when there are none.
func DescribeConds(cs []Cond) string {
	if len(cs) == 0 {
		return "always"
	}
	parts := make([]string, len(cs))
	for i := range cs {
		parts[i] = cs[i].Text
		if parts[i] == "" {
			parts[i] = cs[i].String()
		}
	}
	return strings.Join(parts, ", ")
}
