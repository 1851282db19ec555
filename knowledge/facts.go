package knowledge

import "fmt"

// Fact is one sourced item of the knowledge base, named the way kb check
// names it ("rule \"no-gpu-no-sglang\"", "product \"kserve\" landmine …"),
// with where it was written and its sources.
type Fact struct {
	What    string
	Pos     Pos
	Sources Sources
}

// Facts lists every sourced item in knowledge-base order: products (and
// their landmines, course-notes corrections, licence, governance and
// release and images), rules, needs, capabilities, tie-breaks, flags,
// models, GPUs and deployment targets (and their features).
func (kb *KB) Facts() []Fact {
	var out []Fact
	add := func(what string, pos Pos, ss Sources) {
		if len(ss) > 0 {
			out = append(out, Fact{what, pos, ss})
		}
	}
	for _, p := range kb.Products {
		what := fmt.Sprintf("product %q", p.ID)
		add(what, p.Pos, p.Sources)
		for _, m := range p.Landmines {
			add(fmt.Sprintf("%s landmine %q", what, m.ID), p.Pos, m.Sources)
		}
		for i, n := range p.SeedNotes {
			add(fmt.Sprintf("%s course-notes correction %d", what, i+1), p.Pos, n.Sources)
		}
		add(what+" licence", p.Pos, p.Licence.Sources)
		add(what+" governance", p.Pos, p.Governance.Sources)
		add(what+" release", p.Pos, p.Release.Sources)
		for _, img := range p.Images {
			add(fmt.Sprintf("%s image %q", what, img.ID), p.Pos, img.Sources)
		}
	}
	for _, r := range kb.Rules {
		add(fmt.Sprintf("rule %q", r.ID), r.Pos, r.Sources)
	}
	for _, n := range kb.Needs {
		add(fmt.Sprintf("need %q", n.ID), n.Pos, n.Sources)
	}
	for _, c := range kb.Capabilities {
		add(fmt.Sprintf("capability %q", c.Product+"/"+c.What), c.Pos, c.Sources)
	}
	for _, t := range kb.TieBreaks {
		add(fmt.Sprintf("tiebreak %q", t.ID), t.Pos, t.Sources)
	}
	for _, f := range kb.Flags {
		add(fmt.Sprintf("flag %q", f.ID), f.Pos, f.Sources)
	}
	for _, m := range kb.Models {
		add(fmt.Sprintf("model %q", m.ID), m.Pos, m.Sources)
	}
	for _, g := range kb.GPUs {
		what := fmt.Sprintf("gpu %q", g.ID)
		add(what, g.Pos, g.Sources)
		add(what+" non_torch", g.Pos, g.NonTorchSources)
	}
	for _, t := range kb.Targets {
		what := fmt.Sprintf("target %q", t.ID)
		add(what, t.Pos, t.Sources)
		for _, f := range t.Features {
			add(fmt.Sprintf("%s feature %q", what, f.ID), t.Pos, f.Sources)
		}
	}
	return out
}
