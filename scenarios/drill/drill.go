// Package drill holds the exit-test drills: what each asks, in what order,
// how an answer is graded, and how a score reads (the same words in the app
// and in the line mode). It is pure: given the knowledge base, the content
// file, a seed, the player's miss counts and the time taken, the questions
// and the grades are always the same; it reads no clock. It imports
// knowledge/, decide/ and scenarios/ only, never ui/ or any Charm package:
// the history file lives in ui/store, the screens in ui/tui, the line mode
// in ui/cli.
package drill

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/stackpick/stackpick/knowledge"
)

//go:embed data/drills.toml
var contentTOML string

//go:embed data/distinctions.toml
var distinctionsTOML string

// Names of the drills, in the order of the mock exit test.
const (
	Taxonomy = "taxonomy"
	Scenario = "scenario"
	Flags    = "flags"
	Explain  = "explain"
	Mock     = "mock"
)

// Names lists the drills a user can start.
var Names = []string{Taxonomy, Scenario, Flags, Explain, Mock}

// Content is the drill data from drills.toml, checked against the KB.
type Content struct {
	Bar struct {
		Taxonomy float64 `toml:"taxonomy"`
		Scenario float64 `toml:"scenario"`
		Flags    float64 `toml:"flags"`
		Explain  float64 `toml:"explain"`
	} `toml:"bar"`
	TaxonomyProducts []string
	Terms            map[string][]string `toml:"terms"`
	NoneDefense      struct {
		Terms []string `toml:"terms"`
	} `toml:"none_defense"`
	Generate  Generate   `toml:"generate"`
	Phrases   []Phrase   `toml:"phrase"`
	Topics    []Topic    `toml:"explain"`
	FlagItems []FlagItem `toml:"flag"`
	// Distinctions say, per layer id, what sets the layer apart.
	Distinctions map[string]Distinction `toml:"-"`
	// ProductDistinctions override the layer's words per product id.
	ProductDistinctions map[string]ProductDistinction `toml:"-"`
}

// Distinction is what sets one serving layer apart from the others, from
// data/distinctions.toml.
type Distinction struct {
	Layer string `toml:"layer"`
	Is    string `toml:"is"`
	Does  string `toml:"does"`
	Job   string `toml:"job"`
}

// ProductDistinction says, for one product, what it does and why it is
// not on each other layer, where the layer's words would be false or too
// general for it.
type ProductDistinction struct {
	ID   string            `toml:"id"`
	Does string            `toml:"does"`
	Not  map[string]string `toml:"not"`
}

// Generate is how the scenario drill draws a plausible scenario.
type Generate struct {
	GPUsPerNode      []int `toml:"gpus_per_node"`
	MaxFullFineTunes int   `toml:"max_full_fine_tunes"`
	// MaxModelsPerGPU bounds the base models per GPU of the fleet
	// (MaxModelsPerCPUNode per node of a CPU-only one): weights must fit.
	MaxModelsPerGPU     int               `toml:"max_models_per_gpu"`
	MaxModelsPerCPUNode int               `toml:"max_models_per_cpu_node"`
	Spell               map[string]string `toml:"spell"`
	GPUs                []GenerateGPU     `toml:"gpu"`
	Apart               []Apart           `toml:"apart"`
}

// Apart is two answers a drawn scenario does not put together: when the
// answer to if_key is `is` (or is not `is_not`, or is below `below`), key
// may not be value, and is drawn as instead.
type Apart struct {
	Key     string `toml:"key"`
	Value   string `toml:"value"`
	Instead string `toml:"instead"`
	IfKey   string `toml:"if_key"`
	Is      string `toml:"is"`
	IsNot   string `toml:"is_not"`
	Below   *int   `toml:"below"`
	Why     string `toml:"why"`
	q, ifQ  *knowledge.Question
	raw     any // instead, as TOML would give it
}

// GenerateGPU narrows what a scenario may say of one card.
type GenerateGPU struct {
	ID      string `toml:"id"`
	PerNode []int  `toml:"per_node"`
	Nodes   []int  `toml:"nodes"`
}

// Phrase is one sentence of a generated scenario's story.
type Phrase struct {
	Key    string `toml:"key"`
	When   string `toml:"when"`
	Unless string `toml:"unless"`
	Text   string `toml:"text"`
}

// Topic is one 90-second explanation with its key points.
type Topic struct {
	ID        string `toml:"id"`
	Seconds   int    `toml:"seconds"`
	Prompt    string `toml:"prompt"`
	Reference string `toml:"reference"`
	// Products are the products the explanation is about, with the names
	// an answer may call them by.
	Products []TopicProduct `toml:"product"`
	Points   []Point        `toml:"point"`
}

// TopicProduct is a product an explanation talks about and the names that
// refer to it (the first is how feedback names it).
type TopicProduct struct {
	ID    string   `toml:"id"`
	Names []string `toml:"names"`
}

// Point is a key point an explanation should make.
type Point struct {
	ID    string   `toml:"id"`
	Text  string   `toml:"text"`
	Terms []string `toml:"terms"`
	// About are the products the point is about: its terms count only in
	// a clause about one of them. Empty: a point about the pair.
	About []string `toml:"about"`
	// Contradicts are phrases that, said (unnegated) of the point's
	// product, make a false claim against the point ("Dynamo-Triton is a
	// renamed version of vLLM"): the point is then not credited.
	Contradicts []string `toml:"contradicts"`
}

// FlagItem is one flag of the flags drill.
type FlagItem struct {
	ID          string   `toml:"id"`
	Accept      []string `toml:"accept"`
	SeedDefault []string `toml:"seed_default"`
}

// Load parses the embedded drill content and checks every id it names
// against the knowledge base.
func Load(kb *knowledge.KB) (*Content, error) {
	var raw struct {
		Content
		Taxonomy struct {
			Products []string `toml:"products"`
		} `toml:"taxonomy"`
	}
	md, err := toml.Decode(contentTOML, &raw)
	if err != nil {
		return nil, fmt.Errorf("scenarios/drill/data/drills.toml: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("scenarios/drill/data/drills.toml: unknown key %s", und[0])
	}
	c := raw.Content
	c.TaxonomyProducts = raw.Taxonomy.Products
	var problems []string
	var dist struct {
		Distinction []Distinction        `toml:"distinction"`
		Product     []ProductDistinction `toml:"product"`
	}
	md, err = toml.Decode(distinctionsTOML, &dist)
	if err != nil {
		return nil, fmt.Errorf("scenarios/drill/data/distinctions.toml: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("scenarios/drill/data/distinctions.toml: unknown key %s", und[0])
	}
	c.Distinctions = map[string]Distinction{}
	for _, d := range dist.Distinction {
		switch {
		case kb.Layer(d.Layer) == nil:
			problems = append(problems, "distinctions.toml names unknown layer "+d.Layer)
		case d.Is == "" || d.Does == "" || d.Job == "":
			problems = append(problems, "distinctions.toml: layer "+d.Layer+" needs is, does and job")
		}
		c.Distinctions[d.Layer] = d
	}
	for _, l := range kb.Layers {
		if _, ok := c.Distinctions[l.ID]; !ok {
			problems = append(problems, "distinctions.toml has no distinction for layer "+l.ID)
		}
	}
	c.ProductDistinctions = map[string]ProductDistinction{}
	for _, pd := range dist.Product {
		p := kb.Product(pd.ID)
		if p == nil {
			problems = append(problems, "distinctions.toml names unknown product "+pd.ID)
			continue
		}
		if pd.Does == "" {
			problems = append(problems, "distinctions.toml: product "+pd.ID+" needs does")
		}
		for _, l := range kb.Layers {
			if _, ok := pd.Not[l.ID]; !ok && l.ID != p.Layer {
				problems = append(problems, "distinctions.toml: product "+pd.ID+" needs not."+l.ID)
			}
		}
		for layer := range pd.Not {
			if kb.Layer(layer) == nil || layer == p.Layer {
				problems = append(problems, "distinctions.toml: product "+pd.ID+" has not."+layer+", not another layer")
			}
		}
		c.ProductDistinctions[pd.ID] = pd
	}
	for _, id := range c.TaxonomyProducts {
		if kb.Product(id) == nil {
			problems = append(problems, "taxonomy names unknown product "+id)
		}
	}
	for key := range c.Terms {
		if kb.Question(key) == nil {
			problems = append(problems, "terms for unknown answer key "+key)
		}
	}
	for _, p := range c.Phrases {
		if kb.Question(p.Key) == nil {
			problems = append(problems, "phrase for unknown answer key "+p.Key)
		}
	}
	if len(c.Generate.GPUsPerNode) == 0 {
		problems = append(problems, "generate needs gpus_per_node")
	}
	for i := range c.Generate.Apart {
		if err := c.Generate.Apart[i].check(kb); err != "" {
			problems = append(problems, "generate.apart "+c.Generate.Apart[i].Key+": "+err)
		}
	}
	for _, g := range c.Generate.GPUs {
		if kb.GPU(g.ID) == nil {
			problems = append(problems, "generate names unknown GPU "+g.ID)
		}
	}
	for _, t := range c.Topics {
		var ids []string
		for _, tp := range t.Products {
			if kb.Product(tp.ID) == nil {
				problems = append(problems, "explain topic "+t.ID+" names unknown product "+tp.ID)
			}
			if len(tp.Names) == 0 {
				problems = append(problems, "explain topic "+t.ID+" gives product "+tp.ID+" no names")
			}
			ids = append(ids, tp.ID)
		}
		for _, p := range t.Points {
			for _, id := range p.About {
				if !slices.Contains(ids, id) {
					problems = append(problems, "explain point "+p.ID+" is about "+id+", not one of the topic's products")
				}
			}
		}
	}
	for _, f := range c.FlagItems {
		if kb.Flag(f.ID) == nil {
			problems = append(problems, "flags drill names unknown flag "+f.ID)
		}
	}
	if len(c.Topics) == 0 || len(c.FlagItems) == 0 || len(c.TaxonomyProducts) == 0 {
		problems = append(problems, "a drill has no items")
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, fmt.Errorf("scenarios/drill/data/drills.toml: %s", strings.Join(problems, "; "))
	}
	return &c, nil
}

// Misses counts, per item id, how often the player got it wrong before.
// Items with more misses are asked earlier and more often.
type Misses map[string]int

// order returns ids shuffled by seed, then stably sorted so the most-missed
// come first.
func order(ids []string, seed uint64, misses Misses) []string {
	out := slices.Clone(ids)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	slices.SortStableFunc(out, func(a, b string) int { return misses[b] - misses[a] })
	return out
}

// Score is a graded result: points out of a maximum, and the items missed.
type Score struct {
	Points float64  `json:"points"`
	Max    float64  `json:"max"`
	Missed []string `json:"missed"`
}

// Ratio is points over max (0 when there is nothing to score).
func (s Score) Ratio() float64 {
	if s.Max == 0 {
		return 0
	}
	return s.Points / s.Max
}

// normalize lower-cases and folds spaces and punctuation for matching.
func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.Join(strings.Fields(s), " ")
}

// mentions reports whether text uses term (case-insensitive; a term may be
// a word stem such as "orchestrat").
func mentions(text, term string) bool {
	return strings.Contains(normalize(text), normalize(term))
}

// ItemName says in words what a history item id is about.
func (c *Content) ItemName(kb *knowledge.KB, id string) string {
	parts := strings.Split(id, ":")
	switch {
	case len(parts) == 2 && parts[0] == Taxonomy:
		return "Taxonomy: " + kb.ProductName(parts[1])
	case len(parts) == 2 && parts[0] == Scenario:
		if l := kb.Layer(parts[1]); l != nil {
			return "Scenario: the " + strings.ToLower(l.Name) + " pick"
		}
	case len(parts) == 3 && parts[0] == Flags:
		name := parts[1]
		if f := kb.Flag(parts[1]); f != nil {
			name = f.Name
		}
		if parts[2] == ModeName {
			return "Flags: name " + name + " from its effect"
		}
		return "Flags: " + name + " default and effect"
	case len(parts) == 3 && parts[0] == Explain:
		for _, t := range c.Topics {
			for _, p := range t.Points {
				if t.ID == parts[1] && p.ID == parts[2] {
					return "Explain: " + p.Text
				}
			}
		}
	}
	return id
}

// check ties an Apart to its questions and checks its values are answers
// they allow.
func (ap *Apart) check(kb *knowledge.KB) string {
	ap.q, ap.ifQ = kb.Question(ap.Key), kb.Question(ap.IfKey)
	switch {
	case ap.q == nil || ap.q.Derived:
		return "key names no question one can answer"
	case ap.ifQ == nil:
		return "if_key " + ap.IfKey + " names no question"
	case ap.Why == "":
		return "needs a why"
	}
	if n := btoi(ap.Is != "") + btoi(ap.IsNot != "") + btoi(ap.Below != nil); n != 1 {
		return "needs exactly one of is, is_not, below"
	}
	for _, v := range []string{ap.Value, ap.Instead} {
		var raw any = v
		switch ap.q.Type {
		case knowledge.TypeBool:
			raw = v == "true"
		case knowledge.TypeInt:
			n, err := strconv.Atoi(v)
			if err != nil {
				return v + " is not a number"
			}
			raw = int64(n)
		}
		a := kb.Defaults()
		if err := a.Set(ap.Key, raw); err != nil {
			return err.Error()
		}
		ap.raw = raw
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
