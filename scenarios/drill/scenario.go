package drill

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// ScenarioPrompt is the scenario a player must choose a stack for.
type ScenarioPrompt struct {
	Name      string            `json:"name"` // preset name, or "generated-<seed>"
	Title     string            `json:"title"`
	Story     string            `json:"story"`
	Seed      uint64            `json:"seed,omitempty"`
	Generated bool              `json:"generated"`
	Answers   knowledge.Answers `json:"answers"`
}

// PresetPrompt tells a preset scenario.
func PresetPrompt(s scenarios.Scenario) ScenarioPrompt {
	return ScenarioPrompt{Name: s.Name, Title: s.Title, Story: s.Story, Answers: s.Answers}
}

// GeneratedPrompt draws a plausible answer set from seed and tells it as a
// story. The same seed always gives the same scenario.
func (c *Content) GeneratedPrompt(kb *knowledge.KB, seed uint64) ScenarioPrompt {
	rng := rand.New(rand.NewPCG(seed, 0xd1ce))
	a := kb.Defaults()
	for qi, q := range kb.Questions {
		if q.Derived {
			continue
		}
		var v knowledge.Value
		switch q.Type {
		case knowledge.TypeBool:
			v.Bool = rng.IntN(10) < 3
		case knowledge.TypeEnum:
			v.Str = q.Values[rng.IntN(len(q.Values))]
		case knowledge.TypeList:
			for _, x := range q.Values {
				if rng.IntN(5) == 0 {
					v.List = append(v.List, x)
				}
			}
		case knowledge.TypeInt:
			choices := niceInts(kb, q)
			v.Int = choices[rng.IntN(len(choices))]
		}
		a.Put(qi, v)
	}
	// A scenario people recognise: a GPU fleet most of the time, and a
	// CPU-only fleet that says so (no "0 × H100").
	gpn, gpu := kb.QuestionIndex(knowledge.KeyGPUsPerNode), kb.QuestionIndex(knowledge.KeyGPU)
	if gpn >= 0 && gpu >= 0 {
		if a.Values()[gpn].Int == 0 && rng.IntN(4) > 0 {
			a.Put(gpn, knowledge.Value{Int: 8})
		}
		switch {
		case a.Values()[gpn].Int == 0:
			a.Put(gpu, knowledge.Value{Str: knowledge.GPUCPU})
		case a.Values()[gpu].Str == knowledge.GPUCPU:
			a.Put(gpn, knowledge.Value{Int: 0})
		}
	}
	// GitOps and traffic splitting are Kubernetes practices here: a story
	// without Kubernetes does not ask for them.
	if a.Get(knowledge.KeyKubernetes).Str == knowledge.KubernetesNone {
		for _, key := range []string{knowledge.KeyGitOps, knowledge.KeyTrafficSplitting} {
			if qi := kb.QuestionIndex(key); qi >= 0 {
				a.Put(qi, knowledge.Value{Bool: false})
			}
		}
	}
	// A substrate that contradicts the Kubernetes answer is an answer
	// error, not a story: take the platform from the Kubernetes answer.
	if qi := kb.QuestionIndex(knowledge.KeySubstrate); qi >= 0 && knowledge.SubstrateConflicts(a.Get(knowledge.KeySubstrate).Str, a.Get(knowledge.KeyKubernetes).Str) {
		a.Put(qi, knowledge.Value{Str: knowledge.SubstrateAuto})
	}
	return ScenarioPrompt{
		Name:      fmt.Sprintf("generated-%d", seed),
		Title:     fmt.Sprintf("Generated scenario #%d", seed),
		Story:     c.Story(kb, a),
		Seed:      seed,
		Generated: true,
		Answers:   a,
	}
}

// niceInts are the values a generated scenario may use for an int question:
// round numbers and both sides of every threshold the rules test.
func niceInts(kb *knowledge.KB, q *knowledge.Question) []int {
	cands := []int{0, 1, 2, 3, 4, 8, 16}
	if q.Key == knowledge.KeyContextTokens {
		cands = []int{4096, 8192, 32768, 131072}
	}
	for _, t := range decide.Thresholds(kb, q.Key) {
		cands = append(cands, t-1, t)
	}
	var out []int
	for _, n := range cands {
		if (q.Min == nil || n >= *q.Min) && (q.Max == nil || n <= *q.Max) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Story tells answers in sentences, from the phrases of the drill content.
func (c *Content) Story(kb *knowledge.KB, a knowledge.Answers) string {
	var sentences []string
	for _, p := range c.Phrases {
		q := kb.Question(p.Key)
		v := a.Get(p.Key)
		if (p.When != "" && v.Plain(q.Type) != p.When) || (p.Unless != "" && v.Plain(q.Type) == p.Unless) {
			continue
		}
		if q.Type == knowledge.TypeList && len(v.List) == 0 {
			continue
		}
		sentences = append(sentences, fill(kb, a, p.Text))
	}
	return plurals(strings.Join(sentences, " "))
}

// pluralRE is compiled when a story is first told, not at start.
var pluralRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) ((?:[\w-]+ )?[\w-]+)\(s\)`) })

// plurals turns "1 node(s)" into "1 node" and "8 node(s)" into "8 nodes".
func plurals(s string) string {
	return pluralRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := pluralRE().FindStringSubmatch(m)
		if sub[1] == "1" {
			return sub[1] + " " + sub[2]
		}
		return sub[1] + " " + sub[2] + "s"
	})
}

// fill replaces {key} with the answer to key (a GPU or model by its name).
func fill(kb *knowledge.KB, a knowledge.Answers, text string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		j := strings.IndexByte(text, '}')
		if i < 0 || j < i {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		key := text[i+1 : j]
		if q := kb.Question(key); q != nil {
			v := a.Get(key)
			s := v.Plain(q.Type)
			if g := kb.GPU(s); key == knowledge.KeyGPU && g != nil {
				s = g.Name
			}
			b.WriteString(s)
		} else {
			b.WriteString(text[i : j+1])
		}
		text = text[j+1:]
	}
}

// StackAnswer is the player's stack and one line of defense per layer.
type StackAnswer struct {
	Picks   map[string]string `json:"picks"`   // layer id → product id (or "none")
	Defense map[string]string `json:"defense"` // layer id → one line
}

// LayerGrade is one graded layer of the scenario drill.
type LayerGrade struct {
	Layer string   `json:"layer"`
	Got   string   `json:"got"`
	Want  string   `json:"want"`
	Also  []string `json:"also"`
	Right bool     `json:"right"`
	// Mentioned and Unmentioned split the fired rules behind the pick by
	// whether the defense used one of their key terms.
	Mentioned   []string        `json:"mentioned"`
	Unmentioned []string        `json:"unmentioned"`
	Terms       []string        `json:"terms"` // the key terms the defense used
	Rationale   []decide.Reason `json:"rationale"`
}

// ScenarioResult is the graded scenario drill.
type ScenarioResult struct {
	Layers []LayerGrade `json:"layers"`
	Score  Score        `json:"score"`
}

// ScenarioItem is the history id of one layer of the scenario drill.
func ScenarioItem(layer string) string { return "scenario:" + layer }

// KeyTerms are the words that show a defense is talking about a rule: the
// terms of the answers its conditions test, and the product it speaks for.
func (c *Content) KeyTerms(kb *knowledge.KB, ruleID string) []string {
	var terms []string
	for _, r := range kb.Rules {
		if r.ID != ruleID {
			continue
		}
		for _, cond := range r.Conds {
			terms = append(terms, c.Terms[cond.Key]...)
		}
		if p := kb.Product(r.Product); p != nil {
			terms = append(terms, strings.ToLower(p.Name), p.ID)
		} else if r.Product == knowledge.None {
			terms = append(terms, c.NoneDefense.Terms...)
		}
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

// GradeScenario grades a stack against the decision: a point per layer for
// the right pick, and up to a point for a defense that names the reasons
// (the share of the pick's fired rules whose key terms it uses).
func (c *Content) GradeScenario(kb *knowledge.KB, d decide.Decision, ans StackAnswer) ScenarioResult {
	var r ScenarioResult
	for _, lp := range d.Layers {
		g := LayerGrade{Layer: lp.Layer, Got: ans.Picks[lp.Layer], Want: lp.Pick, Also: lp.Also, Rationale: lp.Reasons,
			Mentioned: []string{}, Unmentioned: []string{}, Terms: []string{}}
		g.Right = g.Got == g.Want
		defense := ans.Defense[lp.Layer]
		for _, reason := range lp.Reasons {
			hit := false
			for _, t := range c.KeyTerms(kb, reason.Rule) {
				if mentions(defense, t) {
					hit = true
					if !slices.Contains(g.Terms, t) {
						g.Terms = append(g.Terms, t)
					}
				}
			}
			if hit {
				g.Mentioned = append(g.Mentioned, reason.Rule)
			} else {
				g.Unmentioned = append(g.Unmentioned, reason.Rule)
			}
		}
		r.Score.Max += 2
		if g.Right {
			r.Score.Points++
			if n := len(lp.Reasons); n > 0 {
				r.Score.Points += float64(len(g.Mentioned)) / float64(n)
			} else {
				r.Score.Points++
			}
		} else {
			r.Score.Missed = append(r.Score.Missed, ScenarioItem(lp.Layer))
		}
		r.Layers = append(r.Layers, g)
	}
	return r
}
