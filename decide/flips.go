package decide

import (
	"slices"

	"github.com/stackpick/stackpick/knowledge"
)

// Change is one single-answer change worth trying: a question and a value.
type Change struct {
	Q     int
	Value knowledge.Value
}

// Changes lists the single-answer changes that could matter to some rule:
// every other value of an enum, the other boolean, each list item toggled,
// and for numbers the values on either side of every threshold a rule tests
// (including thresholds on total_gpus, mapped back to nodes and
// gpus_per_node). Values no rule tells apart are not tried: they cannot
// change anything.
func Changes(kb *knowledge.KB, a knowledge.Answers) []Change {
	return Compile(kb).Changes(a)
}

// Changes lists the single-answer changes that could matter to some rule
// (see Changes).
func (c *Compiled) Changes(a knowledge.Answers) []Change {
	return changes(c.kb, a, c.thresholds, c.live)
}

// changes lists the candidate changes; answers no rule reads (directly or
// through a derived answer) are skipped: they cannot move a pick.
func changes(kb *knowledge.KB, a knowledge.Answers, ts map[string][]int, live []bool) []Change {
	vals := a.Values()
	var out []Change
	for qi, q := range kb.Questions {
		if q.Derived || !live[qi] {
			continue
		}
		cur := vals[qi]
		switch q.Type {
		case knowledge.TypeBool:
			out = append(out, Change{qi, knowledge.Value{Bool: !cur.Bool}})
		case knowledge.TypeEnum:
			for _, v := range q.Values {
				// A change that contradicts another answer (a Kubernetes
				// substrate without Kubernetes) is no answer a user can give.
				if (q.Key == knowledge.KeySubstrate && knowledge.SubstrateConflicts(v, a.Get(knowledge.KeyKubernetes).Str)) ||
					(q.Key == knowledge.KeyKubernetes && knowledge.SubstrateConflicts(a.Get(knowledge.KeySubstrate).Str, v)) {
					continue
				}
				if v != cur.Str {
					out = append(out, Change{qi, knowledge.Value{Str: v}})
				}
			}
		case knowledge.TypeList:
			for _, v := range q.Values {
				var list []string
				if slices.Contains(cur.List, v) {
					for _, x := range cur.List {
						if x != v {
							list = append(list, x)
						}
					}
				} else {
					for _, x := range q.Values { // canonical order
						if x == v || slices.Contains(cur.List, x) {
							list = append(list, x)
						}
					}
				}
				out = append(out, Change{qi, knowledge.Value{List: list}})
			}
		case knowledge.TypeInt:
			for _, n := range intCandidates(ts, a, q) {
				if n != cur.Int {
					out = append(out, Change{qi, knowledge.Value{Int: n}})
				}
			}
		}
	}
	return out
}

// Thresholds returns the numbers a rule or landmine compares key against.
func Thresholds(kb *knowledge.KB, key string) []int {
	return thresholds(kb)[key]
}

// thresholds collects, in one pass, the numbers every int or list answer is
// compared against, sorted and unique per key.
func thresholds(kb *knowledge.KB) map[string][]int {
	ts := map[string][]int{}
	add := func(cs []knowledge.Cond) {
		for _, c := range cs {
			if c.Type != knowledge.TypeInt {
				continue
			}
			if c.Op == knowledge.OpOneOf {
				ts[c.Key] = append(ts[c.Key], c.Ints...)
			} else {
				ts[c.Key] = append(ts[c.Key], c.Int)
			}
		}
	}
	for _, r := range kb.Rules {
		add(r.Conds)
	}
	for _, n := range kb.Needs {
		add(n.Conds)
	}
	for _, p := range kb.Products {
		for _, m := range p.Landmines {
			add(m.Conds)
		}
	}
	for k, v := range ts {
		slices.Sort(v)
		ts[k] = slices.Compact(v)
	}
	return ts
}

func intCandidates(ts map[string][]int, a knowledge.Answers, q *knowledge.Question) []int {
	var c []int
	for _, t := range ts[q.Key] {
		c = append(c, t-1, t, t+1)
	}
	// total_gpus = nodes × gpus_per_node: cross its thresholds via either factor.
	var f int
	switch q.Key {
	case knowledge.KeyNodes:
		f = a.Get(knowledge.KeyGPUsPerNode).Int
	case knowledge.KeyGPUsPerNode:
		f = a.Get(knowledge.KeyNodes).Int
	}
	if f > 0 {
		for _, t := range ts[knowledge.DerivedTotalGPUs] {
			n := (t + f - 1) / f
			c = append(c, n-1, n)
		}
	}
	// replicas_per_model = replicas, or nodes ÷ base_models when replicas
	// is 0: cross its thresholds through whichever answer sets it.
	auto := a.Get(knowledge.KeyReplicas).Int == 0
	bm, nodes := max(1, a.Get(knowledge.KeyBaseModels).Int), a.Get(knowledge.KeyNodes).Int
	for _, t := range ts[knowledge.DerivedReplicasPerModel] {
		switch {
		case q.Key == knowledge.KeyReplicas:
			c = append(c, t-1, t, t+1)
		case q.Key == knowledge.KeyNodes && auto:
			c = append(c, t*bm-1, t*bm, (t+1)*bm)
		case q.Key == knowledge.KeyBaseModels && auto && t > 0:
			c = append(c, nodes/t, nodes/t+1, nodes/max(1, t-1))
		}
	}
	var out []int
	for _, n := range c {
		if (q.Min != nil && n < *q.Min) || (q.Max != nil && n > *q.Max) {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// computeFlips re-runs the stack search for every candidate change and
// records, per layer, the changes that alter its pick or complements, each
// with the whole stack it leads to. For a number, only the nearest value
// giving each new outcome is kept. Each layer's flips are ranked: changes
// within the same class of hardware first, nearest first, a stated answer
// before a defaulted one; changes of accelerator class last.
func computeFlips(c *Compiled, a knowledge.Answers, d Decision, baseSearch *search) [][]Flip {
	kb := c.kb
	flips := make([][]Flip, len(kb.Layers))
	base := baseSearch.fire
	vendor := a.Get(knowledge.DerivedGPUVendor).Str
	work := a.Clone()
	fire := make([]bool, len(base))
	var s search
	var cur, found stack
	memo := map[string]stack{}
	var key []byte
	for _, ch := range changes(kb, a, c.thresholds, c.live) {
		q := kb.Questions[ch.Q]
		work.Put(ch.Q, ch.Value)
		copy(fire, base)
		moved := false
		for _, ri := range c.deps[ch.Q] {
			fire[ri] = holds(kb.Rules[ri].Conds, work.Values())
			moved = moved || fire[ri] != base[ri]
		}
		s.inputs(c, work, fire)
		moved = moved || s.vendor != baseSearch.vendor || s.plat != baseSearch.plat || s.mix != baseSearch.mix || !slices.Equal(s.needOn, baseSearch.needOn)
		if !moved {
			// Nothing the search reads changed: the outcome cannot.
			work.Put(ch.Q, a.Values()[ch.Q])
			continue
		}
		// Changes that leave the search the same inputs (most numeric
		// probes) share one search.
		key = s.signature(key[:0])
		res, ok := memo[string(key)]
		if !ok {
			s.score()
			if !s.bestOnly(&cur, &found) {
				found = s.fallback()
			}
			res = stack{pick: slices.Clone(found.pick), also: make([][]int, len(found.also)), unmet: slices.Clone(found.unmet), empty: slices.Clone(found.empty)}
			for li := range found.also {
				res.also[li] = slices.Clone(found.also[li])
			}
			memo[string(key)] = res
		}
		st := res
		// A change of the accelerators themselves (another card, vendor,
		// count per node or mix) is a hardware change, listed last.
		hardware := work.Get(knowledge.DerivedGPUVendor).Str != vendor || q.Key == knowledge.KeyGPU || q.Key == knowledge.KeyGPUsPerNode || q.Key == knowledge.KeyAcceleratorMix
		work.Put(ch.Q, a.Values()[ch.Q])
		var placed []Placed
		for li := range kb.Layers {
			cur := d.Layers[li]
			pick := s.name(li, st.pick[li])
			also := make([]string, 0, len(st.also[li]))
			for _, x := range st.also[li] {
				also = append(also, s.name(li, x))
			}
			if pick == cur.Pick && slices.Equal(also, cur.Also) {
				continue
			}
			if placed == nil {
				placed = s.placedOf(&st)
			}
			from := a.Values()[ch.Q]
			f := Flip{Answer: q.Key, From: from.Plain(q.Type), To: ch.Value.Plain(q.Type), Pick: pick, Also: also, Stack: placed,
				Stated: a.Stated(ch.Q), Hardware: hardware, Distance: distance(q, from, ch.Value), toInt: ch.Value.Int, qi: ch.Q}
			if q.Type == knowledge.TypeInt {
				if i := nearerIntFlip(flips[li], f, from.Int, ch.Value.Int); i >= -1 {
					if i >= 0 {
						flips[li][i] = f
					} else {
						flips[li] = append(flips[li], f)
					}
				}
				continue
			}
			flips[li] = append(flips[li], f)
		}
	}
	for li := range flips {
		if flips[li] == nil {
			flips[li] = []Flip{}
		}
		slices.SortStableFunc(flips[li], func(x, y Flip) int {
			if x.Hardware != y.Hardware {
				if x.Hardware {
					return 1
				}
				return -1
			}
			// The user's own answers first: "what if we chose differently"
			// comes before "what if a default is wrong".
			if x.Stated != y.Stated {
				if x.Stated {
					return -1
				}
				return 1
			}
			if x.Distance != y.Distance {
				return x.Distance - y.Distance
			}
			return x.qi - y.qi
		})
	}
	return flips
}

// distance is how far a change goes: steps along an enum's values, one
// for a boolean or a list item, and for a number its factor of change
// (doubling is 2, ten times is 4).
func distance(q *knowledge.Question, from, to knowledge.Value) int {
	switch q.Type {
	case knowledge.TypeEnum:
		i, j := slices.Index(q.Values, from.Str), slices.Index(q.Values, to.Str)
		if i < 0 || j < 0 {
			return 1
		}
		return max(1, abs(i-j))
	case knowledge.TypeInt:
		lo, hi := min(from.Int, to.Int), max(from.Int, to.Int)
		lo = max(lo, 1)
		steps := 1
		for v := lo * 2; v <= hi; v *= 2 {
			steps++
		}
		return steps
	}
	return 1
}

// liveQuestions marks the questions something in the decision reads: a
// rule, a need, or a capability check (vendor, platform, mix).
func liveQuestions(kb *knowledge.KB, deps [][]int) []bool {
	live := make([]bool, len(kb.Questions))
	for qi := range kb.Questions {
		live[qi] = len(deps[qi]) > 0
	}
	mark := func(key string) {
		keys := append([]string{key}, feeds[key]...)
		for _, k := range keys {
			if qi := kb.QuestionIndex(k); qi >= 0 {
				live[qi] = true
			}
		}
	}
	for _, n := range kb.Needs {
		for _, cd := range n.Conds {
			mark(cd.Key)
		}
	}
	for _, k := range []string{knowledge.DerivedGPUVendor, knowledge.DerivedPlatform, knowledge.KeyAcceleratorMix} {
		mark(k)
	}
	return live
}

// dependents lists, per question index, the rules whose conditions read it,
// directly or through a derived answer computed from it.
func dependents(kb *knowledge.KB) [][]int {
	deps := make([][]int, len(kb.Questions))
	for ri, r := range kb.Rules {
		for _, c := range r.Conds {
			keys := append([]string{c.Key}, feeds[c.Key]...)
			for _, k := range keys {
				qi := kb.QuestionIndex(k)
				if qi >= 0 && !slices.Contains(deps[qi], ri) {
					deps[qi] = append(deps[qi], ri)
				}
			}
		}
	}
	return deps
}

// nearerIntFlip decides what to do with a numeric flip f: -1 to append it,
// an index to replace a farther flip with the same outcome, -2 to drop it.
func nearerIntFlip(existing []Flip, f Flip, cur, to int) int {
	for i, e := range existing {
		if e.Answer != f.Answer || e.Pick != f.Pick || !slices.Equal(e.Also, f.Also) || !slices.EqualFunc(e.Stack, f.Stack, samePlaced) {
			continue
		}
		if abs(to-cur) < abs(e.toInt-cur) {
			return i
		}
		return -2
	}
	return -1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func samePlaced(x, y Placed) bool {
	return x.Layer == y.Layer && x.Pick == y.Pick && slices.Equal(x.Also, y.Also)
}
