package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"sigs.k8s.io/yaml"
)

// Kubernetes checks a YAML file of one or more Kubernetes objects. Each
// object is checked against the schema of its apiVersion and kind at the
// version v names for its target (the newest vendored when v names none):
// first the strict JSON Schema (unknown fields, types, enums, ranges,
// required), then every CEL x-kubernetes-validations rule where the
// object has the node it sits on. An object whose apiVersion and kind
// have no vendored schema at that version is a Problem, never a pass.
//
// Doc counts the file's non-empty documents from 0.
func Kubernetes(name string, body []byte, v Versions) []Problem {
	var out []Problem
	doc := 0
	for _, d := range splitYAML(body) {
		j, err := yaml.YAMLToJSON(d.body)
		if err != nil {
			out = append(out, Problem{File: name, Doc: doc, Path: "", Message: "not YAML: " + err.Error(), Schema: "yaml"})
			doc++
			continue
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue // a document of comments only
		}
		for _, p := range checkObject(j, v) {
			p.File, p.Doc = name, doc
			out = append(out, p)
		}
		doc++
	}
	if doc == 0 && len(out) == 0 {
		out = append(out, Problem{File: name, Message: "no Kubernetes object in the file", Schema: "yaml"})
	}
	return out
}

type yamlDoc struct{ body []byte }

var docSep = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)

// splitYAML cuts a multi-document YAML stream at its "---" lines.
func splitYAML(b []byte) []yamlDoc {
	var docs []yamlDoc
	for _, part := range docSep.Split(string(b), -1) {
		docs = append(docs, yamlDoc{body: []byte(part)})
	}
	return docs
}

// checkObject checks one object given as JSON.
func checkObject(j []byte, v Versions) []Problem {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		return []Problem{{Message: "not JSON: " + err.Error(), Schema: "yaml"}}
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return []Problem{{Message: fmt.Sprintf("a %s where a Kubernetes object belongs", jsonType(inst)), Schema: "yaml"}}
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if apiVersion == "" || kind == "" {
		return []Problem{{Path: "", Message: "an object needs a string apiVersion and kind", Schema: "kubernetes"}}
	}
	k, p := lookupKind(apiVersion, kind, v)
	if p != nil {
		return []Problem{*p}
	}
	sch, err := k.schema()
	if err != nil {
		return []Problem{{Message: "the vendored schema does not compile: " + err.Error(), Schema: k.schemaName()}}
	}
	var out []Problem
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return []Problem{{Message: err.Error(), Schema: k.schemaName()}}
		}
		for _, leaf := range leaves(ve) {
			out = append(out, Problem{Path: pointer(leaf.InstanceLocation), Message: leaf.ErrorKind.LocalizedString(english), Schema: k.schemaName()})
		}
	}
	var celInst any
	if err := json.Unmarshal(j, &celInst); err == nil {
		for _, cp := range celProblems(k.raw, celValue(celInst), nil) {
			cp.Schema = k.schemaName() + " CEL"
			out = append(out, cp)
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.Path, b.Path) })
	return out
}

var english = message.NewPrinter(language.English)

// lookupKind finds the vendored schema of apiVersion and kind at the
// version v names for its target.
func lookupKind(apiVersion, kind string, v Versions) (*crdKind, *Problem) {
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	gvk := apiVersion + " " + kind
	target, ok := kubeTargets[group]
	if !ok {
		return nil, &Problem{Path: "/apiVersion", Message: fmt.Sprintf("no schema for %s: API group %q belongs to no vendored target", gvk, group), Schema: "kubernetes"}
	}
	versions := KubeVersions(target)
	release := v[target]
	if release == "" && len(versions) > 0 {
		release = versions[len(versions)-1]
	}
	if !slices.Contains(versions, release) {
		return nil, &Problem{Path: "/apiVersion", Message: fmt.Sprintf("no schema for %s in %s@%s: the vendored versions are %s", gvk, target, release, strings.Join(versions, ", ")), Schema: target + "@" + release}
	}
	f, err := folder(kubeFS, target, release)
	if err != nil {
		return nil, &Problem{Message: "the vendored schemas do not load: " + err.Error(), Schema: target + "@" + release}
	}
	k := f.kinds[kindKey(apiVersion, kind)]
	if k == nil {
		return nil, &Problem{Path: "/apiVersion", Message: fmt.Sprintf("no schema for %s in %s@%s (it serves %s)", gvk, target, release, strings.Join(servedKinds(f), "; ")), Schema: target + "@" + release}
	}
	return k, nil
}

func servedKinds(f *kubeFolder) []string {
	var ks []string
	for key := range f.kinds {
		ks = append(ks, key)
	}
	slices.Sort(ks)
	return ks
}

// leaves are the errors with no causes: each is one thing wrong at one
// place. An anyOf/oneOf failure keeps its own message when its branches
// disagree about where.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// pointer is a JSON pointer (RFC 6901) of an instance location.
func pointer(loc []string) string {
	var sb strings.Builder
	for _, tok := range loc {
		sb.WriteByte('/')
		sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	return sb.String()
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "list"
	}
	return "object"
}
