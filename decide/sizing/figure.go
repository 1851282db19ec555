package sizing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// GiB is 2^30 bytes, the unit vLLM logs memory in.
const GiB = 1 << 30

// Figure is one computed number with its formula, numbers filled in, and the
// source of any constant it uses.
type Figure struct {
	Key     string  `json:"key"`
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Unit    string  `json:"unit"`
	Formula string  `json:"formula"`
	Source  string  `json:"source,omitempty"`
}

// Text renders the value with its unit: "35.2 GiB", "163,840 B".
func (f Figure) Text() string {
	return FormatValue(f.Value, f.Unit)
}

// FormatValue renders a number for people: thousands separators for large
// whole numbers, two decimals for GiB, a unit after a space.
func FormatValue(v float64, unit string) string {
	var s string
	switch {
	case math.IsInf(v, 0) || math.IsNaN(v):
		s = "n/a"
	case unit == "GiB" || unit == "x" || (unit == "" && v != math.Trunc(v)):
		s = strconv.FormatFloat(v, 'f', 2, 64)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		s = Thousands(int64(v))
	case math.Abs(v) >= 100:
		s = Thousands(int64(math.Round(v)))
	default:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	}
	if unit == "" {
		return s
	}
	if unit == "x" {
		return s + "×"
	}
	return s + " " + unit
}

// Thousands writes n with comma separators: 8,192.
func Thousands(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// g formats GiB with two decimals, for formulas.
func g(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// n formats a whole number with separators, for formulas.
func n[T ~int | ~int64](v T) string { return Thousands(int64(v)) }

func f(format string, args ...any) string { return fmt.Sprintf(format, args...) }
