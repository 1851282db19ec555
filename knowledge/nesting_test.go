package knowledge

import (
	"strings"
	"testing"
)

// The nesting check counts only the brackets TOML reads as tables and
// lists: brackets in strings, literal strings, multi-line strings and
// comments do not count, and what the schema can use fully inline loads.
func TestNestingCountsOnlyRealTablesAndLists(t *testing.T) {
	many := strings.Repeat("[{", 40)
	ok := map[string]string{
		"basic string":            `reason = "` + many + `"`,
		"escaped quote":           `reason = "say \"` + many + `\" twice"`,
		"literal string":          `reason = '` + many + `'`,
		"multi-line string":       "reason = \"\"\"\nline \\\"\"\" still in\n" + many + "\n\"\"\"\nx = 1",
		"multi-line literal":      "reason = '''\n" + many + "\n'''",
		"comment":                 "# " + many + "\nx = 1",
		"quoted key":              `"` + many + `" = 1`,
		"16 deep":                 "a = " + strings.Repeat("[", 16) + "1" + strings.Repeat("]", 16),
		"the schema fully inline": `product = [{ id = "p", landmine = [{ id = "m", when = { nodes = { one_of = ["x"] } }, source = [{ kind = "notes" }] }] }]`,
		"dates and decimals":      "a = 2026-12-01T10:00:00.123Z\nb = 1.5\nc = [1.5, 2.5, { d = 3.5 }]",
		"headers":                 "[[product]]\nid = \"p\"\n[[product.landmine]]\nid = \"m\"\n[product.landmine.when]\nnodes = { at_least = 2 }",
	}
	for name, src := range ok {
		if e := checkNesting("x.toml", []byte(src)); e != nil {
			t.Errorf("%s: refused: %v", name, e)
		}
	}
	bad := map[string]struct {
		src  string
		line int
	}{
		"17 deep lists":      {"x = 1\na = " + strings.Repeat("[", 17) + "1" + strings.Repeat("]", 17), 2},
		"10,000 deep tables": {"a = " + strings.Repeat("{a=", 10000) + "1" + strings.Repeat("}", 10000), 1},
		"a dotted key":       {"\n\n" + strings.Repeat("a.", 20) + "b = 1", 3},
		"a header":           {"[" + strings.Repeat("a.", 20) + "b]\nx = 1", 1},
		"after a string":     {"s = \"\"\"\n]]]]\n\"\"\"\n" + "a = " + strings.Repeat("{a=", 17) + "1" + strings.Repeat("}", 17), 4},
	}
	for name, tc := range bad {
		e := checkNesting("x.toml", []byte(tc.src))
		if e == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if e.Line != tc.line || !strings.Contains(e.Error(), "nested more than 16 deep") {
			t.Errorf("%s: got %v, want line %d", name, e, tc.line)
		}
	}
}

// Lists, inline tables, dotted keys and headers have the same limit: 16
// of any load, 17 are refused (16 lists loaded but 16 inline tables did
// not). The dots of a number are not key parts.
func TestTheNestingLimitIsTheSameForListsAndTables(t *testing.T) {
	lists := func(n int, v string) string { return "a = " + strings.Repeat("[", n) + v + strings.Repeat("]", n) }
	tables := func(n int) string { return "a = " + strings.Repeat("{b = ", n) + "1" + strings.Repeat("}", n) }
	dotted := func(n int) string { return strings.Repeat("k.", n-1) + "k = 1" }
	header := func(n int) string { return "[" + strings.Repeat("k.", n-1) + "k]\nx = 1" }
	arrayHeader := func(n int) string { return "[[" + strings.Repeat("k.", n-1) + "k]]\nx = 1" }
	for _, tc := range []struct {
		name   string
		at     string
		over   string
		header bool
	}{
		{"lists", lists(16, "1"), lists(17, "1"), false},
		{"lists of decimals", lists(16, "1.5, 2.5"), lists(17, "1.5"), false},
		{"inline tables", tables(16), tables(17), false},
		{"dotted keys", dotted(16), dotted(17), false},
		{"a header", header(16), header(17), true},
		{"an array-of-tables header", arrayHeader(16), arrayHeader(17), true},
	} {
		if e := checkNesting("x.toml", []byte(tc.at)); e != nil {
			t.Errorf("%s at the limit: refused: %v", tc.name, e)
		}
		e := checkNesting("x.toml", []byte(tc.over))
		if e == nil {
			t.Errorf("%s one over the limit: accepted", tc.name)
			continue
		}
		if strings.Contains(e.Error(), "[headers]") == tc.header {
			t.Errorf("%s: %v: the advice to use [headers] is for inline nesting only", tc.name, e)
		}
	}
}

// Every built-in file is well within the limit.
func TestTheBuiltInFilesAreWithinTheNestingLimit(t *testing.T) {
	for _, f := range Embedded() {
		if e := checkNesting(f.Name, f.Data); e != nil {
			t.Error(e)
		}
	}
}
