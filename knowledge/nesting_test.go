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

// Every built-in file is well within the limit.
func TestTheBuiltInFilesAreWithinTheNestingLimit(t *testing.T) {
	for _, f := range Embedded() {
		if e := checkNesting(f.Name, f.Data); e != nil {
			t.Error(e)
		}
	}
}
