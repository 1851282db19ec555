package check

import (
	"embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// chartFS holds, per llm-d-router release, the default values of the
// llm-d-router-standalone chart and of routerlib, the library chart it
// depends on under the alias "router" (its Chart.yaml: "- name: router …
// repository: "file://../routerlib" … alias: router"), whose values are
// the defaults of the standalone chart's router.* keys.
//
//go:embed schemas/llm-d
var chartFS embed.FS

// templateKey is a key path the chart's templates read that its default
// values leave out (commented out, or absent), so a values file may set
// it: each with the template line that reads it, at both vendored
// releases unless since says otherwise.
type templateKey struct {
	path  string // dotted, under the chart's values root
	shape string // "map" (free-form), "list" or "scalar"
	since string // the first vendored release whose templates read it, "" for all
	quote string
}

var chartTemplateKeys = []templateKey{
	// The InferencePool selector and the EPP's --endpoint-selector.
	{"router.modelServers.matchLabels", "map", "", `routerlib/templates/_inferencepool.yaml: "{{- range $key, $value := .Values.router.modelServers.matchLabels }}"; values.yaml: "# matchLabels: # REQUIRED"`},
	{"router.epp.flags", "map", "", `routerlib/templates/_deployment.yaml: "{{- $eppFlags := deepCopy (.Values.router.epp.flags | default dict) }}"`},
	{"router.epp.grpcHealthPort", "scalar", "", `routerlib/templates/_deployment.yaml: "{{- $grpcHealthPort := .Values.router.epp.grpcHealthPort | default 9003 }}"`},
	{"router.epp.volumeMounts", "list", "", `routerlib/templates/_deployment.yaml: "{{- toYaml .Values.router.epp.volumeMounts | nindent 12 }}"`},
	{"router.epp.volumes", "list", "", `routerlib/templates/_deployment.yaml: "{{- toYaml .Values.router.epp.volumes | nindent 8 }}"`},
	{"router.metricsPort", "scalar", "v0.10.0", `routerlib/templates/_service.yaml (v0.10.0): "port: {{ $.Values.router.metricsPort | default 9090 }}"`},
}

// chartChoices are the values the chart accepts for a key, with where it
// says so.
var chartChoices = map[string]struct {
	values []string
	quote  string
}{
	"router.modelServers.type":         {[]string{"vllm", "sglang", "triton-tensorrt-llm", "trtllm-serve", "triton"}, `routerlib/values.yaml: "type: vllm # vllm, sglang, triton-tensorrt-llm, trtllm-serve, triton"`},
	"router.modelServers.protocol":     {[]string{"http", "grpc"}, `routerlib/values.yaml: "protocol: http # http, grpc"`},
	"router.proxy.mode":                {[]string{"sidecar", "service"}, `llm-d-router-standalone/templates/_validations.tpl: ".Values.router.proxy.mode must be one of [sidecar, service]"`},
	"router.proxy.proxyType":           {[]string{"envoy", "agentgateway"}, `llm-d-router-standalone/templates/_validations.tpl: ".Values.router.proxy.proxyType must be one of [envoy, agentgateway]"`},
	"router.inferencePool.failureMode": {[]string{"FailOpen", "FailClose"}, `rendered as the InferencePool's spec.endpointPickerRef.failureMode, whose CRD (gaie) says "enum: - FailOpen - FailClose"`},
}

// chartPorts are the keys that hold a TCP port: 1 to 65535, the range the
// InferencePool CRD gives spec.targetPorts[].number and
// endpointPickerRef.port.number ("maximum: 65535", "minimum: 1"), which
// these values become.
var chartPorts = []string{"router.modelServers.targetPorts.*.number", "router.epp.extProcPort"}

// HelmValues checks a values file for the llm-d router chart
// (llm-d-router-standalone) at the llm-d release v names for "llm-d" (the
// newest vendored when none) against the chart's default values, as the
// chart has no values.schema.json: every key path must exist in the
// defaults (the standalone chart's values over routerlib's under
// "router"), or be one the templates read (chartTemplateKeys), unless the
// default there is an empty map or list (free-form); a map where the
// defaults have a scalar or a list, or the reverse, is a wrong type; the
// items of a list are checked against the keys of the default's items; a
// few keys are checked for their choices and port ranges.
func HelmValues(name string, body []byte, v Versions) []Problem {
	version, err := vendoredVersion(chartFS, "schemas/llm-d", v["llm-d"])
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: "llm-d router chart"}}
	}
	label := "llm-d@" + version + " llm-d-router-standalone values.yaml"
	defaults, err := chartDefaults(version)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: label}}
	}
	var doc any
	if err := yaml.Unmarshal(body, &doc); err != nil {
		return []Problem{{File: name, Path: "/", Message: "not YAML: " + err.Error(), Schema: label}}
	}
	if doc == nil {
		return nil
	}
	extra := map[string]templateKey{}
	for _, k := range chartTemplateKeys {
		if k.since == "" || !releaseLess(version, k.since) {
			extra[k.path] = k
		}
	}
	c := valuesChecker{name: name, label: label, extra: extra}
	c.walk(nil, doc, defaults)
	return c.out
}

type valuesChecker struct {
	name, label string
	extra       map[string]templateKey
	out         []Problem
}

func (c *valuesChecker) add(path []string, format string, a ...any) {
	c.out = append(c.out, Problem{File: c.name, Path: jsonPointer(path), Message: fmt.Sprintf(format, a...), Schema: c.label})
}

// dotted is a path as the chart's templates name it, list indexes as "*".
func dotted(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			p = "*"
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

func shapeOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map"
	case []any:
		return "list"
	case nil:
		return "null"
	}
	return "scalar"
}

// walk checks got at path against def, the default there.
func (c *valuesChecker) walk(path []string, got, def any) {
	key := dotted(path)
	if ch, ok := chartChoices[key]; ok {
		if s, isStr := got.(string); !isStr || !contains(ch.values, s) {
			c.add(path, "got %v, want one of %s (%s)", got, strings.Join(ch.values, ", "), ch.quote)
		}
		return
	}
	if contains(chartPorts, key) {
		n, ok := got.(float64)
		if !ok || n != float64(int64(n)) || n < 1 || n > 65535 {
			c.add(path, "got %v, want a TCP port, a whole number from 1 to 65535", got)
		}
		return
	}
	gs, ds := shapeOf(got), shapeOf(def)
	if ds == "null" || gs == "null" {
		return // the defaults leave it unset, or the file unsets it
	}
	if gs != ds {
		c.add(path, "wrong type: got a %s, the chart's default here is a %s", gs, ds)
		return
	}
	switch g := got.(type) {
	case map[string]any:
		d := def.(map[string]any)
		if len(d) == 0 {
			return // free-form ({} in the defaults)
		}
		if key == "router.proxy" {
			d = withPresetKeys(d)
		}
		keys := make([]string, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub := append(append([]string{}, path...), k)
			if dv, ok := d[k]; ok {
				c.walk(sub, g[k], dv)
				continue
			}
			if tk, ok := c.extra[dotted(sub)]; ok {
				if s := shapeOf(g[k]); s != tk.shape && s != "null" {
					c.add(sub, "wrong type: got a %s, the chart's templates read a %s here (%s)", s, tk.shape, tk.quote)
				}
				continue
			}
			var have []string
			for dk := range d {
				have = append(have, dk)
			}
			sort.Strings(have)
			c.add(sub, "unknown key %q: the chart's default values have no %s (keys there: %s)", k, dotted(sub), strings.Join(have, ", "))
		}
	case []any:
		d := def.([]any)
		// The union of the default items' keys is what an item may have.
		union := map[string]any{}
		for _, item := range d {
			if m, ok := item.(map[string]any); ok {
				for k, v := range m {
					if _, seen := union[k]; !seen || union[k] == nil {
						union[k] = v
					}
				}
			}
		}
		if len(d) == 0 || len(union) == 0 {
			return // free-form ([] in the defaults), or a list of scalars
		}
		for i, item := range g {
			c.walk(append(append([]string{}, path...), strconv.Itoa(i)), item, union)
		}
	}
}

// withPresetKeys adds to router.proxy's defaults the keys of its presets:
// the standalone values.yaml says "The selected preset is merged with the
// top-level proxy.* fields below, so explicit user overrides still win"
// and "set proxy.image to replace the preset image", and llm-d's own
// guides/recipes/router/base.values.yaml sets router.proxy.args.
func withPresetKeys(proxy map[string]any) map[string]any {
	presets, _ := proxy["presets"].(map[string]any)
	if len(presets) == 0 {
		return proxy
	}
	out := make(map[string]any, len(proxy))
	for k, v := range proxy {
		out[k] = v
	}
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p, _ := presets[n].(map[string]any)
		for k, v := range p {
			if _, have := out[k]; !have {
				out[k] = v
			}
		}
	}
	return out
}

var chartCache sync.Map // version -> *chartDefault

type chartDefault struct {
	once sync.Once
	m    map[string]any
	err  error
}

// chartDefaults is the standalone chart's effective default values: its
// own values.yaml over routerlib's values.yaml under "router", with a key
// the standalone file leaves empty (router.modelServers: followed only by
// comments) keeping routerlib's default.
func chartDefaults(version string) (map[string]any, error) {
	v, _ := chartCache.LoadOrStore(version, &chartDefault{})
	cd := v.(*chartDefault)
	cd.once.Do(func() {
		dir := "schemas/llm-d/" + version + "/"
		var lib, sa map[string]any
		for _, f := range []struct {
			file string
			into *map[string]any
		}{{"routerlib-values.yaml.gz", &lib}, {"llm-d-router-standalone-values.yaml.gz", &sa}} {
			raw, err := readVendored(chartFS, dir+f.file)
			if err != nil {
				cd.err = err
				return
			}
			if err := yaml.Unmarshal(raw, f.into); err != nil {
				cd.err = fmt.Errorf("%s%s: %w", dir, f.file, err)
				return
			}
		}
		cd.m = mergeValues(map[string]any{"router": lib}, sa).(map[string]any)
	})
	return cd.m, cd.err
}

// mergeValues lays over on base, maps key by key; a null in over keeps
// base's value.
func mergeValues(base, over any) any {
	bm, bok := base.(map[string]any)
	om, ook := over.(map[string]any)
	if bok && ook {
		out := make(map[string]any, len(bm)+len(om))
		for k, v := range bm {
			out[k] = v
		}
		for k, v := range om {
			out[k] = mergeValues(bm[k], v)
		}
		return out
	}
	if over == nil {
		return base
	}
	return over
}
