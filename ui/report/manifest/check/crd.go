package check

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// crdKind is one served version of one kind in a vendored CRD: its
// openAPIV3Schema as the CRD has it (raw), and, once asked for, the strict
// JSON Schema compiled from it.
type crdKind struct {
	target, release  string // the folder: "kserve", "v0.20.0"
	apiVersion, kind string
	file             string // the vendored file, within the folder
	raw              map[string]any

	once     sync.Once
	compiled *jsonschema.Schema
	err      error
}

// schemaName is how a Problem names what it was checked against.
func (k *crdKind) schemaName() string {
	return fmt.Sprintf("%s@%s %s %s", k.target, k.release, k.kind, k.apiVersion)
}

// kubeFolder is one schemas/<target>/<version>/ folder, loaded once: its
// kinds by apiVersion and kind.
type kubeFolder struct {
	once  sync.Once
	kinds map[string]*crdKind // "group/version kind"
	err   error
}

var kubeFolders sync.Map // "target/version" -> *kubeFolder

func kindKey(apiVersion, kind string) string { return apiVersion + " " + kind }

// folder returns the loaded folder of target at release (err when the
// folder cannot be read: a vendoring mistake, not a user's).
func folder(fsys fs.FS, target, release string) (*kubeFolder, error) {
	v, _ := kubeFolders.LoadOrStore(target+"/"+release, &kubeFolder{})
	f := v.(*kubeFolder)
	f.once.Do(func() { f.kinds, f.err = loadFolder(fsys, target, release) })
	return f, f.err
}

// loadFolder reads every CRD the folder's provenance lists.
func loadFolder(fsys fs.FS, target, release string) (map[string]*crdKind, error) {
	dir := path.Join("schemas", target, release)
	prov, err := readProvenance(fsys, dir)
	if err != nil {
		return nil, err
	}
	kinds := map[string]*crdKind{}
	for _, pf := range prov.Files {
		// A chart's default values sit beside llm-d's CRD (the chart is
		// versioned with llm-d); HelmValues reads them, not this.
		if !strings.HasSuffix(pf.Name, ".yaml.gz") && !strings.HasSuffix(pf.Name, ".yaml") || strings.HasSuffix(pf.Name, "-values.yaml.gz") {
			continue
		}
		b, err := content(fsys, path.Join(dir, pf.Name))
		if err != nil {
			return nil, err
		}
		crds, err := parseCRDs(b)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", dir, pf.Name, err)
		}
		for _, c := range crds {
			for _, v := range c.Spec.Versions {
				if !v.Served || v.Schema.OpenAPIV3Schema == nil {
					continue
				}
				raw := v.Schema.OpenAPIV3Schema
				if err := splice(fsys, raw); err != nil {
					return nil, fmt.Errorf("%s/%s: %w", dir, pf.Name, err)
				}
				apiVersion := c.Spec.Group + "/" + v.Name
				if c.Spec.Group == "" {
					apiVersion = v.Name
				}
				kinds[kindKey(apiVersion, c.Spec.Names.Kind)] = &crdKind{
					target: target, release: release, apiVersion: apiVersion,
					kind: c.Spec.Names.Kind, file: pf.Name, raw: raw,
				}
			}
		}
	}
	return kinds, nil
}

// crd is the part of a CustomResourceDefinition the check reads.
type crd struct {
	Kind string `json:"kind"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
			Schema struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

func parseCRDs(b []byte) ([]crd, error) {
	var out []crd
	for _, doc := range splitYAML(b) {
		j, err := yaml.YAMLToJSON(doc.body)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue
		}
		var c crd
		if err := json.Unmarshal(j, &c); err != nil {
			return nil, err
		}
		if c.Kind != "CustomResourceDefinition" {
			return nil, fmt.Errorf("a %q where a CustomResourceDefinition belongs", c.Kind)
		}
		out = append(out, c)
	}
	return out, nil
}

// fromKey marks a node of a derived schema that is to be replaced by a
// node of a vendored CRD: "lws/v0.10.0/<file>#<kind>/<version><pointer>",
// the pointer into that version's openAPIV3Schema. Derived schemas reuse
// upstream's own text this way instead of copying it.
const fromKey = "x-stackpick-from"

var fromRef = regexp.MustCompile(`^([^/#]+)/([^/#]+)/([^#]+)#([^/]+)/([^/]+)(/.*)?$`)

// splice replaces every fromKey node under s, in place.
func splice(fsys fs.FS, s any) error {
	switch n := s.(type) {
	case map[string]any:
		if ref, ok := n[fromKey].(string); ok {
			node, err := resolveFrom(fsys, ref)
			if err != nil {
				return err
			}
			delete(n, fromKey)
			for k, v := range node {
				if _, own := n[k]; !own {
					n[k] = v
				}
			}
			return nil
		}
		for _, v := range n {
			if err := splice(fsys, v); err != nil {
				return err
			}
		}
	case []any:
		for _, v := range n {
			if err := splice(fsys, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func resolveFrom(fsys fs.FS, ref string) (map[string]any, error) {
	m := fromRef.FindStringSubmatch(ref)
	if m == nil {
		return nil, fmt.Errorf("%s %q: want target/version/file#Kind/version/pointer", fromKey, ref)
	}
	target, release, file, kind, version, ptr := m[1], m[2], m[3], m[4], m[5], m[6]
	f, err := folder(fsys, target, release)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", fromKey, ref, err)
	}
	for _, k := range f.kinds {
		if k.kind != kind || k.file != file || !strings.HasSuffix(k.apiVersion, "/"+version) {
			continue
		}
		var node any = k.raw
		for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			if tok == "" {
				continue
			}
			mm, ok := node.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s %q: no %q", fromKey, ref, tok)
			}
			node = mm[tok]
		}
		nm, ok := node.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s %q: the pointer names no schema", fromKey, ref)
		}
		return deepCopy(nm).(map[string]any), nil
	}
	return nil, fmt.Errorf("%s %q: no %s %s in %s", fromKey, ref, kind, version, file)
}

func deepCopy(v any) any {
	switch n := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(n))
		for k, x := range n {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(n))
		for i, x := range n {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// strict turns an openAPIV3Schema into the JSON Schema kubeconform checks
// against in strict mode (its scripts/openapi2jsonschema.py and
// pkg/validator): every object with properties rejects unknown ones unless
// x-kubernetes-preserve-unknown-fields says the object is free-form;
// x-kubernetes-int-or-string is [integer, string]; nullable adds "null".
// It returns a converted copy; raw is not changed.
func strict(raw any) any {
	switch n := raw.(type) {
	case map[string]any:
		m := make(map[string]any, len(n)+1)
		for k, v := range n {
			switch k {
			case "properties", "patternProperties", "definitions":
				// maps of name -> schema: convert each schema, not the map.
				if ps, ok := v.(map[string]any); ok {
					cp := make(map[string]any, len(ps))
					for pk, pv := range ps {
						cp[pk] = strict(pv)
					}
					m[k] = cp
					continue
				}
				m[k] = v
			case "enum", "required", "default", "example", "x-kubernetes-validations", "x-kubernetes-list-map-keys":
				m[k] = v // values, not schemas
			default:
				m[k] = strict(v)
			}
		}
		if n["x-kubernetes-int-or-string"] == true {
			m["type"] = []any{"integer", "string"}
		}
		if n["nullable"] == true {
			if t, ok := m["type"].(string); ok {
				m["type"] = []any{t, "null"}
			}
			if e, ok := m["enum"].([]any); ok && !slices.Contains(e, nil) {
				m["enum"] = append(slices.Clone(e), nil)
			}
		}
		if _, has := n["properties"]; has && n["x-kubernetes-preserve-unknown-fields"] != true {
			if _, set := n["additionalProperties"]; !set {
				m["additionalProperties"] = false
			}
		}
		return m
	case []any:
		l := make([]any, len(n))
		for i, v := range n {
			l[i] = strict(v)
		}
		return l
	}
	return raw
}

// goDuration is the "duration" format as Kubernetes means it
// (metav1.Duration: Go's time.ParseDuration), which kubeconform registers
// in place of JSON Schema's ISO 8601 one.
var goDuration = &jsonschema.Format{Name: "duration", Validate: func(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := time.ParseDuration(s)
	return err
}}

// int32Format and int64Format are OpenAPI's integer formats: the API
// server decodes the field into a Go int32 or int64 and rejects a value
// that does not fit.
var (
	int32Format = &jsonschema.Format{Name: "int32", Validate: intRange(math.MinInt32, math.MaxInt32)}
	int64Format = &jsonschema.Format{Name: "int64", Validate: intRange(math.MinInt64, math.MaxInt64)}
)

func intRange(lo, hi int64) func(any) error {
	return func(v any) error {
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok || !r.IsInt() {
			return nil // "type: integer" says what is wrong
		}
		if r.Num().Cmp(big.NewInt(lo)) < 0 || r.Num().Cmp(big.NewInt(hi)) > 0 {
			return fmt.Errorf("%s does not fit in [%d, %d]", n, lo, hi)
		}
		return nil
	}
}

// byteFormat is OpenAPI's "byte": base64-encoded data (a Secret's data).
var byteFormat = &jsonschema.Format{Name: "byte", Validate: func(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return err
}}

// schema compiles the kind's strict schema once.
func (k *crdKind) schema() (*jsonschema.Schema, error) {
	k.once.Do(func() { k.compiled, k.err = compileStrict(k.raw, k.target+"/"+k.release+"/"+k.file+"#"+k.kind) })
	return k.compiled, k.err
}

func compileStrict(raw map[string]any, name string) (*jsonschema.Schema, error) {
	// A round trip through JSON gives the compiler the json.Number values
	// it expects.
	b, err := json.Marshal(strict(raw))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	c.RegisterFormat(goDuration)
	c.RegisterFormat(int32Format)
	c.RegisterFormat(int64Format)
	c.RegisterFormat(byteFormat)
	url := "stackpick:///" + strings.ReplaceAll(name, "#", "/") + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}
