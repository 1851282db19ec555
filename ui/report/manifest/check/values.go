package check

import (
	"embed"
	"fmt"
	"maps"
	"slices"
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
	c.eppConfigs(doc)
	return c.out
}

// eppBuiltinConfigs are the endpoint picker configurations the chart's
// ConfigMap holds of its own (routerlib/templates/_config.yaml at both
// vendored releases), which router.epp.pluginsConfigFile may name.
var eppBuiltinConfigs = []string{"default-plugins.yaml", "payload-agnostic.yaml"}

// eppPluginTypes are the endpoint picker plugin types stackpick writes or
// checks llm-d's guides with, each registered under this name at both vendored llm-d-router releases
// (v0.9.0, v0.10.0), with the file that registers it.
var eppPluginTypes = map[string]string{
	"approx-prefix-cache-producer": "pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.go",
	"prefix-cache-scorer":          "pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go",
	"queue-scorer":                 "pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go",
	"prefill-filter":               "pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go",
	"decode-filter":                "pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go",
	"max-score-picker":             "pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go",
	"disagg-profile-handler":       "pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go",
	"always-disagg-pd-decider":     "pkg/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.go",
	// the optimized-baseline guide's (the values file these checks are
	// tried on, testdata/llm-d-guides)
	"token-load-scorer":            "pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go",
	"inflight-load-producer":       "pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.go",
	"prefix-cache-affinity-filter": "pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go",
	"active-request-scorer":        "pkg/epp/framework/plugins/scheduling/scorer/activerequest/active_request.go",
}

// eppConfigKeys are EndpointPickerConfig's fields at both releases
// (apix/config/v1alpha1/endpointpickerconfig_types.go); the loader
// decodes strictly, so any other key fails the endpoint picker's start.
var eppConfigKeys = []string{"apiVersion", "kind", "featureGates", "plugins", "schedulingProfiles", "dataLayer", "flowControl", "requestHandler", "saturationDetector", "parser"}

// eppConfigs checks the endpoint picker configurations a values file
// gives in router.epp.pluginsCustomConfig (each a YAML text, which the
// chart's defaults leave free-form), and that pluginsConfigFile names one
// of them or one of the chart's own: the group and version the loader
// takes (llm-d.ai/v1alpha1, apix/config/v1alpha1), the config's fields,
// plugin types stackpick knows registered at the release, and every
// pluginRef and decider naming a plugin the config declares.
func (c *valuesChecker) eppConfigs(doc any) {
	epp, _ := dig(doc, "router", "epp").(map[string]any)
	if epp == nil {
		return
	}
	custom, _ := epp["pluginsCustomConfig"].(map[string]any)
	if file, ok := epp["pluginsConfigFile"]; ok {
		name, _ := file.(string)
		if _, isCustom := custom[name]; !isCustom && !contains(eppBuiltinConfigs, name) {
			c.add([]string{"router", "epp", "pluginsConfigFile"}, "names %v, which is neither in router.epp.pluginsCustomConfig nor one of the chart's own (%s)", file, strings.Join(eppBuiltinConfigs, ", "))
		}
	}
	for _, file := range slices.Sorted(maps.Keys(custom)) {
		path := []string{"router", "epp", "pluginsCustomConfig", file}
		text, ok := custom[file].(string)
		if !ok {
			c.add(path, "wrong type: got a %s, want the configuration's YAML as a string", shapeOf(custom[file]))
			continue
		}
		var cfg map[string]any
		if err := yaml.Unmarshal([]byte(text), &cfg); err != nil || cfg == nil {
			c.add(path, "not an endpoint picker configuration: %v", err)
			continue
		}
		at := func(more ...string) []string { return append(append([]string{}, path...), more...) }
		if v := cfg["apiVersion"]; v != "llm-d.ai/v1alpha1" {
			c.add(at("apiVersion"), "got %v, want llm-d.ai/v1alpha1, the version the endpoint picker's loader registers (apix/config/v1alpha1: GroupName = \"llm-d.ai\", Version: \"v1alpha1\")", v)
		}
		if v := cfg["kind"]; v != "EndpointPickerConfig" {
			c.add(at("kind"), "got %v, want EndpointPickerConfig", v)
		}
		for _, k := range slices.Sorted(maps.Keys(cfg)) {
			if !contains(eppConfigKeys, k) {
				c.add(at(k), "unknown key %q: EndpointPickerConfig has %s, and the loader decodes strictly", k, strings.Join(eppConfigKeys, ", "))
			}
		}
		declared := map[string]bool{}
		plugins, _ := cfg["plugins"].([]any)
		for i, p := range plugins {
			m, _ := p.(map[string]any)
			typ, _ := m["type"].(string)
			if _, ok := eppPluginTypes[typ]; !ok {
				c.add(at("plugins", strconv.Itoa(i), "type"), "plugin type %q is not one stackpick read registered at the release (%s)", typ, strings.Join(slices.Sorted(maps.Keys(eppPluginTypes)), ", "))
			}
			name, _ := m["name"].(string)
			if name == "" {
				name = typ // a plugin without a name is named by its type
			}
			declared[name] = true
		}
		for i, p := range plugins {
			m, _ := p.(map[string]any)
			deciders, _ := dig(m, "parameters", "deciders").(map[string]any)
			for stage, ref := range deciders {
				if s, _ := ref.(string); !declared[s] {
					c.add(at("plugins", strconv.Itoa(i), "parameters", "deciders", stage), "names %v, which no plugin of this configuration is", ref)
				}
			}
		}
		profiles, _ := cfg["schedulingProfiles"].([]any)
		if len(profiles) == 0 {
			c.add(at("schedulingProfiles"), "no scheduling profile")
		}
		for i, p := range profiles {
			m, _ := p.(map[string]any)
			refs, _ := m["plugins"].([]any)
			for j, r := range refs {
				rm, _ := r.(map[string]any)
				if s, _ := rm["pluginRef"].(string); !declared[s] {
					c.add(at("schedulingProfiles", strconv.Itoa(i), "plugins", strconv.Itoa(j), "pluginRef"), "names %v, which no plugin of this configuration is", rm["pluginRef"])
				}
			}
		}
	}
}

// dig is the value at keys under v, nil when a step is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
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
