package check

import (
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// fillAll is a --set for every placeholder of a set, each with a value that
// can stand where it stands (a Kubernetes name, a quantity, a path).
func fillAll(s *manifest.Set) map[string]string {
	sets := map[string]string{}
	for _, p := range s.Placeholders {
		switch {
		case p.Example != "":
			sets[p.Name] = p.Example
		case p.Name == "NAMESPACE" || strings.HasSuffix(p.Name, "_SECRET"):
			sets[p.Name] = "llm-serving"
		case strings.HasSuffix(p.Name, "_IMAGE"):
			sets[p.Name] = "registry.example/image:tag"
		case strings.HasSuffix(p.Name, "_MEMORY"):
			sets[p.Name] = "128Gi"
		default:
			sets[p.Name] = "16"
		}
	}
	return sets
}

// checkAnyFile runs a file through the validator of its format at the
// versions it was written for, and its engine arguments through the
// knowledge base's flags.
func checkAnyFile(kb *knowledge.KB, f manifest.File) []Problem {
	v := Versions(f.Targets)
	var ps []Problem
	switch f.Format {
	case manifest.FormatKubernetes:
		ps = Kubernetes(f.Path, f.Body, v)
		if strings.Contains(string(f.Body), "kind: RayService") {
			var rs struct {
				Spec struct {
					ServeConfigV2 string `json:"serveConfigV2"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal(f.Body, &rs); err != nil || rs.Spec.ServeConfigV2 == "" {
				ps = append(ps, Problem{File: f.Path, Path: "/spec/serveConfigV2", Message: "no Serve config in the RayService"})
			} else {
				ps = append(ps, ServeConfig(f.Path+"#serveConfigV2", []byte(rs.Spec.ServeConfigV2), v)...)
			}
		}
	case manifest.FormatCompose:
		ps = Compose(f.Path, f.Body, v)
	case manifest.FormatTriton:
		ps = TritonConfig(f.Path, f.Body, v)
	case manifest.FormatServeConfig:
		ps = ServeConfig(f.Path, f.Body, v)
	case manifest.FormatEngineJSON:
		ps = ModelJSON(kb, f.Path, f.Body, f.EngineRelease)
	case manifest.FormatHelmValues:
		ps = HelmValues(f.Path, f.Body, v)
	case manifest.FormatShell:
		// The docker run line's arguments are compared with the launch
		// command in the manifest package's tests.
	default:
		ps = append(ps, Problem{File: f.Path, Message: "no validator for format " + f.Format})
	}
	return ps
}

// The promise: for every preset and every applicable target, the
// generated files pass the structural and CEL checks of the pinned
// version, with no unknown field. Each target the set is written for is
// tried at every vendored version (the others at their newest); a version
// that lacks a feature the files need must be refused with the version
// that has it, never written wrong.
func TestEveryPresetsFilesPassTheirSchemasAtEveryVendoredVersion(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	covered := 0
	for _, sc := range all {
		d := decide.Decide(kb, sc.Answers)
		base, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d})
		var nc *manifest.NotCoveredError
		if errors.As(err, &nc) {
			t.Logf("%s: no writer: %s", sc.Name, nc.Why)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		covered++
		sets := fillAll(base)
		tries := []map[string]string{nil}
		for id := range base.Targets {
			for _, v := range kb.Target(id).Versions {
				if v != base.Targets[id] {
					tries = append(tries, map[string]string{id: v})
				}
			}
		}
		for _, targets := range tries {
			s, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d, Sets: sets, Targets: targets})
			var ue *manifest.UsageError
			if errors.As(err, &ue) {
				if !strings.Contains(ue.Problem, "first appears in") {
					t.Errorf("%s at %v: refused without naming the version that has it: %v", sc.Name, targets, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s at %v: %v", sc.Name, targets, err)
			}
			if left := s.Unfilled(); len(left) > 0 {
				t.Errorf("%s: placeholders left after --set of all: %v", sc.Name, left)
			}
			for _, f := range s.Files {
				for _, p := range checkAnyFile(kb, f) {
					t.Errorf("%s at %v: %s", sc.Name, targets, p)
				}
			}
		}
	}
	if covered < 7 {
		t.Errorf("only %d presets have files; the issue asks for every preset", covered)
	}
}
