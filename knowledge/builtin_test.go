package knowledge

import (
	"fmt"
	"reflect"
	"testing"
)

// builtin_gen.go is the embedded TOML decoded and validated at build time.
// If this fails, the TOML (or the KB's types, or validation) changed
// without regenerating it, or the file was edited by hand.
func TestTheGeneratedKnowledgeBaseIsTheTOML(t *testing.T) {
	if builtin == nil {
		t.Fatal("builtin_gen.go is missing: run go generate ./knowledge")
	}
	want, err := Build(Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := builtin()
	if path := firstDifference("kb", reflect.ValueOf(got), reflect.ValueOf(want)); path != "" {
		t.Fatalf("builtin_gen.go no longer matches knowledge/data/*.toml (first difference at %s): run go generate ./knowledge", path)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("builtin_gen.go no longer matches knowledge/data/*.toml: run go generate ./knowledge")
	}
}

func TestLoadWithoutOverlayIsTheGeneratedKnowledgeBase(t *testing.T) {
	kb, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	// Each load is a fresh KB: a caller may change it without touching the next.
	kb.Products[0].Name = "changed"
	again, _ := Load("")
	if again.Products[0].Name == "changed" {
		t.Fatal("Load shares its items between calls")
	}
	if again.Product(again.Products[0].ID) != again.Products[0] {
		t.Fatal("the index by id holds copies, not the KB's own products")
	}
}

// firstDifference names the first place where a and b differ, for a
// message a person can act on; "" when they are deeply equal.
func firstDifference(path string, a, b reflect.Value) string {
	if a.IsValid() != b.IsValid() {
		return path
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return path + " (type)"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path
			}
			return ""
		}
		return firstDifference(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if d := firstDifference(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return path + " (nil or empty)"
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s (length %d, want %d)", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := firstDifference(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return path
		}
		for _, k := range a.MapKeys() {
			if d := firstDifference(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func:
		return ""
	}
	if !a.Equal(b) {
		return path
	}
	return ""
}

func BenchmarkLoadBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := Load(""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadDecodingTheTOML(b *testing.B) {
	for b.Loop() {
		if _, err := Build(Embedded(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
