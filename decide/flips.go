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
	return changes(c.kb, a, c.thresholds, c.deps)
}

// changes lists the candidate changes; answers no rule reads (directly or
// through a derived answer) are skipped: they cannot move a pick.
func changes(kb *knowledge.KB, a knowledge.Answers, ts map[string][]int, deps [][]int) []Change {
	vals := a.Values()
	var out []Change
	for qi, q := range kb.Questions {
		if q.Derived || len(deps[qi]) == 0 {
			continue
		}
		cur := vals[qi]
		switch q.Type {
		case knowledge.TypeBool:
			out = append(out, Change{qi, knowledge.Value{Bool: !cur.Bool}})
		case knowledge.TypeEnum:
			for _, v := range q.Values {
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

// computeFlips re-runs the choice for every candidate change and records,
// per layer, the changes that alter the pick or its complements. For a
// number, only the nearest value giving each new outcome is kept.
func computeFlips(kb *knowledge.KB, a knowledge.Answers, d Decision, c *Compiled) [][]Flip {
	ps, deps, layerOf := c.plans, c.deps, c.layerOf
	flips := make([][]Flip, len(kb.Layers))
	base := fired(kb, a.Values(), make([]bool, 0, len(kb.Rules)))
	fire := make([]bool, len(base))
	touched := make([]bool, len(kb.Layers))
	var buf scratch
	work := a.Clone()
	for _, ch := range changes(kb, a, c.thresholds, c.deps) {
		q := kb.Questions[ch.Q]
		work.Put(ch.Q, ch.Value)
		// Only rules that test this answer (or an answer derived from it)
		// can change; every other rule keeps its base result.
		copy(fire, base)
		clear(touched)
		for _, ri := range deps[ch.Q] {
			fire[ri] = holds(kb.Rules[ri].Conds, work.Values())
			if fire[ri] != base[ri] {
				touched[layerOf[ri]] = true
			}
		}
		work.Put(ch.Q, a.Values()[ch.Q])
		for li := range kb.Layers {
			if !touched[li] {
				continue
			}
			got := choose(&ps[li], fire, &buf)
			cur := d.Layers[li]
			if got.pick == cur.Pick && slices.Equal(got.also, cur.Also) {
				continue
			}
			f := Flip{Answer: q.Key, From: a.Values()[ch.Q].Plain(q.Type), To: ch.Value.Plain(q.Type), Pick: got.pick, Also: nonNil(got.also), toInt: ch.Value.Int}
			if q.Type == knowledge.TypeInt {
				if i := nearerIntFlip(flips[li], f, a.Values()[ch.Q].Int, ch.Value.Int); i >= -1 {
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
	}
	return flips
}

// dependents lists, per question index, the rules whose conditions read it,
// directly or through a derived answer computed from it.
func dependents(kb *knowledge.KB) [][]int {
	feeds := map[string][]string{ // derived key → the answers it is computed from
		knowledge.DerivedTotalGPUs: {knowledge.KeyNodes, knowledge.KeyGPUsPerNode},
		knowledge.DerivedGPUVendor: {knowledge.KeyGPU, knowledge.KeyGPUsPerNode},
	}
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
		if e.Answer != f.Answer || e.Pick != f.Pick || !slices.Equal(e.Also, f.Also) {
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
