package cli_test

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's generated rules table (review the diff)")

// The README's rules table is generated from the knowledge base; regenerate
// it with: go test ./ui/cli -run README -update
func TestREADMERulesTableMatchesTheKnowledgeBase(t *testing.T) {
	const begin, end = "<!-- rules:begin -->\n", "<!-- rules:end -->"
	path := "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatal("README lacks the rules markers")
	}
	_, table, _ := run(t, nil, "kb", "rules", "--format", "markdown")
	if readme[i+len(begin):j] == table {
		return
	}
	if *update {
		updated := readme[:i+len(begin)] + table + readme[j:]
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("README's rules table is out of date: run go test ./ui/cli -run README -update, then review the diff")
}
