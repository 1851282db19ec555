package check

import (
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// TestEveryGeneratedFileOfTheseFormatsPasses: for every preset, the files
// stackpick writes in the formats this file's checkers own (Compose,
// Triton config.pbtxt and model.json, Ray Serve config, router chart
// values) pass them at the versions each file names, and every file's
// container arguments pass EngineArgs at the engine release it names.
func TestEveryGeneratedFileOfTheseFormatsPasses(t *testing.T) {
	kb := testKB(t)
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[Format]int{}
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		set, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d, Origin: "scenario " + s.Name})
		if err != nil {
			continue // a stack stackpick writes no files for says so elsewhere
		}
		for _, f := range set.Files {
			v := Versions{}
			for k, x := range f.Targets {
				v[k] = x
			}
			if f.EngineRelease != "" && f.Engine == "vllm" {
				v["vllm"] = f.EngineRelease
			}
			var ps []Problem
			switch Format(f.Format) {
			case FormatCompose:
				ps = Compose(f.Path, f.Body, v)
			case FormatTriton:
				ps = TritonConfig(f.Path, f.Body, v)
			case FormatEngineJSON:
				ps = TritonModelJSON(f.Path, f.Body, v)
			case FormatServeConfig:
				ps = ServeConfig(f.Path, f.Body, v)
			case FormatHelmValues:
				ps = HelmValues(f.Path, f.Body, v)
			}
			switch Format(f.Format) {
			case FormatCompose, FormatTriton, FormatEngineJSON, FormatServeConfig, FormatHelmValues, FormatShell:
				checked[Format(f.Format)]++
			default:
				continue // Kubernetes objects: the crd checks' files
			}
			for _, p := range ps {
				t.Errorf("%s: %v", s.Name, p)
			}
			for role, args := range f.Args {
				if f.Engine == "" {
					continue
				}
				for _, p := range EngineArgs(kb, f.Engine, f.EngineRelease, args) {
					t.Errorf("%s %s (role %q): %v", s.Name, f.Path, role, p)
				}
			}
		}
	}
	if checked[FormatCompose] == 0 || checked[FormatTriton] == 0 || checked[FormatEngineJSON] == 0 || checked[FormatShell] == 0 {
		t.Errorf("the presets gave too few files to check: %v", checked)
	}
	t.Logf("files checked per format: %v", checked)
}
