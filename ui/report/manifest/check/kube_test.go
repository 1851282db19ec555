package check

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// goodObjects are the hand-written fixtures of testdata/kube, each with
// the target versions it must pass at.
var goodObjects = []struct {
	file     string
	versions []Versions
}{
	{"llminferenceservice.yaml", []Versions{{"kserve": "v0.19.0"}, {"kserve": "v0.20.0"}}},
	{"inferenceservice.yaml", []Versions{{"kserve": "v0.19.0"}, {"kserve": "v0.20.0"}}},
	{"inferencepool.yaml", []Versions{{"gaie": "v1.5.0"}, {"gaie": "v1.6.0"}}},
	{"inferenceobjective.yaml", []Versions{{"llm-d": "v0.9.0"}, {"llm-d": "v0.10.0"}}},
	{"disaggregatedset.yaml", []Versions{{"lws": "v0.9.0"}, {"lws": "v0.10.0"}}},
	{"leaderworkerset.yaml", []Versions{{"lws": "v0.9.0"}, {"lws": "v0.10.0"}}},
	{"rayservice.yaml", []Versions{{"kuberay": "v1.6.2"}, {"kuberay": "v1.7.0"}}},
	{"deployment.yaml", []Versions{{"kubernetes": "v1.36.3"}}},
	{"service.yaml", []Versions{{"kubernetes": "v1.36.3"}}},
	{"secret.yaml", []Versions{{"kubernetes": "v1.36.3"}}},
	{"dynamographdeployment.yaml", []Versions{{"dynamo": "main@0fddc01"}}},
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "kube", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEveryHandWrittenObjectPassesItsSchemaAtEveryVendoredVersion(t *testing.T) {
	for _, g := range goodObjects {
		for _, v := range g.versions {
			t.Run(g.file+"@"+versionsString(v), func(t *testing.T) {
				for _, p := range Kubernetes(g.file, fixture(t, g.file), v) {
					t.Errorf("%s", p)
				}
			})
		}
	}
}

func versionsString(v Versions) string {
	var parts []string
	for k, x := range v {
		parts = append(parts, k+"="+x)
	}
	return strings.Join(parts, ",")
}

// mutate returns the fixture with one change made at a slash path
// ("/spec/replicas"; a number indexes a list): set to value, or deleted
// when value is the deleteMe marker.
func mutate(t testing.TB, body []byte, path string, value any) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	var obj any
	if err := json.Unmarshal(j, &obj); err != nil {
		t.Fatal(err)
	}
	toks := strings.Split(strings.TrimPrefix(path, "/"), "/")
	node := obj
	for i, tok := range toks {
		last := i == len(toks)-1
		switch n := node.(type) {
		case map[string]any:
			if last {
				if value == deleteMe {
					delete(n, tok)
				} else {
					n[tok] = value
				}
				break
			}
			if _, ok := n[tok]; !ok {
				n[tok] = map[string]any{}
			}
			node = n[tok]
		case []any:
			idx, err := strconv.Atoi(tok)
			if err != nil || idx >= len(n) {
				t.Fatalf("mutate %s: no list item %q", path, tok)
			}
			if last {
				n[idx] = value
				break
			}
			node = n[idx]
		default:
			t.Fatalf("mutate %s: %q is under a %T", path, tok, node)
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type marker struct{}

var deleteMe = marker{}
