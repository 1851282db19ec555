package check

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// kubeFS holds the Kubernetes schemas: the projects' CRDs at named
// releases, and the derived ones (Dynamo's DynamoGraphDeployment,
// Kubernetes' own Deployment and Service) in the same CRD form.
//
//go:embed schemas/kserve schemas/gaie schemas/llm-d schemas/lws schemas/kuberay schemas/kubernetes schemas/dynamo
var kubeFS embed.FS

// kubeTargets maps an API group to the target whose folder holds its
// schemas ("" is Kubernetes' core group).
var kubeTargets = map[string]string{
	"serving.kserve.io":           "kserve",
	"inference.networking.k8s.io": "gaie",
	"llm-d.ai":                    "llm-d",
	"leaderworkerset.x-k8s.io":    "lws",
	"disaggregatedset.x-k8s.io":   "lws",
	"ray.io":                      "kuberay",
	"nvidia.com":                  "dynamo",
	"apps":                        "kubernetes",
	"":                            "kubernetes",
}

// KubeVersions lists the vendored versions of a Kubernetes target, oldest
// first (nil for a target with none).
func KubeVersions(target string) []string {
	ents, err := fs.ReadDir(kubeFS, path.Join("schemas", target))
	if err != nil {
		return nil
	}
	var vs []string
	for _, e := range ents {
		if e.IsDir() {
			vs = append(vs, e.Name())
		}
	}
	slices.SortFunc(vs, compareVersions)
	return vs
}

// compareVersions orders release names by their dotted numbers ("v0.9.0"
// before "v0.10.0", "1.3.1" before "1.4.0"); what is not a number
// compares as text.
func compareVersions(a, b string) int {
	pa := strings.FieldsFunc(strings.TrimPrefix(a, "v"), func(r rune) bool { return r == '.' || r == '-' || r == '@' })
	pb := strings.FieldsFunc(strings.TrimPrefix(b, "v"), func(r rune) bool { return r == '.' || r == '-' || r == '@' })
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			if na < nb {
				return -1
			}
			return 1
		case (ea != nil || eb != nil) && pa[i] != pb[i]:
			return strings.Compare(pa[i], pb[i])
		}
	}
	return len(pa) - len(pb)
}
