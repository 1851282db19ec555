package manifest

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stackpick/stackpick/knowledge"
)

// placeholderNames is what a placeholder is called: NAMESPACE, HF_TOKEN_SECRET.
var placeholderNames = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`) })

// dnsLabel is a Kubernetes name (RFC 1123 label): what a namespace or a
// Secret's name must be.
var dnsLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`) })

// A placeholder's kind says what a --set value for it must look like.
type phKind uint8

const (
	phText    phKind = iota // any one line of text
	phName                  // a Kubernetes name (RFC 1123 label)
	phObject                // a Kubernetes object's name (RFC 1123 subdomain: a Secret's)
	phImage                 // a whole image reference, with its tag or digest
	phCPU                   // a Kubernetes CPU quantity (16, 500m)
	phMemory                // a Kubernetes memory quantity with its unit (128Gi)
	phURI                   // a URI with its scheme (hf://, pvc://, s3://, oci://)
	phHostDir               // an absolute folder on the host (no ':', a Compose volume's separator)
	phBackend               // a Triton backend's name (letters, digits, _)
)

// The shapes a --set value must have, by placeholder kind, with an
// example of each.
var (
	imageRef = sync.OnceValue(func() *regexp.Regexp {
		// registry[:port]/name[/name…] with a tag, a digest or both, as
		// Docker's reference grammar has them (a lower-case path).
		return regexp.MustCompile(`^([a-zA-Z0-9.-]+(:[0-9]+)?/)?[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(@sha256:[0-9a-f]{64})?|@sha256:[0-9a-f]{64})$`)
	})
	// A Kubernetes quantity, as the CRDs' Quantity pattern has it (Dynamo's
	// vendored CRD: sign, number, then a binary or decimal SI suffix or a
	// decimal exponent), the exponent an integer as apimachinery parses it.
	quantityForm = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([KMGTPE]i|[numkMGTPE])|[eE]([+-]?[0-9]{1,3}))?$`)
	})
	uriScheme    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9+.-]*://\S+$`) })
	hostDir      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[^:]*$`) })
	dnsSubdomain = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	})
	backendID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_]+$`) })
)

// kindShapes says, per kind, what a value must be (a test of it, and in
// words) and an example.
var kindShapes = map[phKind]struct {
	valid   func(string) bool
	must    string
	example string
}{
	phObject:  {matches(dnsSubdomain), "a Kubernetes object's name (lower-case letters, digits, '-' and '.', at most 253, each part starting and ending with a letter or digit)", "hf-token"},
	phName:    {matches(dnsLabel), "a Kubernetes name (lower-case letters, digits and '-', at most 63, starting and ending with a letter or digit)", "llm-serving"},
	phImage:   {matches(imageRef), "a whole image reference: registry/name:tag (or @sha256:digest)", "ghcr.io/owner/image:1.0"},
	phCPU:     {quantityAtLeast(0.001), "a Kubernetes CPU quantity of at least 1m: cores (16, 0.5, 1e1) or millicores (500m)", "16"},
	phMemory:  {quantityAtLeast(1e6), "a Kubernetes memory quantity of at least 1M (10^6 bytes), with its unit (Mi, Gi, Ti, M, G…) or as bytes (137e9)", "128Gi"},
	phURI:     {matches(uriScheme), "a URI with its scheme, such as hf://, pvc://, s3:// or oci://", "hf://meta-llama/Llama-3.3-70B-Instruct"},
	phHostDir: {matches(hostDir), "an absolute folder on this host, without ':' (Compose's volume separator)", "/srv/models"},
	phBackend: {matches(backendID), "a Triton backend's name: letters, digits and _", "onnxruntime"},
}

func matches(re func() *regexp.Regexp) func(string) bool {
	return func(s string) bool { return re().MatchString(s) }
}

// quantityAtLeast takes a Kubernetes quantity (quantityForm) whose value
// is min or more: a server of no CPU or no memory is no server, and one
// below a core's thousandth or a megabyte is a slip of the unit.
func quantityAtLeast(min float64) func(string) bool {
	scale := map[string]float64{"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
		"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60}
	return func(s string) bool {
		m := quantityForm().FindStringSubmatch(s)
		if m == nil {
			return false
		}
		n, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return false
		}
		if m[3] != "" {
			exp, _ := strconv.Atoi(m[3])
			n *= math.Pow(10, float64(exp))
		} else {
			n *= scale[m[2]]
		}
		return n >= min && !math.IsInf(n, 0)
	}
}

// ph is the value of placeholder name: the --set value when one was
// given, else "${NAME}", which the header explains. explains says what to
// put there and where it comes from; the first use of a name records it.
func (g *gen) ph(name string, kind phKind, explains string) string {
	if !placeholderNames().MatchString(name) || (explains == "" && !slices.Contains(g.used, name)) {
		panic("manifest: placeholder " + name + " needs an upper-case name and, at its first use, an explanation")
	}
	if !slices.Contains(g.used, name) {
		g.used = append(g.used, name)
		g.explains[name] = explains
		g.kinds[name] = kind
	}
	if v, ok := g.req.Sets[name]; ok && v != "" {
		return v
	}
	return "${" + name + "}"
}

// checkSets fails on a --set that names no placeholder of these files, or
// whose value cannot stand where the placeholder stands.
func (g *gen) checkSets() error {
	var names []string
	for name := range g.req.Sets {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := g.req.Sets[name]
		if !slices.Contains(g.used, name) {
			hint := "these files have no placeholders"
			if len(g.used) > 0 {
				hint = "this stack's placeholders: " + strings.Join(g.used, ", ")
				if near := knowledge.Nearest(name, g.used); near != "" {
					hint = "did you mean " + near + "? " + hint
				}
			}
			return &UsageError{Problem: fmt.Sprintf("--set %s: the files for this stack have no placeholder %s", name, name), Hint: hint}
		}
		switch {
		case v == "":
			return &UsageError{Problem: fmt.Sprintf("--set %s= gives no value", name), Hint: "type --set " + name + "=VALUE, or leave it out to keep ${" + name + "}"}
		case strings.ContainsAny(v, "\n\r\x00"):
			return &UsageError{Problem: fmt.Sprintf("--set %s: the value holds a line break or a NUL", name), Hint: "a value is one line of text"}
		case strings.Contains(v, "$"):
			return &UsageError{Problem: fmt.Sprintf("--set %s=%s: the value holds '$', which Compose and envsubst read as the start of a variable, so the files would not say the same", name, v), Hint: "give the value as it is meant, without $ (expand a variable in the shell first: --set " + name + "=\"$VAR\" in double quotes)"}
		}
		if shape, ok := kindShapes[g.kinds[name]]; ok && (!shape.valid(v) || len(v) > 253) {
			return &UsageError{Problem: fmt.Sprintf("--set %s=%s: %s must be %s", name, v, name, shape.must), Hint: "for example --set " + name + "=" + shape.example}
		}
	}
	return nil
}

// ParseSets reads --set NAME=VALUE arguments.
func ParseSets(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		if !ok || !placeholderNames().MatchString(name) {
			return nil, &UsageError{Problem: fmt.Sprintf("--set %q: not NAME=VALUE with an upper-case placeholder name", a), Hint: "for example --set NAMESPACE=llm-serving"}
		}
		if prev, dup := out[name]; dup && prev != value {
			return nil, &UsageError{Problem: fmt.Sprintf("--set %s is given twice, as %q and %q", name, prev, value), Hint: "give each placeholder once"}
		}
		out[name] = value
	}
	return out, nil
}

// ParseTargets reads --target PROJECT@VERSION arguments.
func ParseTargets(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		id, v, ok := strings.Cut(a, "@")
		if !ok || id == "" || v == "" {
			return nil, &UsageError{Problem: fmt.Sprintf("--target %q: not PROJECT@VERSION", a), Hint: "for example --target kserve@v0.20.0"}
		}
		id = strings.ToLower(id)
		if prev, dup := out[id]; dup && prev != v {
			return nil, &UsageError{Problem: fmt.Sprintf("--target %s is given twice, as %s and %s", id, prev, v), Hint: "name each project once"}
		}
		out[id] = v
	}
	return out, nil
}
