package tui

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// A substrate that contradicts the Kubernetes answer never reaches a
// decision: choosing OpenShift while kubernetes = none moves kubernetes to
// "available" and says so, and the Kubernetes question then offers only the
// values that agree with OpenShift.
func TestAContradictorySubstrateMovesKubernetesAndSaysSo(t *testing.T) {
	for _, sz := range goldenSizes {
		d := newDriver(t, sz.w, sz.h)
		d.press("n")
		if got := d.m.c.session.answers.Get(knowledge.KeyKubernetes).Str; got != knowledge.KubernetesNone {
			t.Fatalf("a new decision starts with kubernetes = %s", got)
		}
		d.focusField(knowledge.KeySubstrate)
		d.press("down") // auto → kubernetes
		if !strings.Contains(d.m.c.Status, "kubernetes moved from none to available") {
			t.Errorf("%dx%d: status %q does not say kubernetes moved", sz.w, sz.h, d.m.c.Status)
		}
		d.press("down") // → openshift
		a := d.m.c.session.answers
		if got := a.Get(knowledge.KeySubstrate).Str; got != knowledge.PlatformOpenShift {
			t.Fatalf("%dx%d: substrate %s, want openshift:\n%s", sz.w, sz.h, got, d.view())
		}
		if got := a.Get(knowledge.KeyKubernetes).Str; got != knowledge.KubernetesAvailable {
			t.Errorf("%dx%d: kubernetes stayed %s beside an OpenShift substrate", sz.w, sz.h, got)
		}
		if err := d.m.c.KB.Check(a); err != nil {
			t.Errorf("%dx%d: the session holds answers that contradict: %v", sz.w, sz.h, err)
		}
		d.focusField(knowledge.KeyKubernetes)
		s := d.screen().(*formScreen)
		for _, b := range s.bindings {
			if b.q.Key == knowledge.KeyKubernetes && strings.Join(b.offer, ",") != "available,required" {
				t.Errorf("%dx%d: on OpenShift the Kubernetes question offers %v", sz.w, sz.h, b.offer)
			}
		}
		if v := d.view(); strings.Contains(v, "none: no Kubernetes") {
			t.Errorf("%dx%d: kubernetes = none is offered beside OpenShift:\n%s", sz.w, sz.h, v)
		}
	}
}

// gpus_per_node = 0 moves a defaulted gpu to cpu, and the form shows it at
// once: the gpu field never re-applies the value it replaced, so the
// answers hold still however many updates follow.
func TestNoAcceleratorPerNodeMovesTheGPUAndHoldsStill(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.press("n")
	d.focusField(knowledge.KeyGPUsPerNode)
	d.press("backspace").typeText("0")
	for range 4 {
		d.press("tab", "shift+tab")
		a := d.m.c.session.answers
		if a.Get(knowledge.KeyGPU).Str != knowledge.GPUCPU || a.Get(knowledge.KeyGPUsPerNode).Int != 0 {
			t.Fatalf("after gpus_per_node = 0: gpu %s, gpus_per_node %d:\n%s", a.Get(knowledge.KeyGPU).Str, a.Get(knowledge.KeyGPUsPerNode).Int, d.view())
		}
		if a.StatedKey(knowledge.KeyGPU) {
			t.Fatal("the gpu moved to agree is marked as the user's answer")
		}
	}
}
