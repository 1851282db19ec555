package knowledge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

func TestASubstrateThatContradictsTheKubernetesAnswerIsAnAnswerError(t *testing.T) {
	kb := knowledge.MustDefault()
	cases := []struct {
		name, src, want string
	}{
		{"openshift without kubernetes", "nodes = 2\nkubernetes = \"none\"\nsubstrate = \"openshift\"\n",
			`a.toml:3: substrate: substrate = "openshift" runs on Kubernetes, but kubernetes = "none" says the platform has none; write kubernetes = "available"`},
		{"slurm where kubernetes is required", "kubernetes = \"required\"\n\nsubstrate = \"slurm\"\n",
			`a.toml:3: substrate: substrate = "slurm" has no Kubernetes, but kubernetes = "required" says Kubernetes is a requirement; write kubernetes = "none"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := kb.ParseAnswers("a.toml", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %s", err, c.want)
			}
		})
	}
	// A defaulted kubernetes yields to a stated substrate, and stays a
	// default (an assumption), not the user's answer.
	a, err := kb.ParseAnswers("a.toml", []byte("substrate = \"managed-cloud\"\n"))
	if err != nil || a.Get("kubernetes").Str != "available" || a.StatedKey("kubernetes") || !a.StatedKey("substrate") {
		t.Fatalf("substrate = managed-cloud over the kubernetes default: %v, kubernetes %q stated %v", err, a.Get("kubernetes").Str, a.StatedKey("kubernetes"))
	}
	for _, ok := range []string{"substrate = \"slurm\"\n", "kubernetes = \"available\"\nsubstrate = \"bare-metal\"\n", "kubernetes = \"required\"\nsubstrate = \"openshift\"\n"} {
		if _, err := kb.ParseAnswers("a.toml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestPlatformAndReplicasPerModelAreDerived(t *testing.T) {
	kb := knowledge.MustDefault()
	cases := []struct {
		src      string
		platform string
		replicas int
	}{
		{"", "bare-metal", 1},
		{"kubernetes = \"available\"\nnodes = 4\n", "kubernetes", 4},
		{"kubernetes = \"required\"\nsubstrate = \"openshift\"\nnodes = 2\nbase_models = 2\n", "openshift", 1},
		{"nodes = 3\nbase_models = 2\n", "bare-metal", 1},
		{"nodes = 2\nreplicas = 6\n", "bare-metal", 6},
	}
	for _, c := range cases {
		a, err := kb.ParseAnswers("a.toml", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Get(knowledge.DerivedPlatform).Str; got != c.platform {
			t.Errorf("%q: platform %s, want %s", c.src, got, c.platform)
		}
		if got := a.Get(knowledge.DerivedReplicasPerModel).Int; got != c.replicas {
			t.Errorf("%q: replicas_per_model %d, want %d", c.src, got, c.replicas)
		}
	}
}

func TestTheAppOffersOnlySubstratesTheKubernetesAnswerAllows(t *testing.T) {
	kb := knowledge.MustDefault()
	a := kb.Defaults() // kubernetes = none
	if got := a.ConsistentValues(knowledge.KeySubstrate); !slices.Equal(got, []string{"auto", "slurm", "bare-metal"}) {
		t.Errorf("without Kubernetes: %v", got)
	}
	a = a.With(kb.QuestionIndex(knowledge.KeySubstrate), knowledge.Value{Str: "openshift"})
	if got := a.ConsistentValues(knowledge.KeyKubernetes); !slices.Equal(got, []string{"available", "required"}) {
		t.Errorf("on OpenShift: %v", got)
	}
	if kb.Check(a) == nil {
		t.Error("Check lets openshift × kubernetes = none through")
	}
}

func TestTheAnswerJustGivenWinsAContradiction(t *testing.T) {
	kb := knowledge.MustDefault()
	sub, k8s := kb.QuestionIndex(knowledge.KeySubstrate), kb.QuestionIndex(knowledge.KeyKubernetes)
	start := kb.Defaults() // kubernetes = none, substrate = auto
	a, moved := start.With(sub, knowledge.Value{Str: "openshift"}).Reconcile(start)
	if moved == nil || moved.Q.Key != knowledge.KeyKubernetes || a.Get(knowledge.KeyKubernetes).Str != "available" {
		t.Fatalf("substrate openshift: moved %+v, kubernetes %s", moved, a.Get(knowledge.KeyKubernetes).Str)
	}
	b, moved := a.With(k8s, knowledge.Value{Str: "none"}).Reconcile(a)
	if moved == nil || moved.Q.Key != knowledge.KeySubstrate || b.Get(knowledge.KeySubstrate).Str != "auto" {
		t.Fatalf("kubernetes none on openshift: moved %+v, substrate %s", moved, b.Get(knowledge.KeySubstrate).Str)
	}
	req := start.With(k8s, knowledge.Value{Str: "required"})
	c, moved := req.With(sub, knowledge.Value{Str: "slurm"}).Reconcile(req)
	if moved == nil || c.Get(knowledge.KeyKubernetes).Str != "none" || kb.Check(c) != nil {
		t.Fatalf("slurm where kubernetes was required: moved %+v, kubernetes %s", moved, c.Get(knowledge.KeyKubernetes).Str)
	}
	if _, moved := start.Reconcile(start); moved != nil {
		t.Errorf("no contradiction, moved %+v", moved)
	}
}

// An Apple silicon machine is one GPU: a defaulted gpus_per_node yields to
// 1 and stays a default; a stated count stays as written.
func TestAppleSiliconIsOneGPUPerMachine(t *testing.T) {
	kb := knowledge.MustDefault()
	a, err := kb.ParseAnswers("a.toml", []byte("gpu = \"m3-ultra-512gb\"\n"))
	if err != nil || a.Get("gpus_per_node").Int != 1 || a.StatedKey("gpus_per_node") {
		t.Fatalf("defaulted gpus_per_node on Apple silicon: %v, %d, stated %v", err, a.Get("gpus_per_node").Int, a.StatedKey("gpus_per_node"))
	}
	a, err = kb.ParseAnswers("a.toml", []byte("gpu = \"m3-ultra-512gb\"\ngpus_per_node = 2\n"))
	if err != nil || a.Get("gpus_per_node").Int != 2 {
		t.Fatalf("a stated count is kept: %v, %d", err, a.Get("gpus_per_node").Int)
	}
}

// In the app, a value moved to agree with another answer does not outlive
// its reason: after substrate openshift then slurm, kubernetes is its
// default again, and the saved answers replay to the same answers.
func TestReconciledAnswersReplayAsTheyWere(t *testing.T) {
	kb := knowledge.MustDefault()
	sub := kb.QuestionIndex("substrate")
	a := kb.Defaults()
	for _, v := range []string{"openshift", "slurm"} {
		b := a.With(sub, knowledge.Value{Str: v})
		a, _ = b.Reconcile(a)
		if v == "openshift" && (a.Get("kubernetes").Str != "available" || a.StatedKey("kubernetes")) {
			t.Fatalf("under openshift kubernetes is %q (stated %v)", a.Get("kubernetes").Str, a.StatedKey("kubernetes"))
		}
	}
	if a.Get("kubernetes").Str != "none" {
		t.Fatalf("under slurm kubernetes stayed %q", a.Get("kubernetes").Str)
	}
	back, err := kb.ParseAnswers("a.toml", a.TOML(""))
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range kb.Questions {
		if !back.Values()[i].Equal(a.Values()[i], q.Type) || back.Stated(i) != a.Stated(i) {
			t.Errorf("%s: replayed %v (stated %v), was %v (stated %v)", q.Key, back.Values()[i], back.Stated(i), a.Values()[i], a.Stated(i))
		}
	}
}

// gpus_per_node = 0 says the nodes have no accelerator: with a stated
// accelerator it is an answer error; a defaulted gpu yields to cpu.
func TestNoAcceleratorPerNodeAgreesWithTheGPU(t *testing.T) {
	kb := knowledge.MustDefault()
	if _, err := kb.ParseAnswers("a.toml", []byte("gpus_per_node = 0\ngpu = \"h100\"\n")); err == nil || !strings.Contains(err.Error(), `a.toml:1: gpus_per_node: gpus_per_node = 0 means the nodes have no accelerator, but gpu = "h100" names one`) {
		t.Fatalf("got %v", err)
	}
	a, err := kb.ParseAnswers("a.toml", []byte("gpus_per_node = 0\n"))
	if err != nil || a.Get("gpu").Str != "cpu" || a.StatedKey("gpu") {
		t.Fatalf("defaulted gpu under gpus_per_node = 0: %v, %q", err, a.Get("gpu").Str)
	}
	// In the app the answer just given wins.
	gpn, gpu := kb.QuestionIndex("gpus_per_node"), kb.QuestionIndex("gpu")
	b := kb.Defaults().Confirm(gpu, knowledge.Value{Str: "h100"})
	c, ch := b.With(gpn, knowledge.Value{Int: 0}).Reconcile(b)
	if ch == nil || c.Get("gpu").Str != "cpu" || c.Get("gpus_per_node").Int != 0 {
		t.Fatalf("gpus_per_node → 0 after gpu h100: gpu %q, gpus_per_node %d, change %v", c.Get("gpu").Str, c.Get("gpus_per_node").Int, ch)
	}
}
