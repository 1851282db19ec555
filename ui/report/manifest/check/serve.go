package check

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// rayFS holds the JSON Schemas derived by hand from Ray's pydantic models
// for the subset of a Serve config stackpick writes (serve-schema.json,
// llm-config.schema.json), one folder per Ray commit read.
//
//go:embed schemas/ray
var rayFS embed.FS

// ServeConfig checks a Ray Serve config (the standalone Serve config file,
// or the YAML string of a RayService's serveConfigV2) against the schema
// derived from Ray's pydantic models at the version v names for "ray" (the
// newest vendored when none): unknown keys are rejected everywhere, though
// Ray ignores them in ServeDeploySchema. Then, in every LLMConfig of a
// ray.serve.llm:build_openai_app application, autoscaling_config's
// max_replicas must not be below min_replicas (a pydantic validator the
// schema cannot say), engine_kwargs must not hold model or
// served_model_name (Ray sets them), and each engine_kwargs key must be a vLLM engine
// argument the knowledge base has a flag for, at the vLLM release v names
// for "vllm" (the knowledge base's when none).
func ServeConfig(name string, body []byte, v Versions) []Problem {
	version, err := vendoredVersion(rayFS, "schemas/ray", v["ray"])
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: "ray"}}
	}
	label := "ray@" + version + " Serve config (derived from ServeDeploySchema, LLMConfig)"
	sch, err := serveSchema(version)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: label}}
	}
	inst, err := yamlInstance(body)
	if err != nil {
		return []Problem{{File: name, Path: "/", Message: err.Error(), Schema: label}}
	}
	out := schemaProblems(name, 0, label, sch, inst, nil)
	for _, d := range deploymentOptions(inst) {
		out = append(out, replicasAndAutoscaling(name, label, d)...)
	}
	kb, err := embeddedKB()
	if err != nil {
		return append(out, Problem{File: name, Message: err.Error(), Schema: label})
	}
	release := vllmRelease(kb, v)
	for _, lc := range llmConfigs(inst) {
		if as, ok := valueAt(lc.value, []string{"deployment_config", "autoscaling_config"}); ok {
			out = append(out, replicaBounds(name, label, append(lc.at, "deployment_config", "autoscaling_config"), as)...)
		}
		kw, ok := lc.value["engine_kwargs"].(map[string]any)
		if !ok {
			continue
		}
		// Ray Serve LLM sets these two itself, from model_loading_config,
		// and refuses them here (vllm_models.py, get_initialization_kwargs).
		for _, k := range []string{"model", "served_model_name"} {
			if _, ok := kw[k]; ok {
				out = append(out, Problem{File: name, Path: jsonPointer(append(append([]string{}, lc.at...), "engine_kwargs", k)), Schema: label,
					Message: k + " is not allowed in engine_kwargs: Ray Serve LLM sets it from model_loading_config (model_source, model_id)"})
			}
		}
		for _, p := range engineKwargs(kb, release, jsonNumbers(kw), append(lc.at, "engine_kwargs")) {
			p.File, p.Schema = name, "vllm@"+release+" engine arguments (knowledge base)"
			out = append(out, p)
		}
	}
	return out
}

type located struct {
	at    []string
	value map[string]any
}

// llmConfigs finds the LLMConfigs of the build_openai_app applications.
func llmConfigs(inst any) []located {
	apps, _ := valueAt(inst, []string{"applications"})
	list, _ := apps.([]any)
	var out []located
	for i, a := range list {
		app, ok := a.(map[string]any)
		if !ok || app["import_path"] != "ray.serve.llm:build_openai_app" {
			continue
		}
		cfgs, _ := valueAt(app, []string{"args", "llm_configs"})
		cl, _ := cfgs.([]any)
		for j, c := range cl {
			if m, ok := c.(map[string]any); ok {
				out = append(out, located{[]string{"applications", fmt.Sprint(i), "args", "llm_configs", fmt.Sprint(j)}, m})
			}
		}
	}
	return out
}

// deploymentOptions finds the objects that take deployment options: each
// application's deployments, and each LLMConfig's deployment_config and
// ingress_deployment_config.
func deploymentOptions(inst any) []located {
	apps, _ := valueAt(inst, []string{"applications"})
	list, _ := apps.([]any)
	var out []located
	for i, a := range list {
		app, _ := a.(map[string]any)
		ds, _ := app["deployments"].([]any)
		for j, d := range ds {
			if m, ok := d.(map[string]any); ok {
				out = append(out, located{[]string{"applications", fmt.Sprint(i), "deployments", fmt.Sprint(j)}, m})
			}
		}
		if m, ok := valueAt(app, []string{"args", "ingress_deployment_config"}); ok {
			if mm, ok := m.(map[string]any); ok {
				out = append(out, located{[]string{"applications", fmt.Sprint(i), "args", "ingress_deployment_config"}, mm})
			}
		}
	}
	for _, lc := range llmConfigs(inst) {
		if m, ok := lc.value["deployment_config"].(map[string]any); ok {
			out = append(out, located{append(lc.at, "deployment_config"), m})
		}
	}
	return out
}

// replicasAndAutoscaling is DeploymentSchema's root validator
// validate_num_replicas_and_autoscaling_config: a whole num_replicas with
// an autoscaling_config is "Manually setting num_replicas is not allowed
// when autoscaling_config is provided." ("auto" or null may pair with one).
func replicasAndAutoscaling(name, label string, d located) []Problem {
	_, whole := number(d.value["num_replicas"])
	if as, has := d.value["autoscaling_config"]; whole && has && as != nil {
		return []Problem{{File: name, Path: jsonPointer(append(append([]string{}, d.at...), "num_replicas")), Message: "Manually setting num_replicas is not allowed when autoscaling_config is provided.", Schema: label}}
	}
	return nil
}

// replicaBounds is AutoscalingConfig's validator
// max_replicas_greater_than_or_equal_to_min_replicas: "max_replicas ({v})
// must be greater than or equal to min_replicas".
func replicaBounds(name, label string, at []string, as any) []Problem {
	m, ok := as.(map[string]any)
	if !ok {
		return nil
	}
	lo, lok := number(m["min_replicas"])
	hi, hok := number(m["max_replicas"])
	if !lok {
		lo, lok = 1, true // min_replicas: NonNegativeInt = 1
	}
	if hok && lok && hi < lo {
		return []Problem{{File: name, Path: jsonPointer(append(append([]string{}, at...), "max_replicas")), Message: fmt.Sprintf("max_replicas (%v) must be greater than or equal to min_replicas (%v)", hi, lo), Schema: label}}
	}
	return nil
}

// number reads a number of an instance jsonschema decoded.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

// jsonNumbers turns the numbers of a decoded instance into json.Number,
// the form engineKwargs judges, by a round trip.
func jsonNumbers(m map[string]any) map[string]any {
	raw, err := json.Marshal(m)
	if err != nil {
		return m
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out map[string]any
	if dec.Decode(&out) != nil {
		return m
	}
	return out
}

var serveSchemas sync.Map // version -> *compiledSchema

// serveSchema compiles a version's two derived schemas once.
func serveSchema(version string) (*jsonschema.Schema, error) {
	c, _ := serveSchemas.LoadOrStore(version, &compiledSchema{})
	cs := c.(*compiledSchema)
	cs.once.Do(func() {
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft7)
		comp.AssertFormat()
		for _, f := range []string{"serve-schema.json", "llm-config.schema.json"} {
			raw, err := readVendored(rayFS, "schemas/ray/"+version+"/"+f)
			if err != nil {
				cs.err = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				cs.err = fmt.Errorf("%s: %w", f, err)
				return
			}
			if err := comp.AddResource(f, doc); err != nil {
				cs.err = fmt.Errorf("%s: %w", f, err)
				return
			}
		}
		cs.sch, cs.err = comp.Compile("serve-schema.json")
	})
	return cs.sch, cs.err
}
