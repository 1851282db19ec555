package check

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// kubeTargetIDs are the targets whose schemas this file's checks vendor.
var kubeTargetIDs = []string{"kserve", "gaie", "llm-d", "lws", "kuberay", "dynamo", "kubernetes"}

var (
	featureField      = regexp.MustCompile(`^([A-Z][A-Za-z]+) (spec(?:\.[A-Za-z0-9]+(?:\[\])?)+)`)
	featureAPIVersion = regexp.MustCompile(`^([A-Z][A-Za-z]+) ((?:[a-z0-9.-]+/)?v[0-9a-z]+)$`)
)

// crossCheckTargets holds the knowledge base's targets to the vendored
// schemas: a Kubernetes target's versions are exactly its folders, and a
// feature that names a kind and a field ("LLMInferenceService
// spec.kvCacheOffloading") or a kind and an API version is absent from
// every vendored version before since and present from since on. It
// returns what is wrong and the features it could not read.
func crossCheckTargets(targets []*knowledge.Target) (bad, unread []string) {
	for _, t := range targets {
		if !slices.Contains(kubeTargetIDs, t.ID) {
			continue
		}
		if got := KubeVersions(t.ID); !slices.Equal(got, t.Versions) {
			bad = append(bad, fmt.Sprintf("%s: the knowledge base says versions %v, the vendored folders are %v", t.ID, t.Versions, got))
			continue
		}
		for _, f := range t.Features {
			at := slices.Index(t.Versions, f.Since)
			if at < 0 {
				bad = append(bad, fmt.Sprintf("%s feature %s: since %q is not a vendored version", t.ID, f.ID, f.Since))
				continue
			}
			var has func(release string) (bool, error)
			if m := featureField.FindStringSubmatch(f.What); m != nil {
				has = func(release string) (bool, error) { return kindHasField(t.ID, release, m[1], m[2]) }
			} else if m := featureAPIVersion.FindStringSubmatch(f.What); m != nil {
				has = func(release string) (bool, error) { return kindServed(t.ID, release, m[1], m[2]) }
			} else {
				unread = append(unread, t.ID+" "+f.ID+": "+f.What)
				continue
			}
			for i, release := range t.Versions {
				ok, err := has(release)
				if err != nil {
					bad = append(bad, fmt.Sprintf("%s feature %s at %s: %v", t.ID, f.ID, release, err))
					continue
				}
				if want := i >= at; ok != want {
					bad = append(bad, fmt.Sprintf("%s feature %s (%q, since %s): at %s the schema has it = %v", t.ID, f.ID, f.What, f.Since, release, ok))
				}
			}
		}
	}
	return bad, unread
}

// kindServed says the folder serves kind at apiVersion.
func kindServed(target, release, kind, apiVersion string) (bool, error) {
	f, err := folder(kubeFS, target, release)
	if err != nil {
		return false, err
	}
	return f.kinds[kindKey(apiVersion, kind)] != nil, nil
}

// kindHasField says any served version of kind has the dotted field path
// ("spec.roles[].scaling").
func kindHasField(target, release, kind, path string) (bool, error) {
	f, err := folder(kubeFS, target, release)
	if err != nil {
		return false, err
	}
	found := false
	for _, k := range f.kinds {
		if k.kind != kind {
			continue
		}
		found = true
		if schemaHasPath(k.raw, path) {
			return true, nil
		}
	}
	if !found {
		return false, fmt.Errorf("no kind %s", kind)
	}
	return false, nil
}

func schemaHasPath(s map[string]any, path string) bool {
	node := s
	for _, tok := range strings.Split(path, ".") {
		list := strings.HasSuffix(tok, "[]")
		props, _ := node["properties"].(map[string]any)
		next, ok := props[strings.TrimSuffix(tok, "[]")].(map[string]any)
		if !ok {
			return false
		}
		if list {
			if next, ok = next["items"].(map[string]any); !ok {
				return false
			}
		}
		node = next
	}
	return true
}

func TestTheKnowledgeBaseTargetsMatchTheVendoredSchemas(t *testing.T) {
	kb := knowledge.MustDefault()
	n := 0
	for _, tg := range kb.Targets {
		if slices.Contains(kubeTargetIDs, tg.ID) {
			n++
		}
	}
	if n == 0 {
		t.Skip("the knowledge base has no Kubernetes targets yet (knowledge/data/targets.toml)")
	}
	bad, unread := crossCheckTargets(kb.Targets)
	for _, b := range bad {
		t.Error(b)
	}
	for _, u := range unread {
		t.Logf("not cross-checked (its what names no kind+field or kind+apiVersion): %s", u)
	}
}

// The cross-check itself fails on a wrong version list, a wrong since and
// a feature the schema does not have.
func TestTheTargetsCrossCheckCatchesWrongRecords(t *testing.T) {
	good := []*knowledge.Target{
		{ID: "kserve", Versions: []string{"v0.19.0", "v0.20.0"}, Features: []knowledge.TargetFeature{
			{ID: "kv", What: "LLMInferenceService spec.kvCacheOffloading (and spec.prefill.kvCacheOffloading)", Since: "v0.20.0"},
			{ID: "v1alpha2", What: "LLMInferenceService serving.kserve.io/v1alpha2", Since: "v0.19.0"},
		}},
		{ID: "lws", Versions: []string{"v0.9.0", "v0.10.0"}, Features: []knowledge.TargetFeature{
			{ID: "scaling", What: "DisaggregatedSet spec.roles[].scaling", Since: "v0.10.0"},
			{ID: "dset", What: "DisaggregatedSet disaggregatedset.x-k8s.io/v1", Since: "v0.9.0"},
		}},
		{ID: "kuberay", Versions: []string{"v1.6.2", "v1.7.0"}, Features: []knowledge.TargetFeature{
			{ID: "suspend", What: "RayService spec.suspend", Since: "v1.7.0"},
			{ID: "prose", What: "InferencePool without spec.endpointPickerRef", Since: "v1.7.0"},
		}},
		{ID: "compose", Versions: []string{"whatever"}}, // not a Kubernetes target: the files helper's
	}
	if bad, unread := crossCheckTargets(good); len(bad) != 0 || len(unread) != 1 {
		t.Fatalf("good records: bad %v, unread %v", bad, unread)
	}
	cases := map[string]struct {
		t    *knowledge.Target
		want string
	}{
		"a version not vendored": {&knowledge.Target{ID: "gaie", Versions: []string{"v1.5.0", "v1.7.0"}}, "the vendored folders are [v1.5.0 v1.6.0]"},
		"since too early":        {&knowledge.Target{ID: "kserve", Versions: []string{"v0.19.0", "v0.20.0"}, Features: []knowledge.TargetFeature{{ID: "kv", What: "LLMInferenceService spec.kvCacheOffloading", Since: "v0.19.0"}}}, "at v0.19.0 the schema has it = false"},
		"since too late":         {&knowledge.Target{ID: "lws", Versions: []string{"v0.9.0", "v0.10.0"}, Features: []knowledge.TargetFeature{{ID: "d", What: "DisaggregatedSet disaggregatedset.x-k8s.io/v1", Since: "v0.10.0"}}}, "at v0.9.0 the schema has it = true"},
		"no such field":          {&knowledge.Target{ID: "lws", Versions: []string{"v0.9.0", "v0.10.0"}, Features: []knowledge.TargetFeature{{ID: "g", What: "DisaggregatedSet spec.roles[].spec.groupIdentity", Since: "v0.10.0"}}}, "at v0.10.0 the schema has it = false"},
		"no such kind":           {&knowledge.Target{ID: "lws", Versions: []string{"v0.9.0", "v0.10.0"}, Features: []knowledge.TargetFeature{{ID: "g", What: "DisaggregatedSetRoleScaler spec.x", Since: "v0.10.0"}}}, "no kind DisaggregatedSetRoleScaler"},
		"since not a version":    {&knowledge.Target{ID: "lws", Versions: []string{"v0.9.0", "v0.10.0"}, Features: []knowledge.TargetFeature{{ID: "g", What: "DisaggregatedSet spec.slices", Since: "v0.11.0"}}}, `since "v0.11.0" is not a vendored version`},
	}
	for name, c := range cases {
		bad, _ := crossCheckTargets([]*knowledge.Target{c.t})
		if !slices.ContainsFunc(bad, func(s string) bool { return strings.Contains(s, c.want) }) {
			t.Errorf("%s: want %q, got %v", name, c.want, bad)
		}
	}
}
