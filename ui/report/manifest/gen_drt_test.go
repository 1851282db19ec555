package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// drtKB is the built-in knowledge base.
func drtKB(t testing.TB) *knowledge.KB {
	t.Helper()
	return knowledge.MustDefault()
}

// drtCase is one answer set of this helper's shapes: a preset, or a preset
// with answers changed.
type drtCase struct {
	name, scenario string
	change         func(a *knowledge.Answers)
}

var drtCases = []drtCase{
	{name: "nvidia-fleet", scenario: "nvidia-fleet"},
	{name: "request-pipeline", scenario: "request-pipeline"},
	{name: "mixed-models", scenario: "mixed-models"},
	// Ray without Kubernetes: the Serve config file alone.
	{name: "request-pipeline-no-kubernetes", scenario: "request-pipeline", change: func(a *knowledge.Answers) { _ = a.Set("kubernetes", "none") }},
	// Dynamo aggregated, without KV-aware routing.
	{name: "nvidia-fleet-aggregated", scenario: "nvidia-fleet", change: func(a *knowledge.Answers) {
		_ = a.Set("disaggregation", false)
		_ = a.Set("cache_aware_routing", false)
	}},
}

func drtGenerate(t *testing.T, kb *knowledge.KB, c drtCase) (*decide.Decision, *Set) {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Find(all, c.scenario)
	if err != nil {
		t.Fatal(err)
	}
	a := sc.Answers.Clone()
	if c.change != nil {
		c.change(&a)
	}
	d := decide.Decide(kb, a)
	s, err := Generate(Request{KB: kb, Decision: &d, Origin: "scenario " + c.name, Version: "test", Command: "stackpick manifest --scenario " + c.scenario + " --out deploy"})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return &d, s
}

// drtFiles generates every case and calls f with each file, the decision
// and the set.
func drtEach(t *testing.T, f func(t *testing.T, c drtCase, d *decide.Decision, s *Set)) {
	kb := drtKB(t)
	for _, c := range drtCases {
		t.Run(c.name, func(t *testing.T) {
			d, s := drtGenerate(t, kb, c)
			f(t, c, d, s)
		})
	}
}

func TestDRTGoldens(t *testing.T) {
	drtEach(t, func(t *testing.T, c drtCase, d *decide.Decision, s *Set) {
		files := map[string][]byte{IndexPath: s.Index("scenario "+c.name, "test")}
		for _, f := range s.Files {
			files[f.Path] = f.Body
		}
		dir := filepath.Join("testdata", c.name)
		if *update {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}
		for path, body := range files {
			golden := filepath.Join(dir, filepath.FromSlash(path))
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, body, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestDRTGoldens -update)", err)
			}
			if !bytes.Equal(body, want) {
				t.Errorf("%s differs from its golden %s (run with -update and review the diff)", path, golden)
			}
		}
	})
}

// launchFlags is the launch command for role after the program's words
// and the model: the flags and their values, in order.
func launchFlags(d *decide.Decision, role string) (model string, flags []string) {
	cmd, model := d.EngineConfig.Program()
	argv := d.EngineConfig.Argv(role)
	flags = argv[len(strings.Fields(cmd)):]
	if model != "" {
		flags = flags[1:]
	}
	return model, flags
}

// dynamoOwnFlags are the flags Dynamo's worker takes that are not the
// launch command's: what the writer may add after the launch flags.
var dynamoOwnFlags = map[string]bool{"--disaggregation-mode": true, "--kv-events-config": true}

// checkDynamoArgs says what is wrong with a Dynamo worker's container
// list: it must be Dynamo's program, vLLM's --model, the launch flags in
// order, then only Dynamo's own flags.
func checkDynamoArgs(got []string, model string, flags []string, role string) error {
	want := append(append(slices.Clone(DynamoWorkerProgram), "--model", model), flags...)
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		return fmt.Errorf("the container's list does not start with the launch command's flags in order:\n got %q\nwant %q", got, want)
	}
	rest := got[len(want):]
	for i := 0; i < len(rest); i += 2 {
		if !dynamoOwnFlags[rest[i]] || i+1 >= len(rest) {
			return fmt.Errorf("after the launch flags, %q is not one of Dynamo's own flags with its value", rest[i:])
		}
	}
	if role != "" && !slices.Contains(rest, "--disaggregation-mode") {
		return fmt.Errorf("a %s worker without --disaggregation-mode %s", role, role)
	}
	return nil
}

// checkFlagList says what is wrong with a file's flag list that must be
// the launch command's flags exactly (Ray's engine_kwargs, model.json).
func checkFlagList(got, flags []string) error {
	if !slices.Equal(got, flags) {
		return fmt.Errorf("the file's flags are not the launch command's one for one:\n got %q\nwant %q", got, flags)
	}
	return nil
}

// kwargValue is a flag's value as the JSON or YAML keyword holds it,
// decoded: what a launch flag's value must equal.
func kwargValue(flag, value string) (string, any) {
	name := strings.TrimPrefix(flag, "--")
	if value == "" {
		if n, ok := strings.CutPrefix(name, "no-"); ok {
			return strings.ReplaceAll(n, "-", "_"), false
		}
		return strings.ReplaceAll(name, "-", "_"), true
	}
	var v any
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		v = value
	}
	return strings.ReplaceAll(name, "-", "_"), v
}

// checkKwargs says what is wrong with keyword arguments (in order, decoded)
// that must be the model and the launch flags one for one.
func checkKwargs(keys []string, vals map[string]any, model string, flags []string, withModel bool) error {
	var wantKeys []string
	want := map[string]any{}
	if withModel {
		wantKeys = append(wantKeys, "model")
		want["model"] = model
	}
	for i := 0; i < len(flags); i++ {
		v := ""
		if i+1 < len(flags) && !strings.HasPrefix(flags[i+1], "--") {
			v = flags[i+1]
		}
		k, val := kwargValue(flags[i], v)
		if v != "" {
			i++
		}
		wantKeys = append(wantKeys, k)
		want[k] = val
	}
	if !slices.Equal(keys, wantKeys) {
		return fmt.Errorf("keys %q, want the launch command's %q", keys, wantKeys)
	}
	for _, k := range keys {
		g, _ := json.Marshal(vals[k])
		w, _ := json.Marshal(want[k])
		if !bytes.Equal(g, w) {
			return fmt.Errorf("%s = %s, want the launch command's %s", k, g, w)
		}
	}
	return nil
}

// jsonObject decodes a JSON object keeping its keys' order.
func jsonObject(body []byte) ([]string, map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object: %v", err)
	}
	var keys []string
	vals := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[k]; dup {
			return nil, nil, fmt.Errorf("key %q twice", k)
		}
		keys = append(keys, k)
		vals[k] = v
	}
	return keys, vals, nil
}

func TestDRTContainerArgsAreTheLaunchCommand(t *testing.T) {
	drtEach(t, func(t *testing.T, c drtCase, d *decide.Decision, s *Set) {
		checked := 0
		for _, f := range s.Files {
			switch {
			case f.Path == "dynamo.yaml":
				roles := []string{""}
				if len(d.EngineConfig.Roles) > 0 {
					roles = nil
					for _, r := range d.EngineConfig.Roles {
						roles = append(roles, r.Role)
					}
				}
				if len(f.Args) != len(roles) {
					t.Errorf("%s: args for %d roles, want %d", f.Path, len(f.Args), len(roles))
				}
				for _, role := range roles {
					model, flags := launchFlags(d, role)
					if err := checkDynamoArgs(f.Args[role], model, flags, role); err != nil {
						t.Errorf("%s role %q: %v", f.Path, role, err)
					}
				}
				checked++
			case f.Path == "rayservice.yaml", f.Path == "serve-config.yaml":
				// --served-model-name is model_id there (Ray refuses it in
				// engine_kwargs): the rest one for one.
				_, flags := launchFlags(d, "")
				for i, fl := range flags {
					if fl == "--served-model-name" && i+1 < len(flags) {
						if f.Moved[fl] == "" || !strings.Contains(string(f.Body), "model_id: "+flags[i+1]) {
							t.Errorf("%s: --served-model-name %s is neither an argument nor model_id", f.Path, flags[i+1])
						}
					}
				}
				if err := checkFlagList(f.Args[""], withoutMoved(flags, f.Moved)); err != nil {
					t.Errorf("%s: %v", f.Path, err)
				}
				checked++
			case strings.HasSuffix(f.Path, "/"+TritonModelJSON):
				model, flags := launchFlags(d, "")
				if err := checkFlagList(f.Args[""], flags); err != nil {
					t.Errorf("%s: %v", f.Path, err)
				}
				keys, vals, err := jsonObject(f.Body)
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				if err := checkKwargs(keys, vals, model, flags, true); err != nil {
					t.Errorf("%s: %v", f.Path, err)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("no file of %s carries the launch command", c.name)
		}
	})
}

// The comparisons above catch a file that is not the launch command.
func TestDRTArgsChecksRejectBadLists(t *testing.T) {
	model, flags := "m/M", []string{"--tensor-parallel-size", "4", "--max-model-len", "8192", "--enforce-eager"}
	good := append(append(slices.Clone(DynamoWorkerProgram), "--model", model), flags...)
	if err := checkDynamoArgs(good, model, flags, ""); err != nil {
		t.Fatalf("good list rejected: %v", err)
	}
	swapped := slices.Clone(good)
	swapped[5], swapped[7] = swapped[7], swapped[5]
	dropped := slices.Delete(slices.Clone(good), 7, 9)
	added := append(slices.Clone(good), "--max-num-seqs", "8")
	reworded := slices.Clone(good)
	reworded[5] = "--tp"
	noMode := slices.Clone(good)
	for name, bad := range map[string][]string{"swapped": swapped, "dropped": dropped, "added": added, "reworded": reworded} {
		if checkDynamoArgs(bad, model, flags, "") == nil {
			t.Errorf("%s list accepted", name)
		}
	}
	if checkDynamoArgs(noMode, model, flags, "prefill") == nil {
		t.Error("a prefill worker without --disaggregation-mode accepted")
	}
	if checkFlagList(flags[:2], flags) == nil {
		t.Error("a short flag list accepted")
	}
	keys, vals, err := jsonObject([]byte(`{"model":"m/M","tensor_parallel_size":4,"max_model_len":8192,"enforce_eager":true}`))
	if err != nil || checkKwargs(keys, vals, model, flags, true) != nil {
		t.Fatalf("good model.json rejected: %v %v", err, checkKwargs(keys, vals, model, flags, true))
	}
	for name, body := range map[string]string{
		"a string for a number": `{"model":"m/M","tensor_parallel_size":"4","max_model_len":8192,"enforce_eager":true}`,
		"a key dropped":         `{"model":"m/M","tensor_parallel_size":4,"enforce_eager":true}`,
		"keys reordered":        `{"model":"m/M","max_model_len":8192,"tensor_parallel_size":4,"enforce_eager":true}`,
		"a dash in a key":       `{"model":"m/M","tensor-parallel-size":4,"max_model_len":8192,"enforce_eager":true}`,
		"a value changed":       `{"model":"m/M","tensor_parallel_size":2,"max_model_len":8192,"enforce_eager":true}`,
	} {
		keys, vals, err := jsonObject([]byte(body))
		if err == nil && checkKwargs(keys, vals, model, flags, true) == nil {
			t.Errorf("model.json with %s accepted", name)
		}
	}
}

func TestDRTPlaceholdersAreNamedAndExplained(t *testing.T) {
	drtEach(t, func(t *testing.T, c drtCase, d *decide.Decision, s *Set) {
		declared := map[string]string{}
		for _, p := range s.Placeholders {
			declared[p.Name] = p.Explains
		}
		for _, f := range s.Files {
			for _, m := range placeholderUse().FindAllSubmatch(f.Body, -1) {
				name := string(m[1])
				if declared[name] == "" {
					t.Errorf("%s: ${%s} is not a declared, explained placeholder", f.Path, name)
				}
				if !slices.Contains(f.Placeholders, name) {
					t.Errorf("%s: ${%s} is not in the file's placeholder list", f.Path, name)
				}
			}
			if strings.Count(string(f.Body), "${") != len(placeholderUse().FindAll(f.Body, -1)) {
				t.Errorf("%s: a ${ that is not a placeholder name", f.Path)
			}
			if f.Format != FormatEngineJSON {
				for _, name := range f.Placeholders {
					if !bytes.Contains(f.Body, []byte("#   ${"+name+"}: ")) {
						t.Errorf("%s: the header does not explain ${%s}", f.Path, name)
					}
				}
			} else if len(f.Placeholders) > 0 {
				t.Errorf("%s: a JSON file cannot explain placeholders, and holds %v", f.Path, f.Placeholders)
			}
		}
		index := s.Index("scenario "+c.name, "test")
		for _, p := range s.Placeholders {
			if !bytes.Contains(index, []byte("`${"+p.Name+"}`")) {
				t.Errorf("MANIFESTS.md does not explain ${%s}", p.Name)
			}
		}
	})
}

func TestDRTSetFillsEveryPlaceholder(t *testing.T) {
	kb := drtKB(t)
	for _, c := range drtCases {
		_, s := drtGenerate(t, kb, c)
		sets := map[string]string{}
		for _, p := range s.Placeholders {
			sets[p.Name] = "filled-" + strings.ToLower(strings.ReplaceAll(p.Name, "_", "-"))
			if p.Example != "" {
				sets[p.Name] = p.Example
			}
		}
		all, _ := scenarios.All(kb)
		sc, _ := scenarios.Find(all, c.scenario)
		a := sc.Answers.Clone()
		if c.change != nil {
			c.change(&a)
		}
		d := decide.Decide(kb, a)
		filled, err := Generate(Request{KB: kb, Decision: &d, Sets: sets})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, f := range filled.Files {
			if bytes.Contains(f.Body, []byte("${")) {
				t.Errorf("%s %s: a placeholder is left after --set of all of them", c.name, f.Path)
			}
		}
		if len(filled.Unfilled()) != 0 {
			t.Errorf("%s: unfilled %v", c.name, filled.Unfilled())
		}
	}
}

func TestDRTDynamoWithTensorRTLLMIsNotCoveredAndSaysWhy(t *testing.T) {
	kb := drtKB(t)
	all, _ := scenarios.All(kb)
	sc, err := scenarios.Find(all, "last-15-percent")
	if err != nil {
		t.Fatal(err)
	}
	d := decide.Decide(kb, sc.Answers)
	_, err = Generate(Request{KB: kb, Decision: &d})
	var nc *NotCoveredError
	if !errors.As(err, &nc) {
		t.Fatalf("last-15-percent: got %v, want a NotCoveredError", err)
	}
	for _, want := range []string{"dynamo.trtllm", "--tp_size", "--tensor-parallel-size"} {
		if !strings.Contains(nc.Why, want) {
			t.Errorf("the reason does not name %s: %s", want, nc.Why)
		}
	}
}

// No answer set of these shapes panics or writes an empty file.
func TestDRTAnswerVariantsDoNotPanic(t *testing.T) {
	kb := drtKB(t)
	all, _ := scenarios.All(kb)
	for _, name := range []string{"nvidia-fleet", "request-pipeline", "mixed-models", "last-15-percent"} {
		sc, _ := scenarios.Find(all, name)
		for _, k8s := range []string{"none", "available", "required"} {
			for _, flip := range []bool{false, true} {
				a := sc.Answers.Clone()
				_ = a.Set("kubernetes", k8s)
				_ = a.Set("cache_aware_routing", flip)
				_ = a.Set("disaggregation", !flip)
				d := decide.Decide(kb, a)
				s, err := Generate(Request{KB: kb, Decision: &d})
				if err != nil {
					continue
				}
				for _, f := range s.Files {
					if len(bytes.TrimSpace(f.Body)) == 0 {
						t.Errorf("%s kubernetes=%s: %s is empty", name, k8s, f.Path)
					}
				}
			}
		}
	}
}

// Writing the files for a decision is cheap (the budget is 20 ms
// of process time): go test -bench DRTGenerate ./ui/report/manifest.
func BenchmarkDRTGenerate(b *testing.B) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	for _, name := range []string{"nvidia-fleet", "request-pipeline", "mixed-models"} {
		sc, _ := scenarios.Find(all, name)
		d := decide.Decide(kb, sc.Answers)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(Request{KB: kb, Decision: &d}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
