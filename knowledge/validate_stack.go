package knowledge

import (
	"fmt"
	"slices"
	"strings"
)

// stack checks capabilities, needs, the tie-break and claims, and the
// stack conditions and tags of rules, then holds every rule's text to the
// claims it makes.
func (c *checker) stack() {
	kb := c.kb
	kb.capByKey = map[string]*Capability{}
	for _, cp := range kb.Capabilities {
		c.capability(cp)
		kb.capByKey[cp.Product+"/"+cp.What] = cp
	}
	needs := map[string]bool{}
	for _, n := range kb.Needs {
		what := fmt.Sprintf("need %q", n.ID)
		if !idRE.MatchString(n.ID) || needs[n.ID] {
			c.at(n.Pos, what, []string{"id"}, "need ids are unique lower-case words joined by hyphens", "", `for example id = "fleet-routing"`)
		}
		needs[n.ID] = true
		if l := kb.layerByID[n.Layer]; l == nil {
			c.at(n.Pos, what+" layer", []string{"layer"}, fmt.Sprintf("unknown layer %q", n.Layer), strings.Join(layerOrder, ", "), didYouMean(n.Layer, layerOrder))
		}
		if !slices.Contains(Features, n.Feature) {
			c.at(n.Pos, what+" feature", []string{"feature"}, fmt.Sprintf("unknown feature %q", n.Feature), strings.Join(Features, ", "), didYouMean(n.Feature, Features))
		}
		if n.Text == "" {
			c.at(n.Pos, what, nil, "every need says in one sentence why the answers need the feature", "", `add text = "…"`)
		}
		c.checkSources(n.Pos, n.Line, what, n.Sources)
		n.Conds = c.conds(n.Pos, what, []string{"when"}, n.When)
	}
	for _, r := range kb.Rules {
		what := fmt.Sprintf("rule %q", r.ID)
		c.stackCond(r.Pos, what, r.Stack)
		if st := describeStack(r.Stack); st != "" {
			if r.WhenText == "always" || r.WhenText == "" {
				r.WhenText = st
			} else {
				r.WhenText += ", " + st
			}
		}
		if r.Tag != "" && r.Tag != TagFamiliarity {
			c.at(r.Pos, what+" tag", []string{"tag"}, fmt.Sprintf("unknown tag %q", r.Tag), TagFamiliarity, "")
		}
	}
	c.tieBreaks()
	for _, cl := range kb.Claims {
		what := fmt.Sprintf("claim %q", cl.Phrase)
		if strings.TrimSpace(cl.Phrase) == "" || cl.Means == "" {
			c.at(cl.Pos, what, nil, "a claim needs a phrase and what it means", "", `add phrase = "…" and means = "…"`)
		}
		if len(cl.When) == 0 && len(cl.Stack) == 0 {
			c.at(cl.Pos, what, nil, "a claim needs the conditions that make it true", "", "add [claim.when] or [claim.stack]")
		}
		cl.Conds = c.conds(cl.Pos, what, []string{"when"}, cl.When)
		c.stackCond(cl.Pos, what, cl.Stack)
	}
	if len(*c.errs) > 0 {
		return
	}
	for _, r := range kb.Rules {
		c.pairing(r)
	}
	for _, r := range kb.Rules {
		seen := map[string]bool{}
		for _, cl := range kb.Claims {
			if seen[cl.Phrase] || !MentionsClaim(r.Reason, cl) {
				continue
			}
			seen[cl.Phrase] = true
			// Claims that share the phrase are alternatives: one must hold.
			gap := ""
			for _, alt := range kb.Claims {
				if alt.Phrase != cl.Phrase {
					continue
				}
				g := ImpliesClaim(kb, r.Conds, RuleStack(r), alt)
				if g == "" {
					gap = ""
					break
				}
				if gap == "" {
					gap = g
				}
			}
			if gap != "" {
				c.at(r.Pos, fmt.Sprintf("rule %q reason", r.ID), []string{"reason"},
					fmt.Sprintf("the reason says %q (%s), but %s", cl.Phrase, cl.Means, gap), "",
					"add the condition to [rule.when] (or [rule.stack]), or reword the reason")
			}
		}
	}
}

func (c *checker) capability(cp *Capability) {
	kb := c.kb
	what := fmt.Sprintf("capability %s/%s", cp.Product, cp.What)
	p := kb.productByID[cp.Product]
	if p == nil {
		ids := make([]string, 0, len(kb.Products))
		for _, p := range kb.Products {
			ids = append(ids, p.ID)
		}
		c.at(cp.Pos, what, []string{"product"}, fmt.Sprintf("unknown product %q", cp.Product), strings.Join(ids, ", "), didYouMean(cp.Product, ids))
		return
	}
	var allowed []string
	switch cp.What {
	case CanEngines:
		for _, e := range kb.ProductsOn(LayerEngine) {
			allowed = append(allowed, e.ID)
		}
	case CanVendors:
		allowed = vendors
	case CanSubstrates:
		allowed = substrateSet
	case CanFeatures:
		allowed = Features
	default:
		c.at(cp.Pos, what, []string{"what"}, fmt.Sprintf("unknown capability kind %q", cp.What), strings.Join(capabilityKinds, ", "), didYouMean(cp.What, capabilityKinds))
		return
	}
	if p.Layer == LayerEngine && cp.What != CanVendors {
		c.at(cp.Pos, what, []string{"what"}, "an engine's capabilities are the vendors it supports", CanVendors, "")
	}
	if len(cp.Values) == 0 {
		c.at(cp.Pos, what, []string{"values"}, "a capability lists what the product supports", strings.Join(allowed, ", "), "")
	}
	for _, v := range cp.Values {
		if !slices.Contains(allowed, v) {
			c.at(cp.Pos, what, []string{"values"}, fmt.Sprintf("unknown %s value %q", cp.What, v), strings.Join(allowed, ", "), didYouMean(v, allowed))
		}
	}
	c.checkSources(cp.Pos, cp.Line, what, cp.Sources)
}

// stackCond checks a layer → products table.
func (c *checker) stackCond(pos Pos, what string, st map[string][]string) {
	for layer, ids := range st {
		l := c.kb.layerByID[layer]
		if l == nil {
			c.at(pos, what+" stack", []string{"stack"}, fmt.Sprintf("unknown layer %q", layer), strings.Join(layerOrder, ", "), didYouMean(layer, layerOrder))
			continue
		}
		choices := c.kb.Choices(l)
		for _, id := range ids {
			if !slices.Contains(choices, id) {
				c.at(pos, what+" stack", []string{"stack", layer}, fmt.Sprintf("%q is not a choice of the %s layer", id, layer), strings.Join(choices, ", "), didYouMean(id, choices))
			}
		}
	}
}

// Choices lists a layer's choices: "none" first when it is optional, then
// its products in knowledge-base order.
func (kb *KB) Choices(l *Layer) []string {
	var out []string
	if l.Optional {
		out = append(out, None)
	}
	for _, p := range kb.ProductsOn(l.ID) {
		out = append(out, p.ID)
	}
	return out
}

// tieBreaks checks the declared tie-break: known criteria, an argument and
// source each, and for every layer an order that names each of its
// choices once, so no tie ever falls to a position in a file.
func (c *checker) tieBreaks() {
	kb := c.kb
	criteria := []string{TieFamiliarity, TieFewerParts, TieOrder}
	ordered := map[string]bool{}
	seen := map[string]bool{}
	for _, t := range kb.TieBreaks {
		what := fmt.Sprintf("tiebreak %q", t.ID)
		if !idRE.MatchString(t.ID) || seen[t.ID] {
			c.at(t.Pos, what, []string{"id"}, "tie-break ids are unique lower-case words joined by hyphens", "", "")
		}
		seen[t.ID] = true
		if !slices.Contains(criteria, t.Criterion) {
			c.at(t.Pos, what, []string{"criterion"}, fmt.Sprintf("unknown criterion %q", t.Criterion), strings.Join(criteria, ", "), didYouMean(t.Criterion, criteria))
		}
		if t.Argument == "" {
			c.at(t.Pos, what, nil, "a tie-break needs its argument", "", `add argument = "…"`)
		}
		c.checkSources(t.Pos, t.Line, what, t.Sources)
		if t.Criterion != TieOrder {
			if t.Layer != "" || len(t.Order) > 0 {
				c.at(t.Pos, what, []string{"order"}, "only an order criterion has layer and order", "", "")
			}
			continue
		}
		l := kb.layerByID[t.Layer]
		if l == nil {
			c.at(t.Pos, what+" layer", []string{"layer"}, fmt.Sprintf("unknown layer %q", t.Layer), strings.Join(layerOrder, ", "), didYouMean(t.Layer, layerOrder))
			continue
		}
		ordered[t.Layer] = true
		choices := kb.Choices(l)
		for _, id := range t.Order {
			if !slices.Contains(choices, id) {
				c.at(t.Pos, what+" order", []string{"order"}, fmt.Sprintf("%q is not a choice of the %s layer", id, t.Layer), strings.Join(choices, ", "), didYouMean(id, choices))
			}
		}
		for _, id := range choices {
			if n := countOf(t.Order, id); n != 1 {
				c.at(t.Pos, what+" order", []string{"order"}, fmt.Sprintf("the order must name %q exactly once (it names it %d times): a tie is never settled by position in a file", id, n), strings.Join(choices, ", "), "")
			}
		}
	}
	for _, l := range kb.Layers {
		if !ordered[l.ID] {
			*c.errs = append(*c.errs, &Error{File: "knowledge", Key: "tiebreak", Problem: fmt.Sprintf("no declared tie-break order for the %s layer: a tie there would fall to a position in a file", l.ID), Hint: fmt.Sprintf(`add [[tiebreak]] criterion = "order", layer = %q, order = [every choice of the layer]`, l.ID)})
		}
	}
}

func countOf(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// MentionsClaim reports whether text uses the claim's phrase (ignoring case).
func MentionsClaim(text string, cl *Claim) bool {
	return strings.Contains(strings.ToLower(text), strings.ToLower(cl.Phrase))
}

// ImpliesClaim says how conditions (on answers and the stack) fail to
// make cl true: "" when every answer they admit makes it hold. Each of the
// claim's keys must be tested by the conditions so that every value they
// let through meets the claim's test; each of its stack layers must be
// limited to products the claim allows.
func ImpliesClaim(kb *KB, conds []Cond, stack map[string][]string, cl *Claim) string {
	for i := range cl.Conds {
		want := &cl.Conds[i]
		q := kb.Questions[want.Q]
		var mine []Cond
		for _, cd := range conds {
			if cd.Key == want.Key {
				mine = append(mine, cd)
			}
		}
		if len(mine) == 0 {
			return fmt.Sprintf("its conditions do not test %s (the claim needs %s)", want.Key, want.Text)
		}
		for _, v := range probeValues(kb, q, conds, cl.Conds) {
			if holdsEvery(mine, v) && !want.Holds(v) {
				return fmt.Sprintf("its conditions let %s = %s through, where the claim needs %s", want.Key, v.Plain(q.Type), want.Text)
			}
		}
	}
	for layer, allowed := range cl.Stack {
		mine, ok := stack[layer]
		if !ok {
			return fmt.Sprintf("it is not limited to stacks whose %s is %s", layer, strings.Join(allowed, " or "))
		}
		for _, id := range mine {
			if !slices.Contains(allowed, id) {
				return fmt.Sprintf("it also counts for stacks whose %s is %s", layer, id)
			}
		}
	}
	return ""
}

// probeValues are the values of q worth trying: every enum value or list
// item (alone), both booleans, and for numbers every threshold either side.
func probeValues(kb *KB, q *Question, a, b []Cond) []Value {
	switch q.Type {
	case TypeBool:
		return []Value{{Bool: false}, {Bool: true}}
	case TypeEnum:
		out := make([]Value, 0, len(q.Values))
		for _, v := range q.Values {
			out = append(out, Value{Str: v})
		}
		return out
	case TypeList:
		out := []Value{{}}
		for _, v := range q.Values {
			out = append(out, Value{List: []string{v}})
		}
		return append(out, Value{List: slices.Clone(q.Values)})
	}
	var ns []int
	if q.Min != nil {
		ns = append(ns, *q.Min)
	}
	if q.Max != nil {
		ns = append(ns, *q.Max)
	}
	for _, cs := range [][]Cond{a, b} {
		for _, cd := range cs {
			if cd.Key != q.Key {
				continue
			}
			for _, t := range append([]int{cd.Int}, cd.Ints...) {
				ns = append(ns, t-1, t, t+1)
			}
		}
	}
	out := make([]Value, 0, len(ns))
	for _, n := range ns {
		out = append(out, Value{Int: n})
	}
	return out
}

// holdsEvery reports whether every condition holds for v (all of one
// answer's conditions).
func holdsEvery(cs []Cond, v Value) bool {
	for i := range cs {
		if !cs[i].Holds(v) {
			return false
		}
	}
	return true
}

// RuleStack is the stack a rule's reason can speak of: its stack
// conditions, plus its own product on its layer when it argues for one (a
// reason for Dynamo is only read where Dynamo is the pick).
func RuleStack(r *Rule) map[string][]string {
	if r.Product == None || (r.Effect != EffectPrefer && r.Effect != EffectRequire) || (r.Effect == EffectPrefer && r.Weight < 0) {
		return r.Stack
	}
	if _, ok := r.Stack[r.Layer]; ok {
		return r.Stack
	}
	out := map[string][]string{r.Layer: {r.Product}}
	for k, v := range r.Stack {
		out[k] = v
	}
	return out
}

// pairing rejects a rule that would make an undeployable stack count: a
// stack condition pairing products whose capabilities say they cannot run
// together, or a complement whose product runs none of the engines its
// pick runs.
func (c *checker) pairing(r *Rule) {
	kb := c.kb
	what := fmt.Sprintf("rule %q", r.ID)
	st := RuleStack(r)
	engines := st[LayerEngine]
	for layer, ids := range st {
		if layer == LayerEngine || layer == LayerModelServer {
			continue
		}
		for _, id := range ids {
			runs, ok := kb.Can(id, CanEngines)
			if !ok {
				continue
			}
			for _, e := range engines {
				if !slices.Contains(runs, e) {
					cp := kb.Capability(id, CanEngines)
					c.at(r.Pos, what+" stack", []string{"stack"}, fmt.Sprintf("it pairs %s with %s, but %s runs %s (%s:%d): that stack cannot be deployed", id, e, id, strings.Join(runs, ", "), cp.File, cp.Line), "", "drop the pairing, or record the capability with its source in capabilities.toml")
				}
			}
		}
	}
	if r.Effect == EffectComplement && r.Layer == LayerOrchestrator {
		a, okA := kb.Can(r.Product, CanEngines)
		b, okB := kb.Can(r.With, CanEngines)
		if okA && okB && !slices.ContainsFunc(a, func(e string) bool { return slices.Contains(b, e) }) {
			c.at(r.Pos, what, []string{"product"}, fmt.Sprintf("%s complements %s, but they share no engine (%s runs %s; %s runs %s): that stack cannot be deployed", r.Product, r.With, r.Product, strings.Join(a, ", "), r.With, strings.Join(b, ", ")), "", "drop the complement, or record the capability with its source")
		}
	}
}

// describeStack words stack conditions in layer order: "orchestrator = llm-d".
func describeStack(st map[string][]string) string {
	var parts []string
	for _, l := range layerOrder {
		if ids, ok := st[l]; ok {
			op := " = "
			if len(ids) > 1 {
				op = " ∈ "
			}
			parts = append(parts, l+op+strings.Join(ids, "|"))
		}
	}
	return strings.Join(parts, ", ")
}
