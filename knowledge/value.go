package knowledge

import (
	"slices"
	"strconv"
	"strings"
)

// Value is one typed answer. Which field is meaningful depends on the
// question's type: Int for int, Bool for bool, Str for enum, List for list.
type Value struct {
	Int  int
	Bool bool
	Str  string
	List []string
}

func (v Value) clone() Value {
	if v.List != nil {
		v.List = slices.Clone(v.List)
	}
	return v
}

// Format renders v the way a user would type it in an answers file.
func (v Value) Format(typ string) string {
	switch typ {
	case TypeInt:
		return strconv.Itoa(v.Int)
	case TypeBool:
		return strconv.FormatBool(v.Bool)
	case TypeList:
		quoted := make([]string, len(v.List))
		for i, s := range v.List {
			quoted[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(quoted, ", ") + "]"
	default:
		return strconv.Quote(v.Str)
	}
}

// Plain renders v without quotes, for prose and tables.
func (v Value) Plain(typ string) string {
	switch typ {
	case TypeEnum:
		return v.Str
	case TypeList:
		if len(v.List) == 0 {
			return "(none)"
		}
		return strings.Join(v.List, ", ")
	default:
		return v.Format(typ)
	}
}

// Equal reports whether two values of the same type are the same answer.
func (v Value) Equal(o Value, typ string) bool {
	switch typ {
	case TypeInt:
		return v.Int == o.Int
	case TypeBool:
		return v.Bool == o.Bool
	case TypeList:
		return slices.Equal(v.List, o.List)
	default:
		return v.Str == o.Str
	}
}

// JSON returns v as a plain Go value for encoding/json.
func (v Value) JSON(typ string) any {
	switch typ {
	case TypeInt:
		return v.Int
	case TypeBool:
		return v.Bool
	case TypeList:
		if v.List == nil {
			return []string{}
		}
		return v.List
	default:
		return v.Str
	}
}
