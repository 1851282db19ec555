package decide

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// decideNoFlips runs the stack search and explains its outcome: per layer
// the pick, its state, the reasons, the alternatives as arguments, a close
// call, and (where nothing fits) the conflicting answers. It returns the
// search too: the flips start from its inputs.
func (c *Compiled) decideNoFlips(a knowledge.Answers) (Decision, *search) {
	kb := c.kb
	vals := a.Values()
	fire := fired(kb, vals, make([]bool, 0, len(kb.Rules)))
	d := Decision{Schema: Schema, Answers: StatedAnswers{a}, Layers: make([]LayerPick, 0, len(kb.Layers)), Risks: []Risk{}, Trace: make([]RuleTrace, 0, len(kb.Rules)), Assumptions: []Assumption{}, Stacks: []StackScore{}}
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
	s := newSearch(c, a, fire)
	all := s.all()
	best, ok := s.best(all)
	if !ok {
		best = s.fallback()
	}
	d.Stacks = s.ranked(all, 5)
	b := &builder{c: c, s: s, a: a, all: all, best: best, assumed: map[string][]string{}}
	for li := range kb.Layers {
		d.Layers = append(d.Layers, b.layer(li))
	}
	d.Serves = b.serves()
	d.Risks = append(d.Risks, b.risks(vals)...)
	d.Assumptions = b.assumptions()
	return d, s
}

// fallback is the stack when no combination is feasible at all (only an
// overlay can make that happen): each layer's best available choice on its
// own, an optional layer left empty, and a layer with nothing available
// left empty too, its state saying that nothing fits.
func (s *search) fallback() stack {
	n := len(s.c.plans)
	st := stack{pick: make([]int, n), also: make([][]int, n)}
	for li := range s.c.plans {
		st.pick[li] = -1
		if s.c.plans[li].layer.Optional {
			st.pick[li] = 0
			continue
		}
		for ci := range s.c.plans[li].cands {
			if s.available(li, ci) && (st.pick[li] < 0 || s.layers[li].score[ci] > s.layers[li].score[st.pick[li]]) {
				st.pick[li] = ci
			}
		}
		if st.pick[li] < 0 {
			st.empty = append(st.empty, li)
		}
	}
	return st
}

// ranked lists up to n stacks, best first.
func (s *search) ranked(all []stack, n int) []StackScore {
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { d, _ := s.better(&all[x], &all[y]); return d })
	out := []StackScore{}
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, StackScore{Layers: s.placedOf(&all[i]), Score: all[i].score, Strict: all[i].strict()})
	}
	return out
}

func (s *search) name(li, ci int) string {
	if ci < 0 {
		return knowledge.None
	}
	return s.c.plans[li].cands[ci]
}

func (s *search) placedOf(st *stack) []Placed {
	out := make([]Placed, len(st.pick))
	for li := range st.pick {
		p := Placed{Layer: s.c.plans[li].layer.ID, Pick: s.name(li, st.pick[li]), Also: []string{}}
		if st.pick[li] <= 0 && s.c.plans[li].layer.Optional && st.unmetOn(s.c, li) || slices.Contains(st.empty, li) {
			p.State = StateNothingFits
		}
		for _, a := range st.also[li] {
			p.Also = append(p.Also, s.name(li, a))
		}
		out[li] = p
	}
	return out
}

// builder explains one search's outcome.
type builder struct {
	c       *Compiled
	s       *search
	a       knowledge.Answers
	all     []stack
	best    stack
	assumed map[string][]string // defaulted answer key → ids resting on it
}

func (b *builder) layer(li int) LayerPick {
	c, s, kb := b.c, b.s, b.c.kb
	lp := &c.plans[li]
	layer := lp.layer
	pick := b.best.pick[li]
	out := LayerPick{Layer: layer.ID, Pick: s.name(li, pick), Also: []string{}, Reasons: []Reason{}, Alternatives: []Alternative{}, Conflicts: []Conflict{}, Flips: []Flip{}, SeedNotes: []knowledge.SeedNote{}}
	for _, x := range b.best.also[li] {
		out.Also = append(out.Also, s.name(li, x))
	}
	if pick >= 0 {
		out.Score = s.layers[li].score[pick]
	}
	for _, ri := range b.best.counted {
		if c.layerOf[ri] == li && kb.Rules[ri].Product == out.Pick {
			out.Score += kb.Rules[ri].Weight
		}
	}
	out.Reasons = b.reasons(li, &b.best)
	out.Costs = []Argument{}
	for _, ci := range append([]int{pick}, b.best.also[li]...) {
		if ci < 0 {
			continue
		}
		for ri, w := range b.contributions(&b.best, li, ci) {
			if w < 0 {
				out.Costs = append(out.Costs, b.ruleArg(ri))
			}
		}
	}
	sortArgs(out.Costs)
	switch {
	case pick > 0 || (pick == 0 && !layer.Optional):
		out.State = StatePicked
	case b.best.unmetOn(c, li):
		out.State = StateNothingFits
		out.Conflicts = b.conflicts(li)
	default:
		out.State = StateNotNeeded
	}
	if out.State == StatePicked && b.best.unmetOn(c, li) {
		// Picked for the needs it meets; the ones no product can meet
		// here are said, with the answers that conflict.
		out.Conflicts = b.conflicts(li)
	}
	if len(out.Reasons) == 0 && out.State == StateNotNeeded {
		out.Reasons = append(out.Reasons, Reason{Kind: KindDefault, Rule: "no-case-" + layer.ID, Product: knowledge.None,
			Text:   fmt.Sprintf("Nothing in the answers makes a case for a %s: no rule or need argues for one, so the layer stays empty.", strings.ToLower(layer.Name)),
			Source: "stackpick: an optional layer is filled only on a case from the answers", Assumes: []string{}})
	}
	if len(out.Reasons) == 0 && out.State == StateNothingFits {
		for _, cf := range out.Conflicts {
			out.Reasons = append(out.Reasons, Reason{Kind: KindNeed, Rule: cf.Need, Product: knowledge.None, Text: cf.Text, Source: cf.Source, Assumes: []string{}})
		}
	}
	if p := kb.Product(out.Pick); p != nil {
		out.SeedNotes = append(out.SeedNotes, p.SeedNotes...)
	}
	if len(out.Reasons) == 0 && pick >= 0 && out.State == StatePicked {
		out.Reasons = append(out.Reasons, b.stackReason(li, pick))
	}
	out.Alternatives = b.alternatives(li)
	out.CloseCall = b.closeCall(li, out.Alternatives, out.Reasons)
	return out
}

// stackReason is the case for a pick no rule prefers on its own: the rest
// of the stack, which the answers need, runs it (or only fits beside it).
func (b *builder) stackReason(li, pick int) Reason {
	c, kb, s := b.c, b.c.kb, b.s
	name := kb.ProductName(s.name(li, pick))
	r := Reason{Kind: KindStack, Rule: "whole-stack", Product: s.name(li, pick), Assumes: []string{}}
	var runs []string
	for ol := range c.plans {
		oc := b.best.pick[ol]
		if ol == li || oc < 0 {
			continue
		}
		if cp := &c.stack.caps[ol][oc]; li == c.stack.engineLayer && cp.engineCap != nil && cp.engines[pick] {
			runs = append(runs, kb.ProductName(s.name(ol, oc)))
			r.Source = cp.engineCap.Sources.Cite(true)
		}
	}
	if len(runs) > 0 {
		r.Text = fmt.Sprintf("No rule prefers %s on its own; it is chosen with the whole stack: %s, which these answers need, runs it, and the stacks built on the other candidates score lower (see the alternatives).", name, strings.Join(runs, " and "))
	} else {
		r.Text = fmt.Sprintf("No rule prefers %s on its own; it is chosen with the whole stack, whose other candidates score lower (see the alternatives).", name)
		r.Source = "stackpick: the stack is ranked whole"
	}
	return r
}

// feeds maps a derived answer to the answers it is computed from.
var feeds = knowledge.DerivedFrom

// restsOn lists the answers (not derived) that conditions read.
func restsOn(kb *knowledge.KB, keys []string) []string {
	return restsOnFor(kb, knowledge.Answers{}, keys)
}

// restsOnFor is restsOn for given answers: the platform rests on a stated
// substrate alone, not on the kubernetes answer it overrides.
func restsOnFor(kb *knowledge.KB, a knowledge.Answers, keys []string) []string {
	var out []string
	for _, k := range keys {
		if k == knowledge.DerivedPlatform && kb.Question(knowledge.KeySubstrate) != nil {
			// A substrate other than auto decides the platform; auto leaves
			// it to the kubernetes answer.
			from := knowledge.KeyKubernetes
			if a.KB() != nil && a.Get(knowledge.KeySubstrate).Str != knowledge.SubstrateAuto {
				from = knowledge.KeySubstrate
			}
			if !slices.Contains(out, from) {
				out = append(out, from)
			}
			continue
		}
		if f, ok := feeds[k]; ok && len(f) > 0 {
			for _, x := range f {
				if kb.Question(x) != nil && !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
			continue
		}
		if kb.Question(k) != nil && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func condKeys(cs []knowledge.Cond) []string {
	var out []string
	for _, cd := range cs {
		if !slices.Contains(out, cd.Key) {
			out = append(out, cd.Key)
		}
	}
	return out
}

// assumes lists the defaulted answers among keys and records them for id.
func (b *builder) assumes(id string, keys []string) []string {
	out := []string{}
	for _, k := range restsOnFor(b.c.kb, b.a, keys) {
		if b.a.StatedKey(k) {
			continue
		}
		out = append(out, k)
		if !slices.Contains(b.assumed[k], id) {
			b.assumed[k] = append(b.assumed[k], id)
		}
	}
	return out
}

func (b *builder) assumptions() []Assumption {
	kb := b.c.kb
	out := []Assumption{}
	for _, q := range kb.Questions {
		ids, ok := b.assumed[q.Key]
		if !ok {
			continue
		}
		ids = slices.Clone(ids)
		slices.Sort(ids)
		x := Assumption{Key: q.Key, Value: b.a.Get(q.Key).Plain(q.Type), Question: q.Prompt, For: ids}
		switch {
		case q.Key == knowledge.KeyReplicas && b.a.Get(q.Key).Int == 0:
			x.Means = fmt.Sprintf("%d per model: nodes ÷ base models, a node counted as one replica", b.a.Get(knowledge.DerivedReplicasPerModel).Int)
		case q.Key == knowledge.KeyKubernetes && b.a.StatedKey(knowledge.KeySubstrate) && b.a.Get(knowledge.KeySubstrate).Str != knowledge.SubstrateAuto:
			x.Means = "worked out from substrate = " + b.a.Get(knowledge.KeySubstrate).Str
		case q.Key == knowledge.KeyGPU && b.a.StatedKey(knowledge.KeyGPUsPerNode) && b.a.Get(knowledge.KeyGPUsPerNode).Int == 0:
			x.Means = "worked out from gpus_per_node = 0: no accelerator"
		case q.Key == knowledge.KeyGPUsPerNode && b.a.StatedKey(knowledge.KeyGPU) && b.a.Get(knowledge.KeyGPU).Str == knowledge.GPUCPU:
			x.Means = "worked out from gpu = cpu: no accelerator"
		case q.Key == knowledge.KeyGPUsPerNode && b.a.Get(knowledge.DerivedGPUVendor).Str == knowledge.VendorApple:
			x.Means = "one per machine: Apple silicon is one GPU with unified memory"
		case q.Key == knowledge.KeySubstrate && b.a.Get(q.Key).Str == knowledge.SubstrateAuto:
			x.Means = "the platform is " + b.a.Get(knowledge.DerivedPlatform).Str + ", as the kubernetes answer implies"
		}
		out = append(out, x)
	}
	return out
}

func (b *builder) ruleReason(r *knowledge.Rule) Reason {
	return Reason{Kind: KindRule, Rule: r.ID, Text: r.Reason, Source: r.Sources.Cite(true), Sources: r.Sources, AsOf: r.Sources.CheckedOn(), Effect: r.Effect, Product: r.Product, Weight: r.Weight, When: r.WhenText, Assumes: b.assumes(r.ID, condKeys(r.Conds))}
}

// reasons are what makes the case for st's pick on layer li.
func (b *builder) reasons(li int, st *stack) []Reason {
	c, kb := b.c, b.c.kb
	pick := st.pick[li]
	out := []Reason{}
	if pick < 0 {
		return out
	}
	for _, ref := range c.plans[li].rules {
		if !b.s.fire[ref.ri] {
			continue
		}
		r := kb.Rules[ref.ri]
		ok := false
		switch ref.effect {
		case prefer:
			ok = ref.cand == pick && ref.weight > 0 && (!c.stack.isStackRule[ref.ri] || slices.Contains(st.counted, ref.ri))
		case require:
			ok = ref.cand == pick
		case complement:
			ok = ref.with == pick && slices.Contains(st.also[li], ref.cand)
		}
		if ok {
			out = append(out, b.ruleReason(r))
		}
	}
	for i, n := range c.stack.needs {
		if n.layer != li || !b.s.needOn[i] || !b.s.meets(st, n) {
			continue
		}
		r := Reason{Kind: KindNeed, Rule: n.need.ID, Text: n.need.Text, Source: n.need.Sources.Cite(true), Sources: n.need.Sources, AsOf: n.need.Sources.CheckedOn(), When: knowledge.DescribeConds(n.need.Conds), Product: b.s.name(li, pick), Assumes: b.assumes(n.need.ID, condKeys(n.need.Conds))}
		for _, ci := range append([]int{pick}, st.also[li]...) {
			cp := &c.stack.caps[li][ci]
			if b.s.has(li, ci, n.bit) {
				r.Product = b.s.name(li, ci)
				r.Provided = &Argument{Kind: KindCapability, Product: r.Product, Text: fmt.Sprintf("%s provides %s", kb.ProductName(r.Product), n.need.Feature), Source: cp.featureCap.Sources.Cite(true), Quote: cp.featureCap.Sources.Quote()}
				break
			}
		}
		out = append(out, r)
	}
	return out
}

func answersOf(kb *knowledge.KB, a knowledge.Answers, keys []string) []string {
	var out []string
	for _, k := range keys {
		q := kb.Question(k)
		if q == nil {
			continue
		}
		out = append(out, k+" = "+a.Get(k).Plain(q.Type))
	}
	return out
}

// exclusion lists the exclude rules and capability facts that rule
// candidate ci of layer li out for these answers.
func (b *builder) exclusion(li, ci int) []Argument {
	c, kb, s := b.c, b.c.kb, b.s
	var out []Argument
	for _, ref := range c.plans[li].rules {
		if s.fire[ref.ri] && ref.effect == exclude && ref.cand == ci {
			r := kb.Rules[ref.ri]
			keys := condKeys(r.Conds)
			out = append(out, Argument{Kind: KindRule, Rule: r.ID, Product: r.Product, Text: r.Reason, Source: r.Sources.Cite(true), Answers: answersOf(kb, b.a, restsOn(kb, keys)), Assumes: b.assumes(r.ID, keys)})
		}
	}
	if blk := s.capabilityBlock(li, ci); blk != nil {
		out = append(out, b.capArgument(li, ci, blk))
	}
	return out
}

func (b *builder) capArgument(li, ci int, blk *capBlock) Argument {
	kb, s := b.c.kb, b.s
	id := s.name(li, ci)
	name := kb.ProductName(id)
	arg := Argument{Kind: KindCapability, Rule: id + "/" + blk.kind, Product: id, Source: blk.cap.Sources.Cite(true), Quote: blk.cap.Sources.Quote()}
	var keys []string
	switch blk.kind {
	case knowledge.CanVendors:
		// The vendor comes from the gpu answer, or from gpus_per_node = 0.
		keys = []string{knowledge.KeyGPU}
		if b.a.Get(knowledge.KeyGPUsPerNode).Int == 0 {
			keys = []string{knowledge.KeyGPUsPerNode}
		}
		if s.mix == knowledge.MixSeveralVendors && slices.Contains(blk.cap.Values, s.vendor) {
			keys = append(keys, knowledge.KeyAcceleratorMix)
			arg.Text = fmt.Sprintf("%s supports only %s accelerators, and the fleet mixes vendors.", name, strings.Join(blk.cap.Values, ", "))
		} else {
			arg.Text = fmt.Sprintf("%s supports %s accelerators; this fleet's are %s.", name, strings.Join(blk.cap.Values, ", "), vendorWords(s.vendor))
		}
	case knowledge.CanSubstrates:
		keys = []string{knowledge.DerivedPlatform}
		arg.Text = fmt.Sprintf("%s runs on %s; this platform is %s.", name, strings.Join(blk.cap.Values, ", "), s.plat)
	}
	arg.Answers = answersOf(kb, b.a, restsOn(kb, keys))
	arg.Assumes = b.assumes(arg.Rule, keys)
	return arg
}

func vendorWords(v string) string {
	if v == knowledge.VendorNone {
		return "CPU only, no accelerator"
	}
	return v
}

// unfit explains why no strict stack places ci on layer li although it is
// available on its own: the first check that fails with the pick's stack
// around it.
func (b *builder) unfit(li, ci int) []Argument {
	c, kb, s := b.c, b.c.kb, b.s
	id := s.name(li, ci)
	name := kb.ChoiceName(c.plans[li].layer.ID, id)
	el := c.stack.engineLayer
	var out []Argument
	if el >= 0 && li != el {
		e := b.best.pick[el]
		if !s.runsEngine(li, ci, e) {
			cp := &c.stack.caps[li][ci]
			ok := false
			for ei := range c.plans[el].cands {
				ok = ok || (cp.engines[ei] && s.available(el, ei))
			}
			arg := Argument{Kind: KindCapability, Rule: id + "/engines", Product: id, Source: cp.engineCap.Sources.Cite(true), Quote: cp.engineCap.Sources.Quote(),
				Text: fmt.Sprintf("%s runs %s, not %s.", name, engineList(kb, cp.engineCap.Values), kb.ProductName(s.name(el, e)))}
			if !ok {
				arg.Text += " None of those engines is available here."
			}
			out = append(out, arg)
		}
	}
	if li == el {
		for ol := range c.plans {
			if ol == el {
				continue
			}
			oc := b.best.pick[ol]
			if oc >= 0 && !s.runsEngine(ol, oc, ci) {
				cp := &c.stack.caps[ol][oc]
				out = append(out, Argument{Kind: KindCapability, Rule: s.name(ol, oc) + "/engines", Product: s.name(ol, oc), Source: cp.engineCap.Sources.Cite(true), Quote: cp.engineCap.Sources.Quote(),
					Text: fmt.Sprintf("%s does not run %s (it runs %s).", kb.ProductName(s.name(ol, oc)), name, engineList(kb, cp.engineCap.Values))})
			}
		}
	}
	for i, n := range c.stack.needs {
		if n.layer == li && s.needOn[i] && !s.has(li, ci, n.bit) {
			keys := condKeys(n.need.Conds)
			if c.stack.caps[li][ci].providesOffPlatform(n.bit) {
				keys = append(keys, knowledge.DerivedPlatform)
				out = append(out, Argument{Kind: KindCapability, Rule: id + "/features", Product: id, Text: fmt.Sprintf("%s deploys models as Kubernetes resources, and this platform (%s) has no Kubernetes: %s", name, s.plat, n.need.Text), Source: n.need.Sources.Cite(true), Answers: answersOf(kb, b.a, restsOn(kb, keys)), Assumes: b.assumes(n.need.ID, keys)})
				continue
			}
			out = append(out, Argument{Kind: KindNeed, Rule: n.need.ID, Product: id, Text: fmt.Sprintf("%s lacks %s, which the answers need: %s", name, n.need.Feature, n.need.Text), Source: n.need.Sources.Cite(true), Answers: answersOf(kb, b.a, restsOn(kb, keys)), Assumes: b.assumes(n.need.ID, keys)})
		}
	}
	ls := &s.layers[li]
	if ls.anyReq && !ls.required[ci] {
		for _, ref := range c.plans[li].rules {
			if s.fire[ref.ri] && ref.effect == require && ref.cand != ci && ls.required[ref.cand] {
				r := kb.Rules[ref.ri]
				out = append(out, Argument{Kind: KindRule, Rule: r.ID, Product: r.Product, Text: r.Reason, Source: r.Sources.Cite(true), Answers: answersOf(kb, b.a, restsOn(kb, condKeys(r.Conds))), Assumes: b.assumes(r.ID, condKeys(r.Conds))})
			}
		}
	}
	if len(out) == 0 && c.plans[li].layer.Optional && ci > 0 && ls.score[ci] <= 0 {
		out = append(out, Argument{Kind: KindNoCase, Product: id, Text: fmt.Sprintf("Nothing in the answers argues for %s, and the %s layer may stay empty.", name, strings.ToLower(c.plans[li].layer.Name))})
	}
	if len(out) == 0 {
		out = append(out, Argument{Kind: KindNoCase, Product: id, Text: fmt.Sprintf("No stack that places %s meets every need of these answers.", name)})
	}
	return out
}

func engineList(kb *knowledge.KB, ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = kb.ProductName(id)
	}
	return strings.Join(names, ", ")
}

// contributions maps each rule that counted in st for layer li's candidate
// ci to its weight.
func (b *builder) contributions(st *stack, li, ci int) map[int]int {
	c := b.c
	out := map[int]int{}
	for _, ref := range c.plans[li].rules {
		if ref.cand != ci || !b.s.fire[ref.ri] || ref.effect != prefer {
			continue
		}
		if c.stack.isStackRule[ref.ri] && !slices.Contains(st.counted, ref.ri) {
			continue
		}
		out[ref.ri] = ref.weight
	}
	return out
}

// stackContributions is contributions over every layer of st.
func (b *builder) stackContributions(st *stack) map[int]int {
	out := map[int]int{}
	for li, ci := range st.pick {
		if ci < 0 {
			continue
		}
		for ri, w := range b.contributions(st, li, ci) {
			out[ri] = w
		}
	}
	return out
}

func (b *builder) ruleArg(ri int) Argument {
	r := b.c.kb.Rules[ri]
	return Argument{Kind: KindRule, Rule: r.ID, Product: r.Product, Text: r.Reason, Weight: r.Weight, Source: r.Sources.Cite(true), Answers: answersOf(b.c.kb, b.a, restsOn(b.c.kb, condKeys(r.Conds))), Assumes: b.assumes(r.ID, condKeys(r.Conds))}
}

func (b *builder) alternatives(li int) []Alternative {
	c, kb, s := b.c, b.c.kb, b.s
	layer := c.plans[li].layer
	pick := b.best.pick[li]
	pickScore := 0
	if pick >= 0 {
		pickScore = s.layers[li].score[pick]
	}
	out := []Alternative{}
	for ci := range c.plans[li].cands {
		if ci == pick || slices.Contains(b.best.also[li], ci) {
			continue
		}
		id := s.name(li, ci)
		alt := Alternative{Product: id, Score: s.layers[li].score[ci], For: []Argument{}, Against: []Argument{}, Decisive: []Argument{}, WhyNot: []string{}}
		if !s.available(li, ci) {
			alt.Excluded = true
			alt.Against = b.exclusion(li, ci)
			alt.Decisive = alt.Against[:1]
		} else if st, ok := s.bestWith(b.all, li, ci); !ok {
			alt.Unfit = true
			alt.Against = b.unfit(li, ci)
			alt.Decisive = alt.Against[:1]
			alt.For = b.forArgs(nil, li, ci)
			alt.Trade = alt.Score > pickScore && len(alt.For) > 0
		} else {
			alt.Stack = s.placedOf(&st)
			alt.Margin = b.best.score - st.score
			alt.For = append(b.forArgs(&st, li, ci), b.needArgs(&st, li, ci)...)
			for ri, w := range b.contributions(&st, li, ci) {
				if w < 0 {
					alt.Against = append(alt.Against, b.ruleArg(ri))
				}
			}
			sortArgs(alt.Against)
			alt.Decisive = b.decisive(&st)
			alt.Trade = alt.Score > pickScore
			alt.ScoreNote = fmt.Sprintf("%s stack %d vs %s stack %d", kb.ChoiceName(layer.ID, s.name(li, pick)), b.best.score, kb.ChoiceName(layer.ID, id), st.score)
		}
		for _, x := range alt.Against {
			alt.WhyNot = append(alt.WhyNot, x.Text)
		}
		for _, x := range alt.Decisive {
			if !slices.Contains(alt.WhyNot, x.Text) {
				alt.WhyNot = append(alt.WhyNot, x.Text)
			}
		}
		out = append(out, alt)
	}
	// Closest first: fitting alternatives by margin, then the unfit, then
	// the excluded; the declared order settles equal margins.
	rank := func(x Alternative) int {
		switch {
		case x.Excluded:
			return 2
		case x.Unfit:
			return 1
		}
		return 0
	}
	order := b.orderOf(li)
	slices.SortStableFunc(out, func(x, y Alternative) int {
		if rank(x) != rank(y) {
			return rank(x) - rank(y)
		}
		if x.Margin != y.Margin {
			return x.Margin - y.Margin
		}
		return order(x.Product) - order(y.Product)
	})
	return out
}

// orderOf returns the declared tie-break position of a layer's choices.
func (b *builder) orderOf(li int) func(string) int {
	for _, t := range b.c.stack.ties {
		if t.layer == li {
			return func(id string) int { return t.rank[slices.Index(b.c.plans[li].cands, id)] }
		}
	}
	return func(string) int { return 0 }
}

// needArgs lists the needs of layer li that ci meets in st: a case for it
// as much as for the pick that meets them too.
func (b *builder) needArgs(st *stack, li, ci int) []Argument {
	out := []Argument{}
	for i, n := range b.c.stack.needs {
		if n.layer != li || !b.s.needOn[i] || !b.s.meets(st, n) {
			continue
		}
		keys := condKeys(n.need.Conds)
		out = append(out, Argument{Kind: KindNeed, Rule: n.need.ID, Product: b.s.name(li, ci), Text: n.need.Text, Source: n.need.Sources.Cite(true), Answers: answersOf(b.c.kb, b.a, restsOn(b.c.kb, keys)), Assumes: b.assumes(n.need.ID, keys)})
	}
	return out
}

// forArgs lists what spoke for ci on layer li (in st when given).
func (b *builder) forArgs(st *stack, li, ci int) []Argument {
	c := b.c
	out := []Argument{}
	for _, ref := range c.plans[li].rules {
		if ref.cand != ci || !b.s.fire[ref.ri] {
			continue
		}
		switch {
		case ref.effect == require:
		case ref.effect == prefer && ref.weight > 0:
			if c.stack.isStackRule[ref.ri] && (st == nil || !slices.Contains(st.counted, ref.ri)) {
				continue
			}
		default:
			continue
		}
		out = append(out, b.ruleArg(ref.ri))
	}
	sortArgs(out)
	return out
}

func sortArgs(xs []Argument) {
	slices.SortStableFunc(xs, func(x, y Argument) int {
		if d := abs(y.Weight) - abs(x.Weight); d != 0 {
			return d
		}
		return strings.Compare(x.Rule, y.Rule)
	})
}

// decisive names what separates the best stack from st: the rules that
// counted in one and not the other, largest first; for a tie, the
// declared criterion that settled it.
func (b *builder) decisive(st *stack) []Argument {
	mine, theirs := b.stackContributions(&b.best), b.stackContributions(st)
	var args []Argument
	for ri, w := range mine {
		if _, shared := theirs[ri]; !shared && w > 0 {
			args = append(args, b.ruleArg(ri))
		}
	}
	for ri, w := range theirs {
		if _, shared := mine[ri]; !shared && w < 0 {
			args = append(args, b.ruleArg(ri))
		}
	}
	slices.SortStableFunc(args, func(x, y Argument) int {
		if d := abs(y.Weight) - abs(x.Weight); d != 0 {
			return d
		}
		return strings.Compare(x.Rule, y.Rule)
	})
	if len(args) > 2 {
		args = args[:2]
	}
	if b.best.score == st.score {
		if _, ti := b.s.better(&b.best, st); ti >= 0 {
			t := b.c.stack.ties[ti].tb
			args = append([]Argument{{Kind: KindTieBreak, Rule: t.ID, Text: t.Argument, Source: t.Sources.Cite(true)}}, args...)
		}
	}
	if len(args) == 0 {
		args = append(args, Argument{Kind: KindNoCase, Text: "Its stack scores " + strconv.Itoa(st.score) + " against the pick's " + strconv.Itoa(b.best.score) + "."})
	}
	return args
}

func (b *builder) closeCall(li int, alts []Alternative, reasons []Reason) *CloseCall {
	for _, alt := range alts {
		if alt.Excluded || alt.Unfit || alt.Margin > b.c.stack.margin {
			continue
		}
		cc := &CloseCall{Other: alt.Product, OtherAlso: []string{}, Margin: alt.Margin, Tie: alt.Margin == 0, OtherFor: alt.For, PickFor: []Argument{}}
		for _, p := range alt.Stack {
			if p.Layer == b.c.plans[li].layer.ID {
				cc.OtherAlso = p.Also
			}
		}
		for _, r := range reasons {
			cc.PickFor = append(cc.PickFor, Argument{Kind: r.Kind, Rule: r.Rule, Product: r.Product, Text: r.Text, Weight: r.Weight, Source: r.Source, Assumes: r.Assumes})
		}
		if cc.Tie {
			for _, d := range alt.Decisive {
				if d.Kind == KindTieBreak {
					for _, t := range b.c.stack.ties {
						if t.tb.ID == d.Rule {
							cc.TieBreak = &TieBreakUse{ID: t.tb.ID, Criterion: t.tb.Criterion, Argument: t.tb.Argument, Source: t.tb.Sources.Cite(true)}
						}
					}
				}
			}
		}
		return cc
	}
	return nil
}

// conflicts explains a layer where nothing fits: each unmet need and, per
// product that has its feature, what keeps it out.
func (b *builder) conflicts(li int) []Conflict {
	c, kb, s := b.c, b.c.kb, b.s
	out := []Conflict{}
	for i, n := range c.stack.needs {
		if n.layer != li || !s.needOn[i] || !slices.Contains(b.best.unmet, i) {
			continue
		}
		keys := condKeys(n.need.Conds)
		// The conflicting answers: the need's own (not the fleet size it
		// is computed from), then those that keep each candidate out.
		var own []string
		for _, k := range keys {
			if q := kb.Question(k); q != nil && !q.Derived {
				own = append(own, k)
			}
		}
		cf := Conflict{Need: n.need.ID, Text: n.need.Text, Source: n.need.Sources.Cite(true), Answers: answersOf(kb, b.a, own), Blocked: []Argument{}}
		if cf.Answers == nil {
			cf.Answers = []string{}
		}
		b.assumes(n.need.ID, keys)
		for ci := range c.plans[li].cands {
			if !s.has(li, ci, n.bit) && !c.stack.caps[li][ci].providesOffPlatform(n.bit) {
				continue
			}
			var why []Argument
			if !s.available(li, ci) {
				why = b.exclusion(li, ci)
			} else {
				why = b.unfit(li, ci)
			}
			for _, w := range why {
				cf.Blocked = append(cf.Blocked, w)
				for _, x := range w.Answers {
					if !slices.Contains(cf.Answers, x) {
						cf.Answers = append(cf.Answers, x)
					}
				}
			}
		}
		out = append(out, cf)
	}
	return out
}

func (b *builder) risks(vals []knowledge.Value) []Risk {
	c, kb, s := b.c, b.c.kb, b.s
	out := []Risk{}
	for li, lp := range c.plans {
		for _, r := range lp.rules {
			if s.fire[r.ri] && r.effect == require && !s.available(li, r.cand) {
				rule := kb.Rules[r.ri]
				out = append(out, Risk{Layer: lp.layer.ID, Product: rule.Product, ID: "conflict-" + rule.ID,
					Text:   fmt.Sprintf("Rule %s requires %s, but it is ruled out here (an exclusion or a capability fact); the requirement was dropped. Check the answers or the rules.", rule.ID, kb.ProductName(rule.Product)),
					Source: rule.Sources.Cite(true)})
			}
		}
		ids := []int{b.best.pick[li]}
		ids = append(ids, b.best.also[li]...)
		for _, ci := range ids {
			if ci < 0 {
				continue
			}
			p := kb.Product(s.name(li, ci))
			if p == nil {
				continue
			}
			for _, m := range p.Landmines {
				if holds(m.Conds, vals) {
					out = append(out, Risk{Layer: lp.layer.ID, Product: p.ID, ID: m.ID, Text: m.Text, Watch: m.Watch, Source: m.Sources.Cite(true), Sources: m.Sources, AsOf: m.Sources.CheckedOn()})
				}
			}
		}
	}
	return out
}

// serves maps the models to the components that serve them: the LLM and
// the model types no framework need names go to the engine; the types a
// model-server need names go to the model server (or to none there, where
// nothing fits).
func (b *builder) serves() []Serving {
	byLayer := map[string][]string{}
	byLayer[knowledge.LayerEngine] = []string{b.a.Get(knowledge.KeyModel).Str}
	framework := map[string]string{} // model type → the layer whose need names it
	for _, n := range b.c.stack.needs {
		for _, cd := range n.need.Conds {
			if cd.Key == knowledge.KeyOtherModelTypes {
				for _, t := range cd.Strs {
					framework[t] = b.c.plans[n.layer].layer.ID
				}
			}
		}
	}
	for _, t := range b.a.Get(knowledge.KeyOtherModelTypes).List {
		layer := knowledge.LayerEngine
		if l, ok := framework[t]; ok {
			layer = l
		}
		byLayer[layer] = append(byLayer[layer], t)
	}
	out := []Serving{}
	for li, lp := range b.c.plans {
		models := byLayer[lp.layer.ID]
		if len(models) == 0 {
			continue
		}
		out = append(out, Serving{Layer: lp.layer.ID, Product: b.s.name(li, b.best.pick[li]), Models: models})
	}
	return out
}
