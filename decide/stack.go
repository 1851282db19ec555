package decide

import (
	"math"
	"slices"

	"github.com/stackpick/stackpick/knowledge"
)

// The whole-stack choice: every combination of one choice per layer (and
// the complements its rules add) is checked against the capability facts
// and the needs, scored by the preference rules, and ranked; ties fall to
// the declared tie-break. Nothing here words anything: see build.go.

// capPlan is one candidate's capability facts, resolved to positions.
type capPlan struct {
	vendors    []string // nil: not limited
	substrates []string // nil: not limited
	engines    []bool   // by engine candidate index; nil: not limited
	features   uint32   // bit per feature index
	vendorCap  *knowledge.Capability
	subCap     *knowledge.Capability
	engineCap  *knowledge.Capability
	featureCap *knowledge.Capability
}

// needPlan is a need resolved to a layer position and a feature bit.
type needPlan struct {
	need  *knowledge.Need
	layer int
	bit   uint32
}

// stackRule is a rule whose effect counts only in some stacks: its own
// candidate must be placed and every stack condition hold.
type stackRule struct {
	ri, layer, cand, weight int
	conds                   [][]bool // per layer: allowed candidates (nil: any)
}

// tiePlan is one declared tie-break criterion.
type tiePlan struct {
	tb    *knowledge.TieBreak
	layer int
	rank  []int // per candidate of layer: its place in the order
}

// featureIndex gives each feature of the closed vocabulary its bit.
var featureIndex = func() map[string]uint32 {
	m := map[string]uint32{}
	for i, f := range knowledge.Features {
		m[f] = 1 << i
	}
	return m
}()

func featureBit(f string) uint32 { return featureIndex[f] }

// stackPlan is everything the stack search needs, built once per KB.
type stackPlan struct {
	engineLayer int
	caps        [][]capPlan // per layer, per candidate
	needs       []needPlan
	stackRules  []stackRule
	isStackRule []bool // by rule index
	ties        []tiePlan
	familiar    []bool // by rule index: tagged familiarity
	margin      int
	// question indexes the search reads (-1: not in this KB)
	qVendor, qMix, qPlatform, qKubernetes int
	comps                                 [][]ruleRef // per layer: its complement rules
}

func compileStack(kb *knowledge.KB, ps []layerPlan) stackPlan {
	sp := stackPlan{engineLayer: -1, isStackRule: make([]bool, len(kb.Rules)), familiar: make([]bool, len(kb.Rules)), margin: kb.CloseCallMargin(),
		qVendor: kb.QuestionIndex(knowledge.DerivedGPUVendor), qMix: kb.QuestionIndex(knowledge.KeyAcceleratorMix), qPlatform: kb.QuestionIndex(knowledge.DerivedPlatform), qKubernetes: kb.QuestionIndex(knowledge.KeyKubernetes)}
	layerIdx := map[string]int{}
	for li, lp := range ps {
		layerIdx[lp.layer.ID] = li
		if lp.layer.ID == knowledge.LayerEngine {
			sp.engineLayer = li
		}
	}
	var engineCands []string
	if sp.engineLayer >= 0 {
		engineCands = ps[sp.engineLayer].cands
	}
	sp.comps = make([][]ruleRef, len(ps))
	for li, lp := range ps {
		for _, r := range lp.rules {
			if r.effect == complement {
				sp.comps[li] = append(sp.comps[li], r)
			}
		}
	}
	sp.caps = make([][]capPlan, len(ps))
	for li, lp := range ps {
		sp.caps[li] = make([]capPlan, len(lp.cands))
		for ci, id := range lp.cands {
			cp := &sp.caps[li][ci]
			if c := kb.Capability(id, knowledge.CanVendors); c != nil {
				cp.vendors, cp.vendorCap = c.Values, c
			}
			if c := kb.Capability(id, knowledge.CanSubstrates); c != nil {
				cp.substrates, cp.subCap = c.Values, c
			}
			if c := kb.Capability(id, knowledge.CanEngines); c != nil {
				cp.engineCap = c
				cp.engines = make([]bool, len(engineCands))
				for ei, e := range engineCands {
					cp.engines[ei] = slices.Contains(c.Values, e)
				}
			}
			if c := kb.Capability(id, knowledge.CanFeatures); c != nil {
				cp.featureCap = c
				for _, f := range c.Values {
					cp.features |= featureBit(f)
				}
			}
		}
	}
	for _, n := range kb.Needs {
		sp.needs = append(sp.needs, needPlan{need: n, layer: layerIdx[n.Layer], bit: featureBit(n.Feature)})
	}
	for ri, r := range kb.Rules {
		sp.familiar[ri] = r.Tag == knowledge.TagFamiliarity
		if len(r.Stack) == 0 {
			continue
		}
		li := layerIdx[r.Layer]
		sr := stackRule{ri: ri, layer: li, cand: slices.Index(ps[li].cands, r.Product), weight: r.Weight, conds: make([][]bool, len(ps))}
		if r.Effect != knowledge.EffectPrefer || sr.cand < 0 {
			continue // validation allows stack conditions on any rule; only preferences are paired
		}
		for layer, ids := range r.Stack {
			l := layerIdx[layer]
			allowed := make([]bool, len(ps[l].cands))
			for ci, c := range ps[l].cands {
				allowed[ci] = slices.Contains(ids, c)
			}
			sr.conds[l] = allowed
		}
		sp.isStackRule[ri] = true
		sp.stackRules = append(sp.stackRules, sr)
	}
	for _, t := range kb.TieBreaks {
		tp := tiePlan{tb: t, layer: -1}
		if t.Criterion == knowledge.TieOrder {
			tp.layer = layerIdx[t.Layer]
			tp.rank = make([]int, len(ps[tp.layer].cands))
			for ci, c := range ps[tp.layer].cands {
				tp.rank[ci] = slices.Index(t.Order, c)
			}
		}
		sp.ties = append(sp.ties, tp)
	}
	return sp
}

// layerState is one layer's candidates scored and filtered for one set of
// answers, before any stack is formed.
type layerState struct {
	score    []int
	excluded []bool // by an exclude rule
	unfit    []bool // by a capability fact (vendor or substrate)
	required []bool
	anyReq   bool
}

// stack is one combination: a candidate per layer, the complements placed
// beside each pick, and what the search found of it.
type stack struct {
	pick  []int
	also  [][]int
	score int
	// unmet lists the needs that hold and that nothing the stack places
	// meets; empty the layers the fallback left without a candidate. A
	// strict stack has neither.
	unmet []int
	empty []int
	// counted lists the stack rules that counted (rule indexes).
	counted []int
}

func (s *stack) placed(li, ci int) bool {
	return s.pick[li] == ci || slices.Contains(s.also[li], ci)
}

// strict reports a stack that meets every need.
func (s *stack) strict() bool { return len(s.unmet) == 0 && len(s.empty) == 0 }

// unmetOn reports whether a need of layer li goes unmet in s.
func (s *stack) unmetOn(c *Compiled, li int) bool {
	if slices.Contains(s.empty, li) {
		return true
	}
	for _, i := range s.unmet {
		if c.stack.needs[i].layer == li {
			return true
		}
	}
	return false
}

func (s *stack) parts() int {
	n := 0
	for li := range s.pick {
		n += len(s.also[li])
		if s.pick[li] >= 0 {
			n++
		}
	}
	return n
}

// search holds the inputs of one stack search.
type search struct {
	c      *Compiled
	fire   []bool
	needOn []bool // by need index: its conditions hold
	vendor string
	mix    string
	plat   string
	k8s    bool // the platform runs Kubernetes (OpenShift and managed clouds do)
	layers []layerState
	// comp[li][ci*E+e] are the complements placed beside candidate ci with
	// engine candidate e, and mask the features they and ci provide:
	// filled at reset so that evaluating a stack allocates nothing.
	comp   [][][]int
	mask   [][]uint32
	static []bool // by layer: comp and mask filled once for good
}

func newSearch(c *Compiled, a knowledge.Answers, fire []bool) *search {
	s := &search{}
	s.reset(c, a, fire)
	return s
}

// reset prepares s for another set of answers, reusing its buffers.
func (s *search) reset(c *Compiled, a knowledge.Answers, fire []bool) {
	s.inputs(c, a, fire)
	s.score()
}

// inputs reads what the search depends on besides the rules: the vendor,
// the mix, the platform and which needs hold.
func (s *search) inputs(c *Compiled, a knowledge.Answers, fire []bool) {
	vals := a.Values()
	s.c, s.fire = c, fire
	s.vendor, s.mix, s.plat = vals[c.stack.qVendor].Str, "", knowledge.SubstrateKubernetes
	if c.stack.qMix >= 0 {
		s.mix = vals[c.stack.qMix].Str
	}
	switch {
	case c.stack.qPlatform >= 0 && vals[c.stack.qPlatform].Str != "":
		s.plat = vals[c.stack.qPlatform].Str
	case vals[c.stack.qKubernetes].Str == knowledge.KubernetesNone:
		s.plat = knowledge.SubstrateBareMetal
	}
	s.k8s = runsOn([]string{knowledge.SubstrateKubernetes}, s.plat)
	s.needOn = slices.Grow(s.needOn[:0], len(c.stack.needs))[:len(c.stack.needs)]
	for i, n := range c.stack.needs {
		s.needOn[i] = holds(n.need.Conds, vals)
	}
}

// declarativeBit is the feature of models deployed as Kubernetes custom
// resources: a product provides it only where the platform runs Kubernetes.
var declarativeBit = featureBit("declarative")

// onPlatform is a feature mask as the platform lets it hold.
func (s *search) onPlatform(m uint32) uint32 {
	if !s.k8s {
		m &^= declarativeBit
	}
	return m
}

// has reports whether candidate ci of layer li provides feature bit here.
func (s *search) has(li, ci int, bit uint32) bool {
	return s.onPlatform(s.c.stack.caps[li][ci].features)&bit != 0
}

// score scores and filters every layer's candidates.
func (s *search) score() {
	c, fire := s.c, s.fire
	if len(s.layers) != len(c.plans) {
		s.layers = make([]layerState, len(c.plans))
	}
	for li := range c.plans {
		lp := &c.plans[li]
		n := len(lp.cands)
		ls := &s.layers[li]
		if len(ls.score) != n {
			*ls = layerState{score: make([]int, n), excluded: make([]bool, n), unfit: make([]bool, n), required: make([]bool, n)}
		} else {
			clear(ls.score)
			clear(ls.excluded)
			clear(ls.required)
		}
		ls.anyReq = false
		for _, r := range lp.rules {
			if !fire[r.ri] {
				continue
			}
			switch r.effect {
			case prefer:
				if !c.stack.isStackRule[r.ri] {
					ls.score[r.cand] += r.weight
				}
			case exclude:
				ls.excluded[r.cand] = true
			case require:
				ls.required[r.cand] = true
			}
		}
		for ci := range lp.cands {
			ls.unfit[ci] = s.capabilityBlock(li, ci) != nil
		}
		for ci := range lp.cands {
			if ls.required[ci] && !ls.excluded[ci] && !ls.unfit[ci] {
				ls.anyReq = true
			}
		}
	}
	s.fillComplements()
}

// fillComplements fills comp and mask for every layer, candidate and engine.
func (s *search) fillComplements() {
	c := s.c
	ne := 1
	if el := c.stack.engineLayer; el >= 0 {
		ne = len(c.plans[el].cands)
	}
	if len(s.comp) != len(c.plans) {
		s.comp, s.mask, s.static = make([][][]int, len(c.plans)), make([][]uint32, len(c.plans)), make([]bool, len(c.plans))
	}
	for li := range c.plans {
		n := len(c.plans[li].cands) * ne
		if len(s.comp[li]) != n {
			s.comp[li], s.mask[li] = make([][]int, n), make([]uint32, n)
		}
		caps := c.stack.caps[li]
		noComps := len(c.stack.comps[li]) == 0
		if noComps && s.static[li] {
			continue // no complement rules: the masks never change
		}
		for ci := range c.plans[li].cands {
			for e := range ne {
				if noComps {
					k := ci*ne + e
					s.comp[li][k] = s.comp[li][k][:0]
					s.mask[li][k] = caps[ci].features
					continue
				}
				engine := e
				if c.stack.engineLayer < 0 {
					engine = -1
				}
				k := ci*ne + e
				s.comp[li][k] = s.complements(s.comp[li][k], li, ci, engine)
				m := caps[ci].features
				for _, a := range s.comp[li][k] {
					m |= caps[a].features
				}
				s.mask[li][k] = m
			}
		}
		s.static[li] = noComps
	}
}

// capBlock says which capability fact rules a candidate out for these
// answers on its own (before any stack is formed).
type capBlock struct {
	kind string // knowledge.CanVendors or knowledge.CanSubstrates
	cap  *knowledge.Capability
}

func (s *search) capabilityBlock(li, ci int) *capBlock {
	cp := &s.c.stack.caps[li][ci]
	if cp.vendors != nil {
		if !slices.Contains(cp.vendors, s.vendor) {
			return &capBlock{knowledge.CanVendors, cp.vendorCap}
		}
		if s.mix == knowledge.MixSeveralVendors && s.vendor != knowledge.VendorNone {
			others := 0
			for _, v := range cp.vendors {
				if v != s.vendor && v != knowledge.VendorNone && v != knowledge.VendorApple {
					others++
				}
			}
			if others == 0 {
				return &capBlock{knowledge.CanVendors, cp.vendorCap}
			}
		}
	}
	if cp.substrates != nil && !runsOn(cp.substrates, s.plat) {
		return &capBlock{knowledge.CanSubstrates, cp.subCap}
	}
	return nil
}

// runsOn: OpenShift and a cloud's managed Kubernetes are Kubernetes.
func runsOn(subs []string, plat string) bool {
	if slices.Contains(subs, plat) {
		return true
	}
	return (plat == knowledge.SubstrateOpenShift || plat == knowledge.SubstrateManagedCloud) && slices.Contains(subs, knowledge.SubstrateKubernetes)
}

// available reports whether candidate ci of layer li can be placed at all.
func (s *search) available(li, ci int) bool {
	ls := &s.layers[li]
	return !ls.excluded[ci] && !ls.unfit[ci]
}

// runsEngine reports whether candidate ci of layer li runs engine candidate
// e. Only orchestrators are held to it: they schedule the engine's
// workers, while a model server serves its own models beside the engine.
func (s *search) runsEngine(li, ci, e int) bool {
	if li == s.c.stack.engineLayer || s.c.plans[li].layer.ID == knowledge.LayerModelServer {
		return true
	}
	cp := &s.c.stack.caps[li][ci]
	return cp.engines == nil || e < 0 || cp.engines[e]
}

// complements lists the candidates a layer's complement rules add beside
// pick, as far as they are available and run the engine.
func (s *search) complements(out []int, li, pick, engine int) []int {
	out = out[:0]
	for _, r := range s.c.stack.comps[li] {
		if !s.fire[r.ri] || r.with != pick || r.cand == pick {
			continue
		}
		if !s.available(li, r.cand) || !s.runsEngine(li, r.cand, engine) || slices.Contains(out, r.cand) {
			continue
		}
		if s.layers[li].score[r.cand] < 0 {
			continue // the answers count against it: not added beside the pick
		}
		out = append(out, r.cand)
	}
	slices.Sort(out)
	return out
}

// evaluate fills in a stack's complements, score and relaxed layers, and
// reports whether it is feasible at all.
func (s *search) evaluate(st *stack) bool {
	c := s.c
	engine := -1
	if el := c.stack.engineLayer; el >= 0 {
		engine = st.pick[el]
	}
	st.score, st.unmet, st.counted = 0, st.unmet[:0], st.counted[:0]
	ne, e := 1, 0
	if el := c.stack.engineLayer; el >= 0 {
		ne, e = len(c.plans[el].cands), engine
	}
	for li, ci := range st.pick {
		if !s.admits(li, ci, engine) {
			return false
		}
		st.also[li] = s.comp[li][ci*ne+e]
		st.score += s.layers[li].score[ci]
	}
	for i, n := range c.stack.needs {
		if !s.needOn[i] || s.onPlatform(s.mask[n.layer][st.pick[n.layer]*ne+e])&n.bit != 0 {
			continue
		}
		// Kept, ranked below every stack that meets more needs: where no
		// stack meets them all, the best one says which it leaves unmet.
		st.unmet = append(st.unmet, i)
	}
	for _, sr := range c.stack.stackRules {
		if !s.fire[sr.ri] || !st.placed(sr.layer, sr.cand) {
			continue
		}
		ok := true
		for l, allowed := range sr.conds {
			if allowed == nil {
				continue
			}
			hit := allowed[st.pick[l]]
			for _, a := range st.also[l] {
				hit = hit || allowed[a]
			}
			ok = ok && hit
		}
		if ok {
			st.score += sr.weight
			st.counted = append(st.counted, sr.ri)
		}
	}
	return true
}

// admits reports whether candidate ci may be placed on layer li beside
// engine: available, required if the layer has a requirement, running the
// engine, and (on an optional layer) placed only on a positive case.
func (s *search) admits(li, ci, engine int) bool {
	if !s.available(li, ci) || !s.runsEngine(li, ci, engine) {
		return false
	}
	ls := &s.layers[li]
	if ls.anyReq && !ls.required[ci] {
		return false
	}
	if s.c.plans[li].layer.Optional && ci > 0 && ls.score[ci] <= 0 && !ls.required[ci] && !s.needsLayer(li) {
		return false
	}
	return true
}

// needsLayer reports whether a need that holds asks layer li for a feature.
func (s *search) needsLayer(li int) bool {
	for i, n := range s.c.stack.needs {
		if s.needOn[i] && n.layer == li {
			return true
		}
	}
	return false
}

func (s *search) meets(st *stack, n needPlan) bool {
	if s.has(n.layer, st.pick[n.layer], n.bit) {
		return true
	}
	for _, a := range st.also[n.layer] {
		if s.has(n.layer, a, n.bit) {
			return true
		}
	}
	return false
}

// all enumerates every feasible stack (strict and relaxed).
func (s *search) all() []stack {
	n := len(s.c.plans)
	var out []stack
	pick := make([]int, n)
	var walk func(li int)
	walk = func(li int) {
		if li == n {
			st := stack{pick: slices.Clone(pick), also: make([][]int, n)}
			if s.evaluate(&st) {
				st.unmet = slices.Clone(st.unmet)
				st.counted = slices.Clone(st.counted)
				for li := range st.also {
					st.also[li] = slices.Clone(st.also[li])
				}
				out = append(out, st)
			}
			return
		}
		for ci := range s.c.plans[li].cands {
			if el := s.c.stack.engineLayer; el <= li && !s.admits(li, ci, enginePick(pick, el)) {
				continue
			}
			pick[li] = ci
			walk(li + 1)
		}
	}
	walk(0)
	return out
}

// better orders two stacks: strict before relaxed (fewer empty layers that
// a need wanted filled first), then score, then the declared tie-break. It
// returns <0 when a ranks first, and the criterion that settled it (-1 when
// the score or strictness did).
func (s *search) better(a, b *stack) (int, int) {
	if ua, ub := len(a.unmet)+len(a.empty), len(b.unmet)+len(b.empty); ua != ub {
		return ua - ub, -1
	}
	if a.score != b.score {
		return b.score - a.score, -1
	}
	for ti, t := range s.c.stack.ties {
		var d int
		switch t.tb.Criterion {
		case knowledge.TieFamiliarity:
			d = s.familiarity(b) - s.familiarity(a)
		case knowledge.TieFewerParts:
			d = a.parts() - b.parts()
		case knowledge.TieOrder:
			d = t.rank[a.pick[t.layer]] - t.rank[b.pick[t.layer]]
		}
		if d != 0 {
			return d, ti
		}
	}
	return 0, -1
}

// familiarity counts the placed products a familiarity rule speaks for.
func (s *search) familiarity(st *stack) int {
	n := 0
	for li, lp := range s.c.plans {
		for _, r := range lp.rules {
			if s.fire[r.ri] && s.c.stack.familiar[r.ri] && r.effect == prefer && r.weight > 0 && st.placed(li, r.cand) {
				n++
			}
		}
	}
	return n
}

// best returns the first-ranked stack (ok false when none is feasible).
func (s *search) best(all []stack) (stack, bool) {
	if len(all) == 0 {
		return stack{}, false
	}
	b := 0
	for i := 1; i < len(all); i++ {
		if d, _ := s.better(&all[i], &all[b]); d < 0 {
			b = i
		}
	}
	return all[b], true
}

// bestWith returns the first-ranked strict stack that places ci on li.
func (s *search) bestWith(all []stack, li, ci int) (stack, bool) {
	found := -1
	for i := range all {
		if all[i].pick[li] != ci || !all[i].strict() {
			continue
		}
		if found < 0 {
			found = i
		} else if d, _ := s.better(&all[i], &all[found]); d < 0 {
			found = i
		}
	}
	if found < 0 {
		return stack{}, false
	}
	return all[found], true
}

// bestOnly finds the first-ranked stack without keeping the others: the
// flips try a hundred changes per decision, so it reuses two stacks.
func (s *search) bestOnly(cur, best *stack) bool {
	n := len(s.c.plans)
	for _, st := range []*stack{cur, best} {
		if len(st.pick) != n {
			st.pick, st.also = make([]int, n), make([][]int, n)
		}
	}
	// rest[li] bounds what layers li.. can still add: each layer's best
	// score plus every positive stack rule that fired. A strict best that
	// a partial stack cannot reach even with the bound is not beaten by it
	// (equal scores still go to the tie-break, so they are walked).
	rest := make([]int, n+1)
	for _, sr := range s.c.stack.stackRules {
		if s.fire[sr.ri] && sr.weight > 0 {
			rest[n] += sr.weight
		}
	}
	for li := n - 1; li >= 0; li-- {
		top := math.MinInt / 4
		for _, v := range s.layers[li].score {
			top = max(top, v)
		}
		rest[li] = rest[li+1] + top
	}
	found := false
	var walk func(li, partial int)
	walk = func(li, partial int) {
		if found && best.strict() && partial+rest[li] < best.score {
			return
		}
		if li == n {
			if !s.evaluate(cur) {
				return
			}
			if found {
				if d, _ := s.better(cur, best); d >= 0 {
					return
				}
			}
			found = true
			copyStack(best, cur)
			return
		}
		for ci := range s.c.plans[li].cands {
			if el := s.c.stack.engineLayer; el <= li && !s.admits(li, ci, enginePick(cur.pick, el)) {
				continue
			}
			cur.pick[li] = ci
			walk(li+1, partial+s.layers[li].score[ci])
		}
	}
	walk(0, 0)
	return found
}

func copyStack(dst, src *stack) {
	copy(dst.pick, src.pick)
	for li := range src.also {
		dst.also[li] = append(dst.also[li][:0], src.also[li]...)
	}
	dst.score = src.score
	dst.unmet = append(dst.unmet[:0], src.unmet...)
	dst.empty = append(dst.empty[:0], src.empty...)
	dst.counted = append(dst.counted[:0], src.counted...)
}

// enginePick is the engine candidate of a partly built stack (-1: none yet).
func enginePick(pick []int, el int) int {
	if el < 0 {
		return -1
	}
	return pick[el]
}

// signature packs what a search reads into key: the fired rules, the needs
// that hold, the vendor, the mix and the platform.
func (s *search) signature(key []byte) []byte {
	var b byte
	for i, f := range s.fire {
		if f {
			b |= 1 << (i % 8)
		}
		if i%8 == 7 {
			key = append(key, b)
			b = 0
		}
	}
	key = append(key, b, 0xff)
	for _, on := range s.needOn {
		if on {
			key = append(key, '1')
		} else {
			key = append(key, '0')
		}
	}
	key = append(key, s.vendor...)
	key = append(key, 0)
	key = append(key, s.mix...)
	key = append(key, 0)
	return append(key, s.plat...)
}

// providesOffPlatform reports a feature the product has on another
// platform only (declarative resources need Kubernetes): a conflict names
// it among the blocked, as the platform keeps it out.
func (cp *capPlan) providesOffPlatform(bit uint32) bool {
	return bit == declarativeBit && cp.features&bit != 0
}
