package check

import (
	"testing"
)

// benchKinds are the schemas the benchmarks compile: one per vendored CRD
// a generator writes.
var benchKinds = []struct{ target, release, apiVersion, kind, fixture string }{
	{"kserve", "v0.20.0", "serving.kserve.io/v1alpha2", "LLMInferenceService", "llminferenceservice.yaml"},
	{"kserve", "v0.20.0", "serving.kserve.io/v1beta1", "InferenceService", "inferenceservice.yaml"},
	{"gaie", "v1.6.0", "inference.networking.k8s.io/v1", "InferencePool", "inferencepool.yaml"},
	{"llm-d", "v0.10.0", "llm-d.ai/v1alpha2", "InferenceObjective", "inferenceobjective.yaml"},
	{"lws", "v0.10.0", "disaggregatedset.x-k8s.io/v1", "DisaggregatedSet", "disaggregatedset.yaml"},
	{"lws", "v0.10.0", "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "leaderworkerset.yaml"},
	{"kuberay", "v1.7.0", "ray.io/v1", "RayService", "rayservice.yaml"},
	{"kubernetes", "v1.36.3", "apps/v1", "Deployment", "deployment.yaml"},
	{"dynamo", "main@0fddc01", "nvidia.com/v1beta1", "DynamoGraphDeployment", "dynamographdeployment.yaml"},
}

// BenchmarkCompileCRD is the cost of turning one kind's openAPIV3Schema
// into a compiled strict schema (what the sync.Once cache pays once per
// process): go test ./ui/report/manifest/check -run X -bench CompileCRD
func BenchmarkCompileCRD(b *testing.B) {
	for _, k := range benchKinds {
		b.Run(k.kind, func(b *testing.B) {
			f, err := folder(kubeFS, k.target, k.release)
			if err != nil {
				b.Fatal(err)
			}
			ck := f.kinds[kindKey(k.apiVersion, k.kind)]
			if ck == nil {
				b.Fatalf("no %s %s", k.apiVersion, k.kind)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := compileStrict(ck.raw, "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadFolder is the cost of reading one vendored folder
// (gunzip, YAML to JSON, every CRD in it), paid once per folder.
func BenchmarkLoadFolder(b *testing.B) {
	for _, f := range []struct{ target, release string }{{"kserve", "v0.20.0"}, {"gaie", "v1.6.0"}, {"lws", "v0.10.0"}, {"kuberay", "v1.7.0"}} {
		b.Run(f.target, func(b *testing.B) {
			for b.Loop() {
				if _, err := loadFolder(kubeFS, f.target, f.release); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidateObject is the cost of checking one object once its
// schema is compiled and its rules are cached: schema, then CEL.
func BenchmarkValidateObject(b *testing.B) {
	for _, k := range benchKinds {
		b.Run(k.kind, func(b *testing.B) {
			body := fixture(b, k.fixture)
			v := Versions{k.target: k.release}
			if ps := Kubernetes(k.fixture, body, v); len(ps) != 0 {
				b.Fatalf("the fixture fails: %v", ps)
			}
			b.ResetTimer()
			for b.Loop() {
				_ = Kubernetes(k.fixture, body, v)
			}
		})
	}
}
