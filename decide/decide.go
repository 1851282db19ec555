// Package decide turns answers and a knowledge base into a Decision: a pick
// per layer with the rules that support it, the alternatives with the rules
// that count against them, the landmines that apply, and the single-answer
// changes that would flip each pick. It is pure: no I/O, clock, randomness or
// terminal code, and the same input gives the same bytes out. Renderers read
// the Decision; none of them recomputes it. It imports knowledge/ and
// decide/sizing only; it must not import scenarios/, ui/ or any Charm package.
package decide

import (
	"slices"

	"github.com/stackpick/stackpick/knowledge"
)

// Schema names the JSON shape of a Decision. v2 (issue 10): answers carry
// "stated"; layers carry state, close_call, tie_break and conflicts;
// alternatives carry arguments; flips carry the whole stack they lead to.
const Schema = "stackpick.decision/v3"

// Layer states: the three kinds of outcome a layer has, never worded alike.
const (
	StatePicked      = "picked"       // a product was chosen on a case from the answers
	StateNotNeeded   = "not-needed"   // nothing for the layer to do
	StateNothingFits = "nothing-fits" // a need asks for the layer, and no product can meet it here
)

// Decision is the whole defended recommendation.
type Decision struct {
	Schema  string        `json:"schema"`
	Answers StatedAnswers `json:"answers"`
	Layers  []LayerPick   `json:"layers"`
	// Assumptions lists the defaulted answers that a reason, an exclusion
	// or a conflict rests on, in question order, each with the question
	// that would confirm it.
	Assumptions []Assumption `json:"assumptions"`
	Risks       []Risk       `json:"risks"`
	Trace       []RuleTrace  `json:"trace"`
	// Serves says which component serves which model: the LLM and the
	// models the engine serves itself, and those that need the model
	// server's framework backends.
	Serves []Serving `json:"serves"`
	// Stacks are the best-ranked feasible stacks with their scores, first
	// the one picked: the search's trace.
	Stacks []StackScore `json:"stacks"`
	// EngineConfig sizes the picked engine and writes its annotated launch
	// command (vLLM and SGLang; other engines say what is not covered).
	EngineConfig *EngineConfig `json:"engine_config,omitempty"`
}

// StatedAnswers are the answers, marshalled with whether each was stated.
type StatedAnswers struct{ knowledge.Answers }

// MarshalJSON writes {"key": {"value": …, "stated": …}, …}.
func (s StatedAnswers) MarshalJSON() ([]byte, error) { return s.Answers.MarshalStatedJSON() }

// Serving is one component and the models it serves.
type Serving struct {
	Layer   string   `json:"layer"`
	Product string   `json:"product"`
	Models  []string `json:"models"`
}

// Placed is one layer of a stack: its pick and the complements beside it.
type Placed struct {
	Layer string   `json:"layer"`
	Pick  string   `json:"pick"`
	Also  []string `json:"also"`
	// State is set for a layer left empty although a need asks for it
	// (nothing-fits).
	State string `json:"state,omitempty"`
}

// StackScore is one feasible stack and its score.
type StackScore struct {
	Layers []Placed `json:"layers"`
	Score  int      `json:"score"`
	// Strict is false for a stack that leaves a layer empty although a need
	// asks for it (the best there is when nothing fits).
	Strict bool `json:"strict"`
}

// LayerPick is the decision for one layer.
type LayerPick struct {
	Layer string `json:"layer"`
	Pick  string `json:"pick"`
	// Score is the sum of the weights of the prefer rules that counted for
	// the pick in the chosen stack.
	Score int      `json:"score"`
	Also  []string `json:"also"`
	State string   `json:"state"`
	// Reasons are the rules and needs that make the case for the pick (for
	// an empty layer: why it is not needed).
	Reasons []Reason `json:"reasons"`
	// Costs are the rules that count against the pick and its
	// complements, which it won despite.
	Costs        []Argument    `json:"costs"`
	Alternatives []Alternative `json:"alternatives"`
	// CloseCall is set when the runner-up on this layer is within the
	// declared close-call margin of the pick.
	CloseCall *CloseCall `json:"close_call,omitempty"`
	// Conflicts say, for a layer where nothing fits, which need went unmet
	// and which answers keep every candidate out.
	Conflicts []Conflict           `json:"conflicts"`
	Flips     []Flip               `json:"flips"`
	SeedNotes []knowledge.SeedNote `json:"course_notes_corrections"`
}

// Reason kinds.
const (
	KindRule       = "rule"
	KindNeed       = "need"
	KindCapability = "capability"
	KindTieBreak   = "tie-break"
	KindNoCase     = "no-case"
	KindDefault    = "default"
	KindStack      = "stack"
)

// Reason is a fired rule or a met need, as it bears on a pick.
type Reason struct {
	Kind string `json:"kind"`
	Rule string `json:"rule"`
	Text string `json:"text"`
	// Source cites the sources on one line; Sources are the records
	// themselves (repo, commit, path, quote, …), and AsOf the day the
	// oldest of them was read.
	Source  string            `json:"source"`
	Sources knowledge.Sources `json:"sources,omitempty"`
	AsOf    string            `json:"checked_on,omitempty"`
	Effect  string            `json:"effect,omitempty"`
	Product string            `json:"product"`
	Weight  int               `json:"weight,omitempty"`
	// When is the conditions as they held for these answers.
	When string `json:"when"`
	// Provided says, for a need, which product meets it and the capability
	// record that says so.
	Provided *Argument `json:"provided,omitempty"`
	// Assumes lists the answers the reason rests on that were defaulted.
	Assumes []string `json:"assumes"`
}

// Assumption is a defaulted answer that the decision rests on.
type Assumption struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// Means says what a default that stands for a computed value works
	// out to ("4 per model, nodes ÷ base models").
	Means string `json:"means,omitempty"`
	// Question is the prompt that would confirm (or change) it.
	Question string `json:"question"`
	// For lists the rules and needs that rest on it.
	For []string `json:"for"`
}

// Argument is one thing said for or against a choice, in words, with what
// it rests on.
type Argument struct {
	Kind    string `json:"kind"`
	Rule    string `json:"rule,omitempty"`
	Product string `json:"product,omitempty"`
	Text    string `json:"text"`
	Weight  int    `json:"weight,omitempty"`
	Source  string `json:"source,omitempty"`
	Quote   string `json:"quote,omitempty"`
	// Answers are the answers it rests on ("kubernetes = none").
	Answers []string `json:"answers,omitempty"`
	Assumes []string `json:"assumes,omitempty"`
}

// Alternative is a choice of the layer that was not picked.
type Alternative struct {
	Product string `json:"product"`
	// Score is its own score on the layer, before pairing.
	Score int `json:"score"`
	// Excluded: an exclusion rule or a capability fact rules it out for
	// these answers; Against says which, and no score is held against it.
	Excluded bool `json:"excluded"`
	// Unfit: not excluded on its own, but no feasible stack places it.
	Unfit bool `json:"unfit"`
	// Margin is how many points its best stack is behind the pick's.
	Margin int `json:"margin"`
	// Trade: it scores above the pick on this layer alone, and lost to
	// the whole stack (Stack shows what it would come with).
	Trade   bool       `json:"trade"`
	For     []Argument `json:"for"`
	Against []Argument `json:"against"`
	// Decisive names the difference that decided against it.
	Decisive []Argument `json:"decisive"`
	Stack    []Placed   `json:"stack,omitempty"`
	// WhyNot is the argument as plain sentences; ScoreNote the raw
	// scores, for the trace only.
	WhyNot    []string `json:"why_not"`
	ScoreNote string   `json:"score_note,omitempty"`
}

// CloseCall is a pick that won by the close-call margin or less.
type CloseCall struct {
	Other     string   `json:"other"`
	OtherAlso []string `json:"other_also"`
	Margin    int      `json:"margin"`
	Tie       bool     `json:"tie"`
	// TieBreak is the declared criterion that settled a tie.
	TieBreak *TieBreakUse `json:"tie_break,omitempty"`
	PickFor  []Argument   `json:"pick_for"`
	OtherFor []Argument   `json:"other_for"`
	// Tip is the nearest single answer change that gives Other (nil: none).
	Tip *Flip `json:"tip"`
}

// TieBreakUse is the declared tie-break criterion that settled a tie.
type TieBreakUse struct {
	ID        string `json:"id"`
	Criterion string `json:"criterion"`
	Argument  string `json:"argument"`
	Source    string `json:"source"`
}

// Conflict is an unmet need of a layer where nothing fits.
type Conflict struct {
	Need    string     `json:"need"`
	Text    string     `json:"text"`
	Source  string     `json:"source"`
	Answers []string   `json:"answers"`
	Blocked []Argument `json:"blocked"`
}

// Flip is one single-answer change that changes a layer's pick.
type Flip struct {
	Answer string   `json:"answer"`
	From   string   `json:"from"`
	To     string   `json:"to"`
	Pick   string   `json:"pick"`
	Also   []string `json:"also"`
	// Stated: the answer changed was the user's; Hardware: the change
	// moves to another class of accelerator (vendor, or none); Distance
	// ranks how far the change is (1 is one step).
	Stated   bool     `json:"stated"`
	Hardware bool     `json:"hardware"`
	Distance int      `json:"distance"`
	Stack    []Placed `json:"stack"`
	toInt    int
	qi       int
}

// Risk is a landmine of a placed product that applies to these answers, or
// a conflict between rules.
type Risk struct {
	Layer   string            `json:"layer"`
	Product string            `json:"product"`
	ID      string            `json:"id"`
	Text    string            `json:"text"`
	Watch   string            `json:"watch,omitempty"`
	Source  string            `json:"source"`
	Sources knowledge.Sources `json:"sources,omitempty"`
	AsOf    string            `json:"checked_on,omitempty"`
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
	d, s := c.decideNoFlips(a)
	flips := computeFlips(c, a, d, s)
	for i := range d.Layers {
		d.Layers[i].Flips = flips[i]
		if cc := d.Layers[i].CloseCall; cc != nil {
			for j := range flips[i] {
				if flips[i][j].Pick == cc.Other {
					f := flips[i][j]
					cc.Tip = &f
					break
				}
			}
		}
		if d.Layers[i].Layer == knowledge.LayerEngine && d.Layers[i].Pick != knowledge.None {
			d.EngineConfig = engineConfigUnder(c, a, d.Layers[i].Pick, rolePortsOf(c.kb, d.Layers))
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
	stack      stackPlan
	live       []bool // by question index: something reads it
}

// Compile prepares kb for deciding.
func Compile(kb *knowledge.KB) *Compiled {
	c := &Compiled{kb: kb, plans: plans(kb), deps: dependents(kb), layerOf: make([]int, len(kb.Rules)), thresholds: thresholds(kb), replaced: seedFlagNotes(kb)}
	c.stack = compileStack(kb, c.plans)
	c.live = liveQuestions(kb, c.deps)
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
		lp := layerPlan{layer: layer, cands: kb.Choices(layer)}
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
