package drill

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
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
// story. The same seed always gives the same scenario. It draws only the
// answers the story tells, keeps them to what people meet (see Plausible),
// and draws again while the decision would leave a layer where nothing
// fits: a drill asks for a stack that exists.
func (c *Content) GeneratedPrompt(kb *knowledge.KB, seed uint64) ScenarioPrompt {
	rng := rand.New(rand.NewPCG(seed, 0xd1ce))
	told := c.toldKeys()
	var a knowledge.Answers
	for try := 0; try < 100; try++ {
		a = c.draw(kb, rng, told)
		if len(c.Implausible(kb, a)) == 0 && !hasConflict(decide.Decide(kb, a)) {
			break
		}
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

// hasConflict reports a layer where nothing fits.
func hasConflict(d decide.Decision) bool {
	for _, l := range d.Layers {
		if len(l.Conflicts) > 0 {
			return true
		}
	}
	return false
}

// toldKeys are the answers the story's phrases can tell.
func (c *Content) toldKeys() map[string]bool {
	told := map[string]bool{}
	for _, p := range c.Phrases {
		told[p.Key] = true
		for t := p.Text; ; {
			i, j := strings.IndexByte(t, '{'), strings.IndexByte(t, '}')
			if i < 0 || j < i {
				break
			}
			told[t[i+1:j]] = true
			t = t[j+1:]
		}
	}
	return told
}

// perNode is what a scenario may put on one node of gpu: GPUs per node
// and node counts (nil: any).
func (c *Content) perNode(gpu string) (gpus, nodes []int) {
	gpus = c.Generate.GPUsPerNode
	for _, g := range c.Generate.GPUs {
		if g.ID == gpu {
			if len(g.PerNode) > 0 {
				gpus = g.PerNode
			}
			nodes = g.Nodes
		}
	}
	return gpus, nodes
}

// draw is one random scenario, made consistent: the answers that go
// together are drawn to agree.
func (c *Content) draw(kb *knowledge.KB, rng *rand.Rand, told map[string]bool) knowledge.Answers {
	a := kb.Defaults()
	put := func(key string, v knowledge.Value) {
		if qi := kb.QuestionIndex(key); qi >= 0 {
			a.Put(qi, v)
		}
	}
	for qi, q := range kb.Questions {
		if q.Derived || !told[q.Key] {
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
	// Hardware as it is sold: a CPU fleet has no GPUs, and a GPU node
	// carries a count its servers come with.
	gpu := a.Get(knowledge.KeyGPU).Str
	if gpu == knowledge.GPUCPU {
		put(knowledge.KeyGPUsPerNode, knowledge.Value{Int: 0})
	} else {
		gpus, nodes := c.perNode(gpu)
		put(knowledge.KeyGPUsPerNode, knowledge.Value{Int: gpus[rng.IntN(len(gpus))]})
		if len(nodes) > 0 && !slices.Contains(nodes, a.Get(knowledge.KeyNodes).Int) {
			put(knowledge.KeyNodes, knowledge.Value{Int: nodes[rng.IntN(len(nodes))]})
		}
	}
	// The base models' weights must fit the fleet.
	if most := c.modelRoom(a); most > 0 && a.Get(knowledge.KeyBaseModels).Int > most {
		put(knowledge.KeyBaseModels, knowledge.Value{Int: most})
	}
	// Fine-tunes have a method, and a method has fine-tunes; full
	// fine-tunes are whole model copies, so there are few of them.
	method, fts := a.Get(knowledge.KeyFineTuneMethod).Str, a.Get(knowledge.KeyFineTunes).Int
	switch {
	case method == "none":
		fts = 0
	case fts == 0:
		fts = 1 + rng.IntN(8)
	}
	if method == "full" && c.Generate.MaxFullFineTunes > 0 {
		fts = min(fts, c.Generate.MaxFullFineTunes)
	}
	put(knowledge.KeyFineTunes, knowledge.Value{Int: fts})
	// Answers that do not go together: the second is drawn again as its
	// stand-in (batch traffic is judged by throughput, not latency first).
	for _, ap := range c.Generate.Apart {
		if ap.holds(a) {
			a = ap.instead(a)
		}
	}
	// GitOps and traffic splitting are Kubernetes practices here: a story
	// without Kubernetes does not ask for them.
	if a.Get(knowledge.KeyKubernetes).Str == knowledge.KubernetesNone {
		put(knowledge.KeyGitOps, knowledge.Value{Bool: false})
		put(knowledge.KeyTrafficSplitting, knowledge.Value{Bool: false})
	}
	// A substrate that contradicts the Kubernetes answer is an answer
	// error, not a story: take the platform from the Kubernetes answer.
	if knowledge.SubstrateConflicts(a.Get(knowledge.KeySubstrate).Str, a.Get(knowledge.KeyKubernetes).Str) {
		put(knowledge.KeySubstrate, knowledge.Value{Str: knowledge.SubstrateAuto})
	}
	return a
}

// modelRoom is how many base models the fleet of a can hold (0: no bound
// in the data).
func (c *Content) modelRoom(a knowledge.Answers) int {
	nodes, gpn := a.Get(knowledge.KeyNodes).Int, a.Get(knowledge.KeyGPUsPerNode).Int
	if a.Get(knowledge.KeyGPU).Str == knowledge.GPUCPU || gpn == 0 {
		return max(nodes*c.Generate.MaxModelsPerCPUNode, min(c.Generate.MaxModelsPerCPUNode, 1))
	}
	return max(nodes*gpn*c.Generate.MaxModelsPerGPU, min(c.Generate.MaxModelsPerGPU, 1))
}

// Implausible lists what in a scenario people would not meet: GPUs per
// node that no server of the card comes with, fine-tunes without a method
// (or a method without fine-tunes), and the answers drills.toml keeps apart
// (batch traffic that puts latency first, NVIDIA-only answers on other
// hardware, fleet features without a fleet). Empty: plausible.
func (c *Content) Implausible(kb *knowledge.KB, a knowledge.Answers) []string {
	var out []string
	gpu, gpn, nodes := a.Get(knowledge.KeyGPU).Str, a.Get(knowledge.KeyGPUsPerNode).Int, a.Get(knowledge.KeyNodes).Int
	if gpu == knowledge.GPUCPU {
		if gpn != 0 {
			out = append(out, fmt.Sprintf("a CPU-only fleet with %d GPUs per node", gpn))
		}
	} else {
		gpus, ns := c.perNode(gpu)
		if !slices.Contains(gpus, gpn) {
			out = append(out, fmt.Sprintf("%d × %s per node (servers come with %s)", gpn, gpu, joinInts(gpus)))
		}
		if len(ns) > 0 && !slices.Contains(ns, nodes) {
			out = append(out, fmt.Sprintf("%d nodes of %s (at most %s)", nodes, gpu, joinInts(ns)))
		}
	}
	method, fts := a.Get(knowledge.KeyFineTuneMethod).Str, a.Get(knowledge.KeyFineTunes).Int
	switch {
	case fts > 0 && method == "none":
		out = append(out, fmt.Sprintf("%d fine-tunes with method none", fts))
	case fts == 0 && method != "none":
		out = append(out, "method "+method+" with no fine-tunes")
	case method == "full" && c.Generate.MaxFullFineTunes > 0 && fts > c.Generate.MaxFullFineTunes:
		out = append(out, fmt.Sprintf("%d full fine-tunes", fts))
	}
	if most, base := c.modelRoom(a), a.Get(knowledge.KeyBaseModels).Int; most > 0 && base > most {
		out = append(out, fmt.Sprintf("%d base models on a fleet that holds at most %d", base, most))
	}
	for _, ap := range c.Generate.Apart {
		if ap.holds(a) {
			out = append(out, ap.Why)
		}
	}
	return out
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ", ")
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
	story := plurals(strings.Join(sentences, " "))
	for id, word := range c.Generate.Spell {
		story = spellRE(id).ReplaceAllString(story, word)
	}
	return story
}

// spellRE matches id as a whole word.
func spellRE(id string) *regexp.Regexp { return regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`) }

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

// holds reports whether answers put together what ap keeps apart.
func (ap Apart) holds(a knowledge.Answers) bool {
	if a.Get(ap.Key).Plain(ap.q.Type) != ap.Value {
		return false
	}
	v := a.Get(ap.IfKey)
	switch {
	case ap.Below != nil:
		return v.Int < *ap.Below
	case ap.IsNot != "":
		return v.Plain(ap.ifQ.Type) != ap.IsNot
	}
	return v.Plain(ap.ifQ.Type) == ap.Is
}

// instead puts the stand-in answer in place of the one kept apart.
func (ap Apart) instead(a knowledge.Answers) knowledge.Answers {
	if err := a.Set(ap.Key, ap.raw); err != nil {
		panic("drill: " + err.Error()) // checked at load
	}
	return a
}

// PickChoices are the picks a layer offers, in the order the drill numbers
// them: its products, then none on an optional layer.
func PickChoices(kb *knowledge.KB, layer string) (ids, names []string) {
	for _, p := range kb.ProductsOn(layer) {
		ids = append(ids, p.ID)
		names = append(names, p.Name)
	}
	if l := kb.Layer(layer); l != nil && l.Optional {
		ids = append(ids, knowledge.None)
		names = append(names, knowledge.None)
	}
	return ids, names
}

// ParsePick reads a pick typed as its number (1-n), its id or its name,
// or as the stack's own words for the layer, complements included
// ("KServe + llm-d", in either order): a pick with its complements reads
// as want when they are want and its complements, else as the first. ""
// when a part is none of the choices.
func ParsePick(got string, ids, names []string, want string, also []string) string {
	var picked []string
	for _, part := range strings.FieldsFunc(got, func(r rune) bool { return r == '+' || r == ',' }) {
		i := pickIndex(part, ids, names)
		if i < 0 {
			return ""
		}
		if !slices.Contains(picked, ids[i]) {
			picked = append(picked, ids[i])
		}
	}
	switch {
	case len(picked) == 0:
		return ""
	case len(picked) > 1 && slices.Contains(picked, want):
		whole := append([]string{want}, also...)
		if len(whole) == len(picked) && !slices.ContainsFunc(picked, func(id string) bool { return !slices.Contains(whole, id) }) {
			return want
		}
	}
	return picked[0]
}

// pickIndex reads one pick typed as its number (1-n), its id or its name;
// -1 when it is none of them.
func pickIndex(got string, ids, names []string) int {
	got = strings.ToLower(strings.TrimSpace(got))
	if n, err := strconv.Atoi(strings.TrimSuffix(got, ")")); err == nil {
		if n >= 1 && n <= len(ids) {
			return n - 1
		}
		return -1
	}
	for i := range ids {
		if got == ids[i] || got == strings.ToLower(names[i]) {
			return i
		}
	}
	return -1
}
