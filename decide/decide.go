// Package decide turns answers and a knowledge base into a Decision: a pick
// per layer with the rules that support it, the alternatives with the rules
// that count against them, the landmines that apply, and the single-answer
// changes that would flip each pick. It is pure: no I/O, clock, randomness or
// terminal code, and the same input gives the same bytes out. Renderers read
// the Decision; none of them recomputes it. It must not import ui/.
package decide

import (
	"fmt"
	"slices"

	"github.com/stackpick/stackpick/knowledge"
)

// Schema names the JSON shape of a Decision.
const Schema = "stackpick.decision/v1"

// Decision is the whole defended recommendation.
type Decision struct {
	Schema  string            `json:"schema"`
	Answers knowledge.Answers `json:"answers"`
	Layers  []LayerPick       `json:"layers"`
	Risks   []Risk            `json:"risks"`
	Trace   []RuleTrace       `json:"trace"`
	// EngineConfig sizes the picked engine and writes its annotated launch
	// command (vLLM and SGLang; other engines say what is not covered).
	EngineConfig *EngineConfig `json:"engine_config,omitempty"`
}

// LayerPick is the decision for one layer.
type LayerPick struct {
	Layer string `json:"layer"`
	Pick  string `json:"pick"`
	// Score is the sum of the weights of the prefer rules that fired for the pick.
	Score        int                  `json:"score"`
	Also         []string             `json:"also"`
	Reasons      []Reason             `json:"reasons"`
	Alternatives []Alternative        `json:"alternatives"`
	Flips        []Flip               `json:"flips"`
	SeedNotes    []knowledge.SeedNote `json:"seed_notes"`
}

// Reason is a fired rule, as it bears on a product.
type Reason struct {
	Rule    string `json:"rule"`
	Text    string `json:"text"`
	Source  string `json:"source"`
	AsOf    string `json:"as_of,omitempty"`
	Effect  string `json:"effect"`
	Product string `json:"product"`
	Weight  int    `json:"weight,omitempty"`
	// When is the rule's conditions as they held for these answers.
	When string `json:"when"`
}

// Alternative is a product of the layer that was not picked.
type Alternative struct {
	Product  string   `json:"product"`
	Score    int      `json:"score"`
	Excluded bool     `json:"excluded"`
	WhyNot   []string `json:"why_not"`
	// Against lists the fired rules that count against it (exclusions and
	// negative weights); For lists those that spoke for it.
	Against []Reason `json:"against"`
	For     []Reason `json:"for"`
}

// Flip is one single-answer change that changes a layer's pick.
type Flip struct {
	Answer string   `json:"answer"`
	From   string   `json:"from"`
	To     string   `json:"to"`
	Pick   string   `json:"pick"`
	Also   []string `json:"also"`
	toInt  int
}

// Risk is a landmine of a picked product that applies to these answers, or
// a conflict between rules.
type Risk struct {
	Layer   string `json:"layer"`
	Product string `json:"product"`
	ID      string `json:"id"`
	Text    string `json:"text"`
	Watch   string `json:"watch,omitempty"`
	Source  string `json:"source"`
	AsOf    string `json:"as_of,omitempty"`
}

// RuleTrace records, for every rule, whether it fired and if not, the first
// condition that did not hold.
type RuleTrace struct {
	Rule   string `json:"rule"`
	Layer  string `json:"layer"`
	Fired  bool   `json:"fired"`
	Failed string `json:"failed,omitempty"`
}

// Decide makes the full decision, flips included.
func Decide(kb *knowledge.KB, a knowledge.Answers) Decision {
	d := decideNoFlips(kb, a)
	flips := computeFlips(kb, a, d)
	for i := range d.Layers {
		d.Layers[i].Flips = flips[i]
		if d.Layers[i].Layer == knowledge.LayerEngine {
			d.EngineConfig = engineConfig(kb, a, d.Layers[i].Pick)
		}
	}
	return d
}

// fired evaluates every rule against the answers.
func fired(kb *knowledge.KB, vals []knowledge.Value, out []bool) []bool {
	out = out[:0]
	for _, r := range kb.Rules {
		out = append(out, holds(r.Conds, vals))
	}
	return out
}

func holds(cs []knowledge.Cond, vals []knowledge.Value) bool {
	for i := range cs {
		if !cs[i].Holds(vals[cs[i].Q]) {
			return false
		}
	}
	return true
}

// choice is the bare outcome for one layer, without explanations.
type choice struct {
	pick     string
	also     []string
	cands    []string
	score    []int
	excluded []bool
	conflict []int // rule indexes of require rules overridden by an exclusion
}

// candidates lists the products a layer can pick: "none" first when the layer
// is optional (so an empty layer wins ties), then products in KB order.
func candidates(kb *knowledge.KB, layer *knowledge.Layer) []string {
	var c []string
	if layer.Optional {
		c = append(c, knowledge.None)
	}
	for _, p := range kb.ProductsOn(layer.ID) {
		c = append(c, p.ID)
	}
	return c
}

func choose(kb *knowledge.KB, layer *knowledge.Layer, cands []string, fire []bool) choice {
	ch := choice{cands: cands, score: make([]int, len(cands)), excluded: make([]bool, len(cands))}
	required := make([]bool, len(cands))
	anyRequired := false
	for ri, r := range kb.Rules {
		if !fire[ri] || r.Layer != layer.ID {
			continue
		}
		idx := slices.Index(cands, r.Product)
		if idx < 0 {
			continue
		}
		switch r.Effect {
		case knowledge.EffectPrefer:
			ch.score[idx] += r.Weight
		case knowledge.EffectExclude:
			ch.excluded[idx] = true
		case knowledge.EffectRequire:
			required[idx] = true
		}
	}
	for i := range cands {
		if required[i] && !ch.excluded[i] {
			anyRequired = true
		}
	}
	for ri, r := range kb.Rules {
		if fire[ri] && r.Layer == layer.ID && r.Effect == knowledge.EffectRequire {
			if idx := slices.Index(cands, r.Product); idx >= 0 && ch.excluded[idx] {
				ch.conflict = append(ch.conflict, ri)
			}
		}
	}
	best := -1
	for i := range cands {
		if ch.excluded[i] || (anyRequired && !required[i]) {
			continue
		}
		if best < 0 || ch.score[i] > ch.score[best] {
			best = i
		}
	}
	if best < 0 {
		// Everything is excluded: fall back to the first candidate that is
		// not, or to "none" on an optional layer; a conflict risk explains it.
		ch.pick = cands[0]
		return ch
	}
	ch.pick = cands[best]
	for ri, r := range kb.Rules {
		if fire[ri] && r.Layer == layer.ID && r.Effect == knowledge.EffectComplement && r.With == ch.pick {
			idx := slices.Index(cands, r.Product)
			if idx >= 0 && !ch.excluded[idx] && r.Product != ch.pick && !slices.Contains(ch.also, r.Product) {
				ch.also = append(ch.also, r.Product)
			}
		}
	}
	// KB order for complements, whatever order the rules came in.
	slices.SortFunc(ch.also, func(a, b string) int { return slices.Index(cands, a) - slices.Index(cands, b) })
	return ch
}

func decideNoFlips(kb *knowledge.KB, a knowledge.Answers) Decision {
	vals := a.Values()
	fire := fired(kb, vals, make([]bool, 0, len(kb.Rules)))
	d := Decision{Schema: Schema, Answers: a, Layers: []LayerPick{}, Risks: []Risk{}, Trace: []RuleTrace{}}
	for ri, r := range kb.Rules {
		t := RuleTrace{Rule: r.ID, Layer: r.Layer, Fired: fire[ri]}
		if !fire[ri] {
			for i := range r.Conds {
				if !r.Conds[i].Holds(vals[r.Conds[i].Q]) {
					t.Failed = r.Conds[i].String()
					break
				}
			}
		}
		d.Trace = append(d.Trace, t)
	}
	for _, layer := range kb.Layers {
		cands := candidates(kb, layer)
		ch := choose(kb, layer, cands, fire)
		lp := LayerPick{Layer: layer.ID, Pick: ch.pick, Also: nonNil(ch.also), Reasons: []Reason{}, Alternatives: []Alternative{}, Flips: []Flip{}, SeedNotes: []knowledge.SeedNote{}}
		pickIdx := slices.Index(cands, ch.pick)
		lp.Score = ch.score[pickIdx]
		for ri, r := range kb.Rules {
			if !fire[ri] || r.Layer != layer.ID {
				continue
			}
			supports := false
			switch r.Effect {
			case knowledge.EffectPrefer:
				supports = r.Product == ch.pick && r.Weight > 0
			case knowledge.EffectRequire:
				supports = r.Product == ch.pick
			case knowledge.EffectComplement:
				supports = r.With == ch.pick && slices.Contains(ch.also, r.Product)
			}
			if supports {
				lp.Reasons = append(lp.Reasons, reasonOf(r))
			}
		}
		lp.Alternatives = alternatives(kb, layer, ch, fire)
		if p := kb.Product(ch.pick); p != nil {
			lp.SeedNotes = append(lp.SeedNotes, p.SeedNotes...)
		}
		d.Layers = append(d.Layers, lp)
		for _, ri := range ch.conflict {
			r := kb.Rules[ri]
			d.Risks = append(d.Risks, Risk{Layer: layer.ID, Product: r.Product, ID: "conflict-" + r.ID,
				Text:   fmt.Sprintf("Rule %s requires %s, but another rule excludes it; the exclusion won. Check the answers or the rules.", r.ID, r.Product),
				Source: r.Source})
		}
		for _, id := range append([]string{ch.pick}, ch.also...) {
			p := kb.Product(id)
			if p == nil {
				continue
			}
			for _, m := range p.Landmines {
				if holds(m.Conds, vals) {
					d.Risks = append(d.Risks, Risk{Layer: layer.ID, Product: id, ID: m.ID, Text: m.Text, Watch: m.Watch, Source: m.Source, AsOf: m.AsOf})
				}
			}
		}
	}
	return d
}

func reasonOf(r *knowledge.Rule) Reason {
	return Reason{Rule: r.ID, Text: r.Reason, Source: r.Source, AsOf: r.AsOf, Effect: r.Effect, Product: r.Product, Weight: r.Weight, When: knowledge.DescribeConds(r.Conds)}
}

func alternatives(kb *knowledge.KB, layer *knowledge.Layer, ch choice, fire []bool) []Alternative {
	pickIdx := slices.Index(ch.cands, ch.pick)
	var out []Alternative
	for i, id := range ch.cands {
		if id == ch.pick || slices.Contains(ch.also, id) {
			continue
		}
		alt := Alternative{Product: id, Score: ch.score[i], Excluded: ch.excluded[i], WhyNot: []string{}, Against: []Reason{}, For: []Reason{}}
		for ri, r := range kb.Rules {
			if !fire[ri] || r.Layer != layer.ID || r.Product != id {
				continue
			}
			switch {
			case r.Effect == knowledge.EffectExclude:
				alt.Against = append(alt.Against, reasonOf(r))
				alt.WhyNot = append(alt.WhyNot, fmt.Sprintf("excluded by %s: %s", r.ID, r.Reason))
			case r.Effect == knowledge.EffectPrefer && r.Weight < 0:
				alt.Against = append(alt.Against, reasonOf(r))
				alt.WhyNot = append(alt.WhyNot, fmt.Sprintf("%s (%d): %s", r.ID, r.Weight, r.Reason))
			case r.Effect == knowledge.EffectPrefer || r.Effect == knowledge.EffectRequire:
				alt.For = append(alt.For, reasonOf(r))
			}
		}
		if !alt.Excluded {
			switch {
			case ch.score[i] < ch.score[pickIdx]:
				alt.WhyNot = append(alt.WhyNot, fmt.Sprintf("outscored: %s %d vs %s %d", kb.ProductName(ch.pick), ch.score[pickIdx], kb.ProductName(id), ch.score[i]))
			case ch.score[i] == ch.score[pickIdx]:
				alt.WhyNot = append(alt.WhyNot, fmt.Sprintf("tied with %s at %d; the tie goes to %s", kb.ProductName(ch.pick), ch.score[i], tieWinner(kb, ch.pick)))
			default:
				alt.WhyNot = append(alt.WhyNot, fmt.Sprintf("another rule requires %s", kb.ProductName(ch.pick)))
			}
		}
		out = append(out, alt)
	}
	// Strongest alternatives first; candidate order breaks ties.
	slices.SortStableFunc(out, func(a, b Alternative) int {
		if a.Excluded != b.Excluded {
			if a.Excluded {
				return 1
			}
			return -1
		}
		return b.Score - a.Score
	})
	if out == nil {
		out = []Alternative{}
	}
	return out
}

func tieWinner(kb *knowledge.KB, pick string) string {
	if pick == knowledge.None {
		return "leaving the layer empty (the simpler stack)"
	}
	return kb.ProductName(pick) + " (earlier in the knowledge base)"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
