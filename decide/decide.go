// Package decide turns answers and a knowledge base into a Decision: a pick
// per layer with the rules that support it, the alternatives with the rules
// that count against them, the landmines that apply, and the single-answer
// changes that would flip each pick. It is pure: no I/O, clock, randomness or
// terminal code, and the same input gives the same bytes out. Renderers read
// the Decision; none of them recomputes it. It imports knowledge/ and
// decide/sizing only; it must not import scenarios/, ui/ or any Charm package.
package decide

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	// negative weights); For lists those that spoke for it. Their texts are
	// in why_not and in the knowledge base (stackpick kb rules).
	Against []RuleRef `json:"against"`
	For     []RuleRef `json:"for"`
}

// RuleRef names a fired rule and its effect on an alternative.
type RuleRef struct {
	Rule   string `json:"rule"`
	Effect string `json:"effect"`
	Weight int    `json:"weight,omitempty"`
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

// Decide makes the full decision, flips included. It compiles kb for this
// one decision; to make many with one knowledge base, Compile it once and
// call Compiled.Decide.
func Decide(kb *knowledge.KB, a knowledge.Answers) Decision {
	return Compile(kb).Decide(a)
}

// Decide makes the full decision, flips included, for answers made against
// the compiled knowledge base.
func (c *Compiled) Decide(a knowledge.Answers) Decision {
	kb := c.kb
	d := decideNoFlips(kb, a, c.plans)
	flips := computeFlips(kb, a, d, c)
	for i := range d.Layers {
		d.Layers[i].Flips = flips[i]
		if d.Layers[i].Layer == knowledge.LayerEngine {
			d.EngineConfig = engineConfig(c, a, d.Layers[i].Pick)
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

// ruleRef is a rule of one layer with its products resolved to candidate
// positions, so choosing never searches by name.
type ruleRef struct {
	ri, cand, with, weight int
	effect                 effect
}

// effect is a rule effect as a small number, so choosing compares ints.
type effect uint8

const (
	prefer effect = iota
	require
	exclude
	complement
)

var effectOf = map[string]effect{
	knowledge.EffectPrefer:     prefer,
	knowledge.EffectRequire:    require,
	knowledge.EffectExclude:    exclude,
	knowledge.EffectComplement: complement,
}

// layerPlan is what choose needs for one layer, built once per decision.
type layerPlan struct {
	layer *knowledge.Layer
	cands []string
	rules []ruleRef
}

// Compiled is a knowledge base prepared for deciding: each layer's
// candidates and rules by position, which rules read each answer, the
// numbers rules compare answers against, and the seed's replaced flags. A KB
// never changes after loading, so one Compiled serves every decision made
// with it; the caller holds it (decide keeps no state), and a decision made
// through it is the same as Decide's.
type Compiled struct {
	kb         *knowledge.KB
	plans      []layerPlan
	deps       [][]int
	layerOf    []int
	thresholds map[string][]int
	replaced   map[string][]FlagNote
}

// Compile prepares kb for deciding.
func Compile(kb *knowledge.KB) *Compiled {
	c := &Compiled{kb: kb, plans: plans(kb), deps: dependents(kb), layerOf: make([]int, len(kb.Rules)), thresholds: thresholds(kb), replaced: seedFlagNotes(kb)}
	for li, lp := range c.plans {
		for _, r := range lp.rules {
			c.layerOf[r.ri] = li
		}
	}
	return c
}

// KB is the knowledge base c was compiled from.
func (c *Compiled) KB() *knowledge.KB { return c.kb }

func plans(kb *knowledge.KB) []layerPlan {
	out := make([]layerPlan, len(kb.Layers))
	for li, layer := range kb.Layers {
		lp := layerPlan{layer: layer, cands: candidates(kb, layer)}
		for ri, r := range kb.Rules {
			if r.Layer != layer.ID {
				continue
			}
			idx := slices.Index(lp.cands, r.Product)
			if idx < 0 {
				continue
			}
			lp.rules = append(lp.rules, ruleRef{ri: ri, cand: idx, with: slices.Index(lp.cands, r.With), weight: r.Weight, effect: effectOf[r.Effect]})
		}
		out[li] = lp
	}
	return out
}

// scratch holds reusable buffers so that trying many single-answer changes
// does not allocate per try.
type scratch struct {
	score    []int
	excluded []bool
	req      []bool
}

func (s *scratch) reset(n int) {
	s.score = slices.Grow(s.score[:0], n)[:n]
	s.excluded = slices.Grow(s.excluded[:0], n)[:n]
	s.req = slices.Grow(s.req[:0], n)[:n]
	clear(s.score)
	clear(s.excluded)
	clear(s.req)
}

// choose picks one layer's product. The returned choice's score and
// excluded slices alias buf.
func choose(lp *layerPlan, fire []bool, buf *scratch) choice {
	n := len(lp.cands)
	buf.reset(n)
	ch := choice{cands: lp.cands, score: buf.score, excluded: buf.excluded}
	req := buf.req
	// One pass scores; the rarer effects (require, complement) only note
	// that a second look is needed.
	hasReq, hasComp := false, false
	for i := range lp.rules {
		r := &lp.rules[i]
		if !fire[r.ri] {
			continue
		}
		switch r.effect {
		case prefer:
			ch.score[r.cand] += r.weight
		case exclude:
			ch.excluded[r.cand] = true
		case require:
			req[r.cand] = true
			hasReq = true
		case complement:
			hasComp = true
		}
	}
	anyRequired := false
	if hasReq {
		for i := range n {
			if req[i] && !ch.excluded[i] {
				anyRequired = true
			}
		}
		for _, r := range lp.rules {
			if fire[r.ri] && r.effect == require && ch.excluded[r.cand] {
				ch.conflict = append(ch.conflict, r.ri)
			}
		}
	}
	best := -1
	for i := range n {
		if ch.excluded[i] || (anyRequired && !req[i]) {
			continue
		}
		if best < 0 || ch.score[i] > ch.score[best] {
			best = i
		}
	}
	// On an optional layer a product needs a positive case (or a require)
	// to beat leaving the layer empty; a lone non-negative score is no case.
	// "none" is candidate 0 of an optional layer.
	if best > 0 && lp.layer.Optional && !anyRequired && ch.score[best] <= 0 && !ch.excluded[0] {
		best = 0
	}
	if best < 0 {
		// Everything is excluded: fall back to the first candidate ("none"
		// on an optional layer); a conflict risk explains it.
		ch.pick = lp.cands[0]
		return ch
	}
	ch.pick = lp.cands[best]
	if !hasComp {
		return ch
	}
	var alsoIdx []int
	for _, r := range lp.rules {
		if fire[r.ri] && r.effect == complement && r.with == best && r.cand != best && !ch.excluded[r.cand] && !slices.Contains(alsoIdx, r.cand) {
			alsoIdx = append(alsoIdx, r.cand)
		}
	}
	// Candidate (KB) order for complements, whatever order the rules came in.
	slices.Sort(alsoIdx)
	for _, i := range alsoIdx {
		ch.also = append(ch.also, lp.cands[i])
	}
	return ch
}

func decideNoFlips(kb *knowledge.KB, a knowledge.Answers, ps []layerPlan) Decision {
	vals := a.Values()
	fire := fired(kb, vals, make([]bool, 0, len(kb.Rules)))
	d := Decision{Schema: Schema, Answers: a, Layers: make([]LayerPick, 0, len(kb.Layers)), Risks: []Risk{}, Trace: make([]RuleTrace, 0, len(kb.Rules))}
	for ri, r := range kb.Rules {
		t := RuleTrace{Rule: r.ID, Layer: r.Layer, Fired: fire[ri]}
		if !fire[ri] {
			for i := range r.Conds {
				if !r.Conds[i].Holds(vals[r.Conds[i].Q]) {
					t.Failed = r.Conds[i].Text
					break
				}
			}
		}
		d.Trace = append(d.Trace, t)
	}
	for li, layer := range kb.Layers {
		cands := ps[li].cands
		ch := choose(&ps[li], fire, &scratch{})
		lp := LayerPick{Layer: layer.ID, Pick: ch.pick, Also: nonNil(ch.also), Reasons: []Reason{}, Alternatives: []Alternative{}, Flips: []Flip{}, SeedNotes: []knowledge.SeedNote{}}
		pickIdx := slices.Index(cands, ch.pick)
		lp.Score = ch.score[pickIdx]
		for _, ref := range ps[li].rules {
			r := kb.Rules[ref.ri]
			if !fire[ref.ri] {
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
		lp.Alternatives = alternatives(kb, &ps[li], ch, fire)
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
		if ch.pick == knowledge.None && lp.Score < 0 {
			d.Risks = append(d.Risks, Risk{Layer: layer.ID, Product: knowledge.None, ID: "nothing-fits-" + layer.ID,
				Text:   fmt.Sprintf("No %s in the knowledge base fits these answers, so the layer is left empty although rules argue for one (see the alternatives). Revisit the constraints that exclude the candidates.", strings.ToLower(layer.Name)),
				Source: "stackpick decision trace"})
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
	return Reason{Rule: r.ID, Text: r.Reason, Source: r.Source, AsOf: r.AsOf, Effect: r.Effect, Product: r.Product, Weight: r.Weight, When: r.WhenText}
}

func refOf(r *knowledge.Rule) RuleRef {
	return RuleRef{Rule: r.ID, Effect: r.Effect, Weight: r.Weight}
}

func alternatives(kb *knowledge.KB, lp *layerPlan, ch choice, fire []bool) []Alternative {
	pickIdx := slices.Index(ch.cands, ch.pick)
	layer := lp.layer.ID
	var out []Alternative
	for i, id := range ch.cands {
		if id == ch.pick || slices.Contains(ch.also, id) {
			continue
		}
		alt := Alternative{Product: id, Score: ch.score[i], Excluded: ch.excluded[i], WhyNot: []string{}, Against: []RuleRef{}, For: []RuleRef{}}
		for _, ref := range lp.rules {
			r := kb.Rules[ref.ri]
			if !fire[ref.ri] || ref.cand != i {
				continue
			}
			switch {
			case r.Effect == knowledge.EffectExclude:
				alt.Against = append(alt.Against, refOf(r))
				alt.WhyNot = append(alt.WhyNot, "excluded by "+r.ID+": "+r.Reason)
			case r.Effect == knowledge.EffectPrefer && r.Weight < 0:
				alt.Against = append(alt.Against, refOf(r))
				alt.WhyNot = append(alt.WhyNot, r.ID+" ("+strconv.Itoa(r.Weight)+"): "+r.Reason)
			case r.Effect == knowledge.EffectPrefer || r.Effect == knowledge.EffectRequire:
				alt.For = append(alt.For, refOf(r))
			}
		}
		if !alt.Excluded {
			switch {
			case ch.score[i] < ch.score[pickIdx]:
				alt.WhyNot = append(alt.WhyNot, "outscored: "+kb.ChoiceName(layer, ch.pick)+" "+strconv.Itoa(ch.score[pickIdx])+" vs "+kb.ChoiceName(layer, id)+" "+strconv.Itoa(ch.score[i]))
			case ch.score[i] == ch.score[pickIdx]:
				alt.WhyNot = append(alt.WhyNot, "tied with "+kb.ChoiceName(layer, ch.pick)+" at "+strconv.Itoa(ch.score[i])+"; the tie goes to "+tieWinner(kb, layer, ch.pick))
			default:
				alt.WhyNot = append(alt.WhyNot, "another rule requires "+kb.ChoiceName(layer, ch.pick))
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

func tieWinner(kb *knowledge.KB, layer, pick string) string {
	if pick == knowledge.None {
		return kb.ChoiceName(layer, pick) + " (the simpler stack)"
	}
	return kb.ProductName(pick) + " (earlier in the knowledge base)"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
