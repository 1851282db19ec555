package scenarios_test

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

func TestEveryPresetParsesWithTitleAndStory(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 8 || all[0].Name != "exit-test" {
		t.Fatalf("want exit-test first and one preset per decision-tree line, got %d", len(all))
	}
	for _, s := range all {
		if s.Title == "" || s.Story == "" || s.Line == "" {
			t.Errorf("%s lacks a title, story or decision-tree line", s.Name)
		}
	}
}

func TestUnknownScenarioSuggestsTheNearest(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	_, err := scenarios.Find(all, "k8s-flet")
	if err == nil || !strings.Contains(err.Error(), `did you mean "k8s-fleet"?`) {
		t.Fatalf("err = %v", err)
	}
}

func TestAScenarioWithABadAnswerNamesItsLine(t *testing.T) {
	kb := knowledge.MustDefault()
	_, err := scenarios.Parse(kb, "s.toml", "s", []byte("title = \"t\"\nstory = \"s\"\n\n[answers]\nnodes = 2\ngpu = \"h1OO\"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "s.toml:6: gpu:") {
		t.Fatalf("err = %v", err)
	}
}
