package check

import (
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The conversion rules, one by one, as kubeconform's openapi2jsonschema.py
// states them.
func TestStrictConversionFollowsKubeconform(t *testing.T) {
	raw := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"closed": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}},
			"open":   map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}, "x-kubernetes-preserve-unknown-fields": true},
			"free":   map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
			"port":   map[string]any{"x-kubernetes-int-or-string": true, "anyOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}},
			"maybe":  map[string]any{"type": "string", "nullable": true, "enum": []any{"a", "b"}},
			"list":   map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"properties": map[string]any{"type": "string"}}}},
		},
	}
	s := strict(raw).(map[string]any)
	props := s["properties"].(map[string]any)
	check := func(name, key string, want any) {
		t.Helper()
		if got := props[name].(map[string]any)[key]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s.%s = %v, want %v", name, key, got, want)
		}
	}
	if s["additionalProperties"] != false {
		t.Error("the root object is not closed")
	}
	check("closed", "additionalProperties", false)
	check("open", "additionalProperties", nil)
	check("free", "additionalProperties", nil)
	check("port", "type", []any{"integer", "string"})
	check("maybe", "type", []any{"string", "null"})
	check("maybe", "enum", []any{"a", "b", nil})
	item := props["list"].(map[string]any)["items"].(map[string]any)
	if item["additionalProperties"] != false {
		t.Error("a list item with properties is not closed")
	}
	// A property named "properties" is a property, not a keyword.
	if _, ok := item["properties"].(map[string]any)["properties"].(map[string]any)["additionalProperties"]; ok {
		t.Error("a string property named properties was treated as an object schema")
	}
	// raw itself is untouched.
	if _, ok := raw["additionalProperties"]; ok {
		t.Error("strict changed its input")
	}
}

func TestCompiledStrictSchemaRejectsAndAccepts(t *testing.T) {
	raw := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"port":    map[string]any{"x-kubernetes-int-or-string": true, "anyOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}},
			"maybe":   map[string]any{"type": "string", "nullable": true},
			"timeout": map[string]any{"type": "string", "format": "duration"},
			"n":       map[string]any{"type": "integer", "format": "int32"},
			"free":    map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
		},
	}
	sch, err := compileStrict(raw, "test")
	if err != nil {
		t.Fatal(err)
	}
	good := []string{`{"port": 8000}`, `{"port": "http"}`, `{"maybe": null}`, `{"timeout": "1m30s"}`, `{"n": 2147483647}`, `{"free": {"anything": [1]}}`}
	bad := map[string]string{
		`{"port": true}`:     "/port",
		`{"timeout": "P1D"}`: "duration", // ISO 8601 is not a Go duration
		`{"n": 2147483648}`:  "does not fit",
		`{"other": 1}`:       "'other'",
		`{"maybe": 3}`:       "/maybe",
		`{"n": 1.5}`:         "/n",
	}
	for _, g := range good {
		inst, _ := decodeJSON(g)
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
	for b, want := range bad {
		inst, _ := decodeJSON(b)
		err := sch.Validate(inst)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error naming %q, got %v", b, want, err)
		}
	}
}

func decodeJSON(s string) (any, error) {
	return jsonschema.UnmarshalJSON(strings.NewReader(s))
}
