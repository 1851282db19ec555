package knowledge

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Memo is what an answers file's [memo] table says about the decision
// record written from it: who decides, when, in what state, and the
// problem in the user's own words. It is no answer: no rule reads it, and
// it never changes a decision. An empty field is unset (the memo shows its
// default or a placeholder).
type Memo struct {
	Title    string
	Status   string // one of MemoStatuses
	Deciders []string
	Date     string // YYYY-MM-DD
	Problem  string
}

// MemoStatuses are the statuses of a decision record (MADR's values).
var MemoStatuses = []string{"proposed", "accepted", "rejected", "deprecated", "superseded"}

// memoKeys are the keys of the [memo] table, in the order files write them.
var memoKeys = []string{"title", "status", "deciders", "date", "problem"}

// IsZero reports whether no field is set.
func (m Memo) IsZero() bool {
	return m.Title == "" && m.Status == "" && len(m.Deciders) == 0 && m.Date == "" && m.Problem == ""
}

// Over returns m with every field it leaves unset taken from base: flags
// over the answers file, the file over the app's defaults.
func (m Memo) Over(base Memo) Memo {
	out := base.clone()
	if m.Title != "" {
		out.Title = m.Title
	}
	if m.Status != "" {
		out.Status = m.Status
	}
	if len(m.Deciders) > 0 {
		out.Deciders = slices.Clone(m.Deciders)
	}
	if m.Date != "" {
		out.Date = m.Date
	}
	if m.Problem != "" {
		out.Problem = m.Problem
	}
	return out
}

func (m Memo) clone() Memo {
	m.Deciders = slices.Clone(m.Deciders)
	return m
}

// CheckMemoStatus says why s is not a decision record's status, or nil.
// where names the input (a file, a flag) for the error.
func CheckMemoStatus(where, s string) *Error {
	if slices.Contains(MemoStatuses, s) {
		return nil
	}
	return &Error{File: where, Key: "status", Problem: fmt.Sprintf("%q is not a decision record's status", s),
		Allowed: strings.Join(MemoStatuses, ", "), Hint: didYouMean(s, MemoStatuses)}
}

// CheckMemoDate says why s is not a calendar date written YYYY-MM-DD, or nil.
func CheckMemoDate(where, s string) *Error {
	if _, err := time.Parse(time.DateOnly, s); err == nil {
		return nil
	}
	e := &Error{File: where, Key: "date", Problem: fmt.Sprintf("%q is not a date", s), Allowed: "a date written YYYY-MM-DD, such as 2026-12-01"}
	for _, layout := range []string{"2006/01/02", "02.01.2006", "2006-1-2", "2006.01.02", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			e.Hint = "write " + t.Format(time.DateOnly)
			break
		}
	}
	return e
}

// SplitDeciders reads a comma-separated list of names (a flag's value)
// into the names, trimmed, without empty ones.
func SplitDeciders(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseMemo validates a decoded [memo] table. line finds a key's line in
// the table (0 when unknown).
func parseMemo(file string, raw map[string]any, line func(string) int) (Memo, Errors) {
	var m Memo
	var errs Errors
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		fail := func(problem, allowed, hint string) {
			errs = append(errs, &Error{File: file, Line: line(k), Key: "memo." + k, Problem: problem, Allowed: allowed, Hint: hint})
		}
		text := func() (string, bool) {
			s, ok := raw[k].(string)
			if !ok {
				fail(fmt.Sprintf("expected text in quotes, got %s", tomlKind(raw[k])), "", fmt.Sprintf(`write %s = "…"`, k))
				return "", false
			}
			s = strings.TrimSpace(s)
			if s == "" {
				fail("is empty", "", "remove the key to use the default, or write its text")
				return "", false
			}
			return s, true
		}
		switch k {
		case "title":
			if s, ok := text(); ok {
				m.Title = s
			}
		case "problem":
			if s, ok := text(); ok {
				m.Problem = s
			}
		case "status":
			if s, ok := text(); ok {
				if e := CheckMemoStatus(file, s); e != nil {
					fail(e.Problem, e.Allowed, e.Hint)
					continue
				}
				m.Status = s
			}
		case "date":
			switch x := raw[k].(type) {
			case time.Time:
				// A bare TOML date (date = 2026-12-01); a date-time is
				// more than a memo's date says.
				if x.Hour() != 0 || x.Minute() != 0 || x.Second() != 0 || x.Nanosecond() != 0 {
					fail("is a date and time", "a date written YYYY-MM-DD", "write date = "+x.Format(time.DateOnly))
					continue
				}
				m.Date = x.Format(time.DateOnly)
			case string:
				if e := CheckMemoDate(file, x); e != nil {
					fail(e.Problem, e.Allowed, e.Hint)
					continue
				}
				m.Date = x
			default:
				fail(fmt.Sprintf("expected a date, got %s", tomlKind(raw[k])), "a date written YYYY-MM-DD", "write date = 2026-12-01")
			}
		case "deciders":
			items, ok := raw[k].([]any)
			if !ok {
				hint := `write deciders = ["Name", "Other name"]`
				if s, isStr := raw[k].(string); isStr {
					hint = "write deciders = [" + tomlQuoteList(SplitDeciders(s)) + "]"
				}
				fail(fmt.Sprintf("expected a list of names, got %s", tomlKind(raw[k])), "a list of names in quotes", hint)
				continue
			}
			var names []string
			for _, it := range items {
				s, isStr := it.(string)
				if !isStr || strings.TrimSpace(s) == "" {
					fail(fmt.Sprintf("list items must be names in quotes, got %s", tomlKind(it)), "a list of names in quotes", "")
					names = nil
					break
				}
				names = append(names, strings.TrimSpace(s))
			}
			m.Deciders = names
		default:
			fail("unknown memo key", strings.Join(memoKeys, ", "), didYouMean(k, memoKeys))
		}
	}
	return m, errs
}

// toml writes the [memo] table, set fields only.
func (m Memo) toml() string {
	if m.IsZero() {
		return ""
	}
	var b strings.Builder
	b.WriteString("[memo]  # the decision record's title, status (" + strings.Join(MemoStatuses, ", ") + "), deciders, date and problem\n")
	if m.Title != "" {
		fmt.Fprintf(&b, "title = %s\n", tomlQuote(m.Title))
	}
	if m.Status != "" {
		fmt.Fprintf(&b, "status = %s\n", tomlQuote(m.Status))
	}
	if len(m.Deciders) > 0 {
		fmt.Fprintf(&b, "deciders = [%s]\n", tomlQuoteList(m.Deciders))
	}
	if m.Date != "" {
		fmt.Fprintf(&b, "date = %s\n", m.Date)
	}
	if m.Problem != "" {
		fmt.Fprintf(&b, "problem = %s\n", tomlQuote(m.Problem))
	}
	return b.String()
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u` + fmt.Sprintf("%04X", r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlQuoteList(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = tomlQuote(s)
	}
	return strings.Join(parts, ", ")
}
