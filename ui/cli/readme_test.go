package cli_test

import (
	"os"
	"strings"
	"testing"
)

// The README's rules table is generated from the knowledge base; regenerate
// it with: UPDATE_README=1 go test ./ui/cli -run README
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
	if os.Getenv("UPDATE_README") == "1" {
		updated := readme[:i+len(begin)] + table + readme[j:]
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("README's rules table is out of date: run UPDATE_README=1 go test ./ui/cli -run README")
}
