package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// The answer sets of the Dynamo, Ray Serve and Dynamo-Triton shapes:
// every preset of them, plus Ray without Kubernetes and Dynamo aggregated.
var drtSets = []struct {
	name, scenario string
	change         map[string]any
}{
	{name: "nvidia-fleet", scenario: "nvidia-fleet"},
	{name: "nvidia-fleet-aggregated", scenario: "nvidia-fleet", change: map[string]any{"disaggregation": false, "cache_aware_routing": false}},
	{name: "request-pipeline", scenario: "request-pipeline"},
	{name: "request-pipeline-no-kubernetes", scenario: "request-pipeline", change: map[string]any{"kubernetes": "none"}},
	{name: "mixed-models", scenario: "mixed-models"},
}

func drtSet(t *testing.T, kb *knowledge.KB, scenario string, change map[string]any) (*decide.Decision, *manifest.Set) {
	t.Helper()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Find(all, scenario)
	if err != nil {
		t.Fatal(err)
	}
	a := sc.Answers.Clone()
	for k, v := range change {
		if err := a.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	d := decide.Decide(kb, a)
	s, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d, Origin: "scenario " + scenario, Version: "test"})
	if err != nil {
		t.Fatalf("%s: %v", scenario, err)
	}
	return &d, s
}

// Every file of these shapes passes the validator of its format at the
// versions it was written for, with no problem; the engine arguments each
// carries pass the knowledge base's flags at the engine's release.
func TestDRTFilesPassTheirSchemas(t *testing.T) {
	kb := knowledge.MustDefault()
	for _, c := range drtSets {
		t.Run(c.name, func(t *testing.T) {
			d, s := drtSet(t, kb, c.scenario, c.change)
			for _, f := range s.Files {
				var probs []Problem
				v := Versions(f.Targets)
				switch Format(f.Format) {
				case FormatKubernetes:
					if tg := kubeTarget(f.APIVersion); tg != "" && len(KubeVersions(tg)) == 0 {
						// Written for a target whose schema is not vendored
						// yet (Kubernetes would report only that): said
						// here; the engine arguments are still checked below.
						t.Logf("%s: no %s schema is vendored yet, so only its engine arguments are checked", f.Path, tg)
						break
					}
					probs = Kubernetes(f.Path, f.Body, v)
				case FormatCompose:
					probs = Compose(f.Path, f.Body, v)
				case FormatTriton:
					probs = TritonConfig(f.Path, f.Body, v)
				case FormatEngineJSON:
					probs = ModelJSON(kb, f.Path, f.Body, f.EngineRelease)
				case FormatServeConfig:
					// No Serve config schema is vendored yet: its engine
					// arguments are checked below.
				default:
					t.Errorf("%s: format %q has no validator", f.Path, f.Format)
				}
				probs = append(probs, drtEngineArgs(t, kb, d, f)...)
				for _, p := range probs {
					t.Errorf("%s", p)
				}
			}
		})
	}
}

// kubeTarget is the target whose schema checks apiVersion.
func kubeTarget(apiVersion string) string {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group = ""
	}
	return kubeTargets[group]
}

// drtEngineArgs checks the engine arguments a file carries, as they stand
// in the file's body: a Dynamo worker's container args (Dynamo's program
// and own flags aside), a Serve config's engine_kwargs (with its
// model_source as the model), against the knowledge base's flags, and
// that they are the file's Args, which the manifest tests compare with the
// launch command.
func drtEngineArgs(t *testing.T, kb *knowledge.KB, d *decide.Decision, f manifest.File) []Problem {
	t.Helper()
	var out []Problem
	switch {
	case f.Path == "dynamo.yaml":
		var dgd struct {
			Spec struct {
				Components []struct {
					Type        string `json:"type"`
					PodTemplate struct {
						Spec struct {
							Containers []struct {
								Command []string `json:"command"`
								Args    []string `json:"args"`
							} `json:"containers"`
						} `json:"spec"`
					} `json:"podTemplate"`
				} `json:"components"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(f.Body, &dgd); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		workers := 0
		for _, c := range dgd.Spec.Components {
			if c.Type == "frontend" {
				continue
			}
			workers++
			role := c.Type
			if role == "worker" {
				role = ""
			}
			ctr := c.PodTemplate.Spec.Containers[0]
			got := append(slices.Clone(ctr.Command), ctr.Args...)
			if !slices.Equal(got, f.Args[role]) {
				t.Errorf("%s %s worker: the container runs %q, the file's Args say %q", f.Path, c.Type, got, f.Args[role])
			}
			// As the launch command: vllm serve MODEL, then the flags up to
			// Dynamo's own.
			model, flags := ctr.Args[1], ctr.Args[2:]
			for i, w := range flags {
				if w == "--disaggregation-mode" || w == "--kv-events-config" {
					flags = flags[:i]
					break
				}
			}
			for _, p := range EngineArgs(kb, f.Engine, f.EngineRelease, append([]string{"vllm", "serve", model}, flags...)) {
				p.File = f.Path + " (" + c.Type + " worker)"
				out = append(out, p)
			}
		}
		if workers == 0 {
			t.Errorf("%s: no worker component", f.Path)
		}
	case f.Path == "rayservice.yaml", f.Path == "serve-config.yaml":
		serve := f.Body
		if f.Path == "rayservice.yaml" {
			var rs struct {
				Spec struct {
					ServeConfigV2 string `json:"serveConfigV2"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal(f.Body, &rs); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			serve = []byte(rs.Spec.ServeConfigV2)
		}
		var cfg struct {
			Applications []struct {
				ImportPath string `json:"import_path"`
				Args       struct {
					LLMConfigs []struct {
						ModelLoadingConfig struct {
							ModelSource string `json:"model_source"`
						} `json:"model_loading_config"`
						EngineKwargs map[string]any `json:"engine_kwargs"`
					} `json:"llm_configs"`
				} `json:"args"`
			} `json:"applications"`
		}
		if err := yaml.Unmarshal(serve, &cfg); err != nil {
			t.Fatalf("%s serve config: %v", f.Path, err)
		}
		if len(cfg.Applications) != 1 || cfg.Applications[0].ImportPath != manifest.RayServeApp || len(cfg.Applications[0].Args.LLMConfigs) != 1 {
			t.Fatalf("%s: want one application of %s with one LLM config, got %+v", f.Path, manifest.RayServeApp, cfg)
		}
		llm := cfg.Applications[0].Args.LLMConfigs[0]
		kw := map[string]any{"model": llm.ModelLoadingConfig.ModelSource}
		for k, v := range llm.EngineKwargs {
			kw[k] = v
		}
		if _, model := d.EngineConfig.Program(); llm.ModelLoadingConfig.ModelSource != model {
			t.Errorf("%s: model_source %q, the launch command serves %q", f.Path, llm.ModelLoadingConfig.ModelSource, model)
		}
		body, _ := json.Marshal(kw)
		out = append(out, ModelJSON(kb, f.Path+" engine_kwargs", body, f.EngineRelease)...)
		// One keyword per launch flag, no more.
		if n := drtFlagCount(f.Args[""]); len(llm.EngineKwargs) != n {
			t.Errorf("%s: %d engine_kwargs for the launch command's %d flags", f.Path, len(llm.EngineKwargs), n)
		}
	}
	return out
}

// drtFlagCount counts the flags in a flag list (words starting with --).
func drtFlagCount(args []string) int {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			n++
		}
	}
	return n
}

// The checks above fail on a bad file: a worker flag re-worded, an
// engine_kwargs key misspelt, a pbtxt field misspelt, a Compose key
// unknown.
func TestDRTFilesFailTheirSchemasWhenBroken(t *testing.T) {
	kb := knowledge.MustDefault()
	_, s := drtSet(t, kb, "mixed-models", nil)
	for _, f := range s.Files {
		var probs []Problem
		switch Format(f.Format) {
		case FormatTriton:
			probs = TritonConfig(f.Path, []byte(strings.Replace(string(f.Body), "backend:", "backnd:", 1)), Versions(f.Targets))
		case FormatEngineJSON:
			probs = ModelJSON(kb, f.Path, []byte(strings.Replace(string(f.Body), "max_model_len", "max_model_length", 1)), f.EngineRelease)
		case FormatCompose:
			probs = Compose(f.Path, []byte(strings.Replace(string(f.Body), "shm_size:", "shm_sise:", 1)), Versions(f.Targets))
		default:
			continue
		}
		if len(probs) == 0 {
			t.Errorf("%s: a broken copy passes", f.Path)
		}
	}
	d, s := drtSet(t, kb, "request-pipeline", nil)
	for _, f := range s.Files {
		if f.Path != "rayservice.yaml" {
			continue
		}
		bad := f
		bad.Body = []byte(strings.Replace(string(f.Body), "max_num_seqs:", "max_num_seq:", 1))
		if probs := drtEngineArgs(t, kb, d, bad); len(probs) == 0 {
			t.Error("rayservice.yaml with a misspelt engine_kwargs key passes")
		}
		bad.Body = []byte(strings.Replace(string(f.Body), "numOfHosts:", "numHosts:", 1))
		if probs := Kubernetes(f.Path, bad.Body, Versions(f.Targets)); len(probs) == 0 {
			t.Error("rayservice.yaml with an unknown field passes the CRD")
		}
	}
}

// The RayService uses no field KubeRay v1.7.0 added: it passes the older
// vendored CRD too (--target kuberay@v1.6.2).
func TestDRTRayServicePassesEveryVendoredKubeRay(t *testing.T) {
	kb := knowledge.MustDefault()
	_, s := drtSet(t, kb, "request-pipeline", nil)
	for _, f := range s.Files {
		if f.Path != "rayservice.yaml" {
			continue
		}
		for _, v := range KubeVersions("kuberay") {
			for _, p := range Kubernetes(f.Path, f.Body, Versions{"kuberay": v}) {
				t.Errorf("kuberay %s: %s", v, p)
			}
		}
	}
}
