package scenarios

import (
	"reflect"
	"strings"
	"testing"
)

// builtin_gen.go is the preset files decoded at build time. If this fails,
// a preset (or the file's shape) changed without regenerating it, or the
// file was edited by hand.
func TestTheGeneratedPresetsAreTheTOML(t *testing.T) {
	if builtin == nil {
		t.Fatal("builtin_gen.go is missing: run go generate ./scenarios")
	}
	got := builtin()
	entries, err := files.ReadDir("data")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(entries) {
		t.Fatalf("builtin_gen.go has %d presets, data/ has %d: run go generate ./scenarios", len(got), len(entries))
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".toml")
		data, _ := files.ReadFile("data/" + e.Name())
		want, err := decodeFile(e.Name(), data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[name], want) {
			t.Errorf("builtin_gen.go no longer matches data/%s: run go generate ./scenarios", e.Name())
		}
	}
}
