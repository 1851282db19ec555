package check

import (
	"strings"
	"testing"
)

func TestCELRulesRunWhereTheNodeIsWithDefaultsAndSkipTransitionRules(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"ref": map[string]any{
				"type": "object",
				"x-kubernetes-validations": []any{
					// group defaults to "": the rule needs the default to evaluate.
					map[string]any{"rule": "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true", "message": "a Service needs a port"},
					map[string]any{"rule": "self == oldSelf", "message": "immutable"},
					map[string]any{"rule": "self.kind != 'Bad'", "messageExpression": "'kind ' + self.kind + ' is bad'", "fieldPath": ".kind"},
				},
				"properties": map[string]any{
					"group": map[string]any{"type": "string", "default": ""},
					"kind":  map[string]any{"type": "string"},
					"port":  map[string]any{"type": "integer"},
				},
			},
			"items": map[string]any{
				"type":  "array",
				"items": map[string]any{"type": "object", "x-kubernetes-validations": []any{map[string]any{"rule": "self.n > 0"}}},
			},
		},
	}
	run := func(v map[string]any) []Problem { return celProblems(schema, celValue(v), nil) }
	if ps := run(map[string]any{}); len(ps) != 0 {
		t.Errorf("no ref, no items: the rules must not run, got %v", ps)
	}
	ps := run(map[string]any{"ref": map[string]any{"kind": "Service"}})
	if len(ps) != 1 || ps[0].Path != "/ref" || ps[0].Message != "a Service needs a port" {
		t.Errorf("want the port rule at /ref (group defaulted, oldSelf rule skipped), got %v", ps)
	}
	ps = run(map[string]any{"ref": map[string]any{"kind": "Bad", "port": 1.0}})
	if len(ps) != 1 || ps[0].Path != "/ref/kind" || ps[0].Message != "kind Bad is bad" {
		t.Errorf("want the messageExpression at the fieldPath, got %v", ps)
	}
	ps = run(map[string]any{"items": []any{map[string]any{"n": 1.0}, map[string]any{"n": 0.0}}})
	if len(ps) != 1 || ps[0].Path != "/items/1" || !strings.Contains(ps[0].Message, "failed rule: self.n > 0") {
		t.Errorf("want the item rule at /items/1 in the rule's words, got %v", ps)
	}
	// A rule that cannot be evaluated is a problem, never a silent pass.
	ps = run(map[string]any{"items": []any{map[string]any{}}})
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "could not be evaluated") {
		t.Errorf("want an evaluation problem, got %v", ps)
	}
}
