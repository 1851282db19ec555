package check

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"sigs.k8s.io/yaml"
)

// composeFS holds compose-spec's schema/compose-spec.json, one folder per
// vendored commit (compose-spec has no release tags).
//
//go:embed schemas/compose
var composeFS embed.FS

// Compose checks a Compose file against compose-spec's JSON Schema
// (draft-07) at the version v names for "compose" (the newest vendored when
// v names none). Interpolation (${VAR}, $VAR) is valid in any string, as
// Compose interpolates before it validates: a string holding one is never
// reported, whatever the schema wants there.
func Compose(name string, body []byte, v Versions) []Problem {
	version, err := vendoredVersion(composeFS, "schemas/compose", v["compose"])
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: "compose"}}
	}
	label := "compose@" + version + " compose-spec.json"
	sch, err := composeSchema(version)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: label}}
	}
	inst, err := yamlInstance(body)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: label}}
	}
	return schemaProblems(name, 0, label, sch, inst, interpolated)
}

var composeSchemas sync.Map // version -> *compiledSchema

type compiledSchema struct {
	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

// composeSchema compiles the vendored compose-spec.json once per version.
func composeSchema(version string) (*jsonschema.Schema, error) {
	c, _ := composeSchemas.LoadOrStore(version, &compiledSchema{})
	cs := c.(*compiledSchema)
	cs.once.Do(func() {
		cs.sch, cs.err = compileVendoredJSON(composeFS, "schemas/compose/"+version+"/compose-spec.json.gz", "compose_spec.json", jsonschema.Draft7)
	})
	return cs.sch, cs.err
}

// compileVendoredJSON compiles one gzip-compressed JSON Schema from fsys.
// Formats are asserted, as kubeconform asserts them.
func compileVendoredJSON(fsys fs.FS, path, url string, draft *jsonschema.Draft) (*jsonschema.Schema, error) {
	raw, err := readVendored(fsys, path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sch, nil
}

// readVendored reads a vendored file, decompressing it when its name ends
// in .gz.
func readVendored(fsys fs.FS, path string) ([]byte, error) {
	raw, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// vendoredVersion is want when dir holds a folder of that name, the newest
// folder (by release order) when want is "", and an error naming the
// vendored ones otherwise.
func vendoredVersion(fsys fs.FS, dir, want string) (string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return "", err
	}
	var have []string
	for _, e := range entries {
		if e.IsDir() {
			have = append(have, e.Name())
		}
	}
	sort.Slice(have, func(i, j int) bool { return releaseLess(have[i], have[j]) })
	if len(have) == 0 {
		return "", fmt.Errorf("no schema vendored under %s", dir)
	}
	if want == "" {
		return have[len(have)-1], nil
	}
	for _, h := range have {
		if h == want || strings.TrimPrefix(h, "v") == strings.TrimPrefix(want, "v") {
			return h, nil
		}
	}
	return "", fmt.Errorf("version %q has no vendored schema under %s (vendored: %s)", want, dir, strings.Join(have, ", "))
}

// releaseLess orders "v0.9.0" before "v0.10.0" and "r25.10" before
// "r25.11": numeric parts compare as numbers, the rest as text.
func releaseLess(a, b string) bool {
	pa, pb := releaseParts(strings.TrimPrefix(a, "v")), releaseParts(strings.TrimPrefix(b, "v"))
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil && na != nb:
			return na < nb
		case (ea != nil || eb != nil) && pa[i] != pb[i]:
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

var releaseSep = regexp.MustCompile(`[0-9]+|[^0-9.]+`)

func releaseParts(s string) []string { return releaseSep.FindAllString(s, -1) }

// yamlInstance turns a YAML (or JSON) document into the value jsonschema
// validates.
func yamlInstance(body []byte) (any, error) {
	js, err := yaml.YAMLToJSON(body)
	if err != nil {
		return nil, fmt.Errorf("not YAML: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, fmt.Errorf("not a JSON value: %v", err)
	}
	return inst, nil
}

var englishPrinter = message.NewPrinter(language.English)

// schemaProblems validates inst against sch and turns each leaf error into
// a Problem at its instance path (a JSON pointer). skip, when not nil,
// drops the errors about a value it accepts (Compose's interpolated
// strings).
func schemaProblems(name string, doc int, label string, sch *jsonschema.Schema, inst any, skip func(any) bool) []Problem {
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{File: name, Doc: doc, Message: err.Error(), Schema: label}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if skip != nil {
			if v, found := valueAt(inst, e.InstanceLocation); found && skip(v) {
				return
			}
		}
		p := Problem{File: name, Doc: doc, Path: jsonPointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(englishPrinter), Schema: label}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	walk(ve)
	return out
}

// valueAt is the value at a location of an instance.
func valueAt(inst any, loc []string) (any, bool) {
	v := inst
	for _, tok := range loc {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonPointer writes a location as RFC 6901 does ("/services/vllm/ports").
func jsonPointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
	}
	return b.String()
}

// interpolation is Compose's ${VAR}, ${VAR:-default}, ${VAR?err} and $VAR
// (12-interpolation.md); $$ is a literal dollar.
var interpolation = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)

// interpolated says whether v is a string Compose interpolates, which the
// schema sees only after substitution.
func interpolated(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	return interpolation.MatchString(strings.ReplaceAll(s, "$$", ""))
}
