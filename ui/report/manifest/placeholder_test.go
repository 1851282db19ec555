package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/scenarios"

	"github.com/stackpick/stackpick/knowledge"
)

func TestSetArgumentsAreReadOrRefusedWithWhatToType(t *testing.T) {
	good, err := ParseSets([]string{"NAMESPACE=llm", "HF_TOKEN_SECRET=hf=token"})
	if err != nil || good["NAMESPACE"] != "llm" || good["HF_TOKEN_SECRET"] != "hf=token" {
		t.Fatalf("ParseSets = %v, %v", good, err)
	}
	for _, bad := range [][]string{{"NAMESPACE"}, {"namespace=x"}, {"=x"}, {"NAMESPACE=a", "NAMESPACE=b"}, {"1X=y"}} {
		_, err := ParseSets(bad)
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Hint == "" {
			t.Errorf("ParseSets(%q) = %v, want a UsageError with a hint", bad, err)
		}
	}
	// The same value twice is one setting, not a conflict.
	if _, err := ParseSets([]string{"NAMESPACE=a", "NAMESPACE=a"}); err != nil {
		t.Errorf("the same --set twice: %v", err)
	}
}

func TestTargetArgumentsAreReadOrRefusedWithWhatToType(t *testing.T) {
	got, err := ParseTargets([]string{"KServe@v0.20", "lws@v0.10.0"})
	if err != nil || got["kserve"] != "v0.20" || got["lws"] != "v0.10.0" {
		t.Fatalf("ParseTargets = %v, %v", got, err)
	}
	for _, bad := range [][]string{{"kserve"}, {"@v1"}, {"kserve@"}, {"kserve@v1", "kserve@v2"}} {
		_, err := ParseTargets(bad)
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Hint == "" {
			t.Errorf("ParseTargets(%q) = %v, want a UsageError with a hint", bad, err)
		}
	}
}

func TestATargetVersionIsFoundExactlyOrByItsPrefix(t *testing.T) {
	tg := &knowledge.Target{ID: "x", Versions: []string{"v0.9.0", "v0.10.0", "v0.10.2", "1.3.0", "1.3.1", "main@0fddc01"}}
	for in, want := range map[string]string{"v0.10.0": "v0.10.0", "0.10.0": "v0.10.0", "v0.10": "v0.10.2", "v0.9": "v0.9.0", "1.3": "1.3.1", "v1.3.0": "1.3.0", "1": "1.3.1", "main": "main@0fddc01", "main@0fddc01": "main@0fddc01"} {
		if got, ok := resolveVersion(tg, in); !ok || got != want {
			t.Errorf("resolveVersion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"v0.1", "v0.11", "2", "v0.10.0.1", "v0.10.0.0"} {
		if got, ok := resolveVersion(tg, in); ok {
			t.Errorf("resolveVersion(%q) = %q, want no version", in, got)
		}
	}
}

func TestASetValueMustFitWhereItsPlaceholderStands(t *testing.T) {
	g := &gen{req: Request{Sets: map[string]string{}}, explains: map[string]string{}, kinds: map[string]phKind{}}
	if v := g.ph("NAMESPACE", phName, "the namespace"); v != "${NAMESPACE}" {
		t.Fatalf("unfilled placeholder = %q", v)
	}
	for value, ok := range map[string]bool{"llm-serving": true, "Bad_Name": false, "-x": false, strings.Repeat("a", 64): false, "a\nb": false, "": false} {
		g.req.Sets = map[string]string{"NAMESPACE": value}
		err := g.checkSets()
		if (err == nil) != ok {
			t.Errorf("--set NAMESPACE=%q: err = %v, want ok %v", value, err, ok)
		}
	}
	g.req.Sets = map[string]string{"NAMESPAC": "x"}
	err := g.checkSets()
	if err == nil || !strings.Contains(err.Error(), "NAMESPACE") {
		t.Errorf("--set of an unknown placeholder: %v, want the stack's placeholders named", err)
	}
}

// A --target for a project none of the files is written for would change
// nothing: it is refused, naming the targets the files are written for; a
// misspelt target or placeholder gets the nearest name.
func TestATargetNoFileIsWrittenForIsRefused(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := scenarios.Find(all, "gitops-rollouts")
	d := decide.Decide(kb, sc.Answers)
	for targets, want := range map[string]string{"lws": "written for kserve; drop --target lws", "kserv": "did you mean kserve?"} {
		_, err := Generate(Request{KB: kb, Decision: &d, Targets: map[string]string{targets: "v0.10.0"}})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(ue.Error(), want) {
			t.Errorf("--target %s: %v, want it to say %q", targets, err, want)
		}
	}
	_, err = Generate(Request{KB: kb, Decision: &d, Sets: map[string]string{"NAMESPCE": "x"}})
	if err == nil || !strings.Contains(err.Error(), "did you mean NAMESPACE?") {
		t.Errorf("--set NAMESPCE: %v, want the nearest placeholder", err)
	}
	s, err := Generate(Request{KB: kb, Decision: &d, Targets: map[string]string{"kserve": "v0"}})
	if err != nil || s.Targets["kserve"] != "v0.20.0" {
		t.Errorf("--target kserve@v0: %v, %v", s, err)
	}
	// A target no file uses is refused as such, even at a version not
	// vendored; one the files use, at such a version, names the versions.
	for targets, want := range map[string]string{"dynamo": "none of the files for this stack is written for dynamo", "kserve": "versions of kserve: v0.19.0, v0.20.0"} {
		_, err := Generate(Request{KB: kb, Decision: &d, Targets: map[string]string{targets: "1.3"}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--target %s@1.3: %v, want it to say %q", targets, err, want)
		}
	}
}

// Each kind of placeholder takes values of its shape and refuses the rest
// with what it must be and an example, which itself passes.
func TestEachPlaceholderKindTakesItsShape(t *testing.T) {
	for kind, values := range map[phKind]map[string]bool{
		phImage:   {"ghcr.io/ggml-org/llama.cpp:server-b8770": true, "rayproject/ray-llm:2.60.0-py312-cu130": true, "registry.example.com:5000/team/llama.cpp:server-b6000": true, "localhost:5000/llama:b1": true, "ghcr.io/a/b:1@sha256:" + strings.Repeat("a", 64): true, "ghcr.io/a/b@sha256:" + strings.Repeat("a", 64): true, "server-b6000": false, "2.60.0-py312-cu130": false, "ubuntu": false, "a b:1": false, "ghcr.io/A/b:1": false},
		phCPU:     {"16": true, "0.5": true, ".5": true, "500m": true, "1e1": true, "+8": true, "2.": true, "500000u": true, "lots": false, "16 cores": false, "0": false, "0m": false, "0.0": false, "-4": false, "0.0001": false, "1e-4": false, "1e": false, "1e1.5": false, "1e9999": false, "16M i": false, ".": false},
		phMemory:  {"128Gi": true, "96G": true, ".5Ti": true, "137e9": true, "1.28E11": true, "2000000k": true, "1M": true, "128": false, "128GB": false, "lots": false, "0Gi": false, "1Ki": false, "1e3": false, "-128Gi": false, "128gi": false, "1E": true},
		phURI:     {"hf://meta-llama/Llama-3.3-70B-Instruct": true, "pvc://models/llama": true, "meta-llama/x": false, "s3://": false},
		phHostDir: {"/srv/models": true, "/srv/m:rw": false, "srv": false},
		phObject:  {"hf-token": true, "hf.token.v2": true, "Hf-token": false, "hf..token": false, "-hf": false},
		phBackend: {"onnxruntime": true, "pytorch": true, `on"nx`: false, "onnx runtime": false},
	} {
		g := &gen{req: Request{Sets: map[string]string{}}, explains: map[string]string{}, kinds: map[string]phKind{}}
		g.ph("VALUE", kind, "a value")
		values[kindShapes[kind].example] = true
		for value, ok := range values {
			g.req.Sets = map[string]string{"VALUE": value}
			err := g.checkSets()
			if (err == nil) != ok {
				t.Errorf("kind %d: --set VALUE=%q: err = %v, want ok %v", kind, value, err, ok)
			}
			if err != nil && !strings.Contains(err.Error(), "for example --set VALUE="+kindShapes[kind].example) {
				t.Errorf("kind %d: the refusal of %q gives no example: %v", kind, value, err)
			}
		}
	}
}

// A '$' in a --set value is refused: Compose and envsubst would read it
// as a variable, and docker-run.sh, which quotes it, would not.
func TestASetValueWithADollarIsRefused(t *testing.T) {
	g := &gen{req: Request{Sets: map[string]string{}}, explains: map[string]string{}, kinds: map[string]phKind{}}
	g.ph("MODELS_DIR", phHostDir, "a folder")
	g.req.Sets = map[string]string{"MODELS_DIR": "/srv/$HOME"}
	if err := g.checkSets(); err == nil || !strings.Contains(err.Error(), "'$'") {
		t.Errorf("--set MODELS_DIR=/srv/$HOME: %v, want a refusal naming '$'", err)
	}
}
