package knowledge

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// question is an overlay question modelled on a built-in one.
func question(key, typ, values, def string) string {
	s := "[[question]]\nkey = \"" + key + "\"\npage = \"Workload\"\ntype = \"" + typ + "\"\n"
	if values != "" {
		s += "values = " + values + "\n"
	}
	return s + "default = " + def + "\nprompt = \"p\"\nwhy = \"w\"\n"
}

func TestAnOverlayCannotOfferAValueGoDoesNotUnderstand(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"a new latency_priority is sized by nobody",
			question("latency_priority", "enum", `["latency", "balanced", "throughput", "interactive"]`, `"balanced"`),
			`q.toml:5: question "latency_priority" values: "interactive" is not a value stackpick's sizing understands (it understands: latency, balanced, throughput); remove "interactive" from values: a new value needs Go code that knows what to do with it`},
		{"a new fine-tune method has no launch command",
			question("fine_tune_method", "enum", `["none", "lora", "full", "qlora"]`, `"none"`),
			`q.toml:5: question "fine_tune_method" values: "qlora" is not a value stackpick's launch command understands (it understands: none, lora, full); remove "qlora" from values: a new value needs Go code that knows what to do with it`},
		{"a KV dtype the sizing cannot size",
			question("kv_cache_dtype", "enum", `["auto", "fp8_e4m3", "int8"]`, `"auto"`),
			`q.toml:5: question "kv_cache_dtype" values: "int8" is not a value stackpick's sizing understands (it understands: auto, fp8, fp8_e4m3, fp8_e5m2); remove "int8" from values: a new value needs Go code that knows what to do with it`},
		{"a value Go tests for by name cannot be dropped",
			question("fine_tune_method", "enum", `["none", "full"]`, `"none"`),
			`q.toml:5: question "fine_tune_method" values: stackpick's launch command needs the value "lora" (adapters on one copy of the base weights: --enable-lora and --max-loras) (allowed: none, full); add "lora" to values`},
		{"an open enum keeps the value Go names",
			question("kubernetes", "enum", `["available", "required"]`, `"available"`),
			`q.toml:5: question "kubernetes" values: stackpick's scenario generator and the substrate check needs the value "none"`},
		{"a question Go reads keeps its type",
			question("latency_priority", "bool", "", "false"),
			`q.toml:4: question "latency_priority" type: stackpick's sizing reads latency_priority as one word of a fixed set, so its type must stay enum (allowed: enum); restore type = "enum"`},
		{"a catalog question keeps its catalog",
			"[[question]]\nkey = \"model\"\npage = \"Models\"\ntype = \"enum\"\nvalues = [\"mine\"]\ndefault = \"mine\"\nprompt = \"p\"\nwhy = \"w\"\n",
			`q.toml:1: question "model" catalog: stackpick's sizing looks model up in the model catalog (allowed: model); restore catalog = "model" (and no values)`},
		{"a number Go multiplies stays a number",
			question("nodes", "enum", `["one", "many"]`, `"one"`),
			`q.toml:4: question "nodes" type: stackpick's sizing reads nodes as a whole number, so its type must stay int (allowed: int); restore type = "int"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := overlayErrors(t, "q.toml", c.src)
			if !strings.Contains(got, c.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", got, c.want)
			}
		})
	}
}

func TestAnOverlayMayDropAValueGoOnlyUnderstands(t *testing.T) {
	// bf16 weights are understood (sized at 2 bytes, no flag) but no Go code
	// tests for them, so a knowledge base need not offer them.
	src := question("weights_dtype", "enum", `["auto", "fp8", "int4"]`, `"auto"`)
	if _, err := Build(Embedded(), []SourceFile{{Name: "q.toml", Data: []byte(src)}}); err != nil {
		t.Fatal(err)
	}
}

func TestAnOverlayCannotMoveAnIDGoNames(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"vllm off the engine layer",
			"[[product]]\nid = \"vllm\"\nname = \"vLLM\"\nlayer = \"orchestrator\"\nrole = \"r\"\n[[product.source]]\nkind = \"docs\"\nurl = \"https://example.org/v1/p\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n",
			`p.toml:4: product "vllm" layer: stackpick's sizing names vllm as a product of the engine layer (allowed: engine); restore layer = "engine"`},
		{"a vLLM flag given to SGLang",
			"[[flag]]\nid = \"vllm-enable-lora\"\nengine = \"sglang\"\nname = \"--enable-lora\"\neffect = \"e\"\nstatus = \"current\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			`p.toml:3: flag "vllm-enable-lora" engine: stackpick's vllm launch command names this flag as one of vllm's (allowed: vllm); restore engine = "vllm"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := overlayErrors(t, "p.toml", c.src)
			if !strings.Contains(got, c.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", got, c.want)
			}
		})
	}
}

// An overlay cannot delete, so a missing id means the built-in files lost it.
func TestABuiltInKnowledgeBaseWithoutAnIDGoNamesFails(t *testing.T) {
	var base []SourceFile
	for _, f := range Embedded() {
		if strings.HasSuffix(f.Name, "gpus.toml") {
			i := bytes.Index(f.Data, []byte("[[gpu]]\nid = \"cpu\""))
			if i < 0 {
				t.Fatal("no cpu entry in gpus.toml")
			}
			f.Data = f.Data[:i]
		}
		base = append(base, f)
	}
	_, err := Build(base, nil)
	want := `knowledge: gpu "cpu": stackpick's scenario generator (a fleet without accelerators, gpus_per_node = 0) names it, and it is not defined; restore the built-in definition`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant it to contain %s", err, want)
	}
}

func TestEveryDeclarationMatchesTheBuiltInKnowledgeBase(t *testing.T) {
	kb := MustDefault()
	seen := map[string]bool{}
	for _, u := range Understood {
		if seen[u.Key] {
			t.Errorf("%s is declared twice", u.Key)
		}
		seen[u.Key] = true
		q := kb.Question(u.Key)
		if q == nil || q.Type != u.Type || q.Derived {
			t.Errorf("%s: declared %s, built in as %+v", u.Key, u.Type, q)
			continue
		}
		if u.Closed && len(u.Values) == 0 {
			t.Errorf("%s is closed but declares no values", u.Key)
		}
		for _, m := range u.Values {
			if m.Does == "" {
				t.Errorf("%s %q: say what Go does with it", u.Key, m.Value)
			}
		}
	}
	for k := range derivedKeys {
		if seen[k] {
			t.Errorf("%s is derived: declare it in derivedKeys only", k)
		}
	}
	for _, f := range UnderstoodFlags {
		if !strings.HasPrefix(f.ID, f.Engine+"-") {
			t.Errorf("flag %s is declared for %s", f.ID, f.Engine)
		}
		if !slices.Contains(engines, f.Engine) {
			t.Errorf("flag %s: engine %s is not one flags may name", f.ID, f.Engine)
		}
	}
	for _, p := range UnderstoodProducts {
		if !slices.Contains(engines, p.ID) {
			t.Errorf("product %s: stackpick writes launch commands for %v only", p.ID, engines)
		}
	}
}

// Go code outside knowledge's declarations names no answer key, product,
// GPU or flag by a literal: it uses the constants above, which the load
// check guards. This scans the packages below the ui (decide, scenarios and
// knowledge itself) for lookups and comparisons with such a literal.
func TestGoCodeNamesKnowledgeOnlyThroughDeclaredConstants(t *testing.T) {
	kb := MustDefault()
	named := map[string]string{}
	for _, q := range kb.Questions {
		named[q.Key] = "question key"
	}
	for _, p := range kb.Products {
		named[p.ID] = "product id"
	}
	for _, g := range kb.GPUs {
		named[g.ID] = "gpu id"
	}
	for _, f := range kb.Flags {
		named[f.ID] = "flag id"
	}
	lookups := map[string]bool{"Get": true, "QuestionIndex": true, "Question": true, "Product": true, "ProductName": true, "GPU": true, "Model": true, "Flag": true, "FlagsOf": true, "emit": true, "keep": true, "on": true, "span": true}
	fset := token.NewFileSet()
	var found []string
	for _, dir := range []string{"../decide", "../decide/sizing", "../scenarios", "../scenarios/drill", "."} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "understood.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			check := func(e ast.Expr) {
				lit, ok := e.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return
				}
				s, _ := strconv.Unquote(lit.Value)
				if what, ok := named[s]; ok {
					found = append(found, fmt.Sprintf("%s: %s %q by its literal", fset.Position(lit.Pos()), what, s))
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					name := ""
					switch fn := n.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						name = fn.Sel.Name
					}
					if lookups[name] {
						for _, a := range n.Args {
							check(a)
						}
					}
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						check(n.X)
						check(n.Y)
					}
				case *ast.CaseClause:
					for _, e := range n.List {
						check(e)
					}
				}
				return true
			})
		}
	}
	for _, f := range found {
		t.Error(f + ": use the constant from understood.go (and declare it there if it is new)")
	}
}
