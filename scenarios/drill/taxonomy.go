package drill

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/stackpick/stackpick/knowledge"
)

// TaxonomyQuiz is the list of products to place, most-missed first.
func (c *Content) TaxonomyQuiz(seed uint64, misses Misses) []string {
	ids := make([]string, len(c.TaxonomyProducts))
	prefixed := Misses{}
	for i, id := range c.TaxonomyProducts {
		ids[i] = id
		prefixed[id] = misses[TaxonomyItem(id)]
	}
	return order(ids, seed, prefixed)
}

// TaxonomyItem is the history id of one product's placement.
func TaxonomyItem(product string) string { return "taxonomy:" + product }

// Placement is one graded product.
type Placement struct {
	Product string `json:"product"`
	Got     string `json:"got"`
	Want    string `json:"want"`
	Right   bool   `json:"right"`
	// Why is the one-line reason, given for a wrong placement.
	Why string `json:"why,omitempty"`
}

// TaxonomyResult is the graded taxonomy drill.
type TaxonomyResult struct {
	Placements []Placement `json:"placements"`
	Score      Score       `json:"score"`
}

// GradeTaxonomy grades placements (product id → layer id). A product left
// unplaced counts as wrong. A wrong placement is explained by the
// distinction between the two layers, not by the product's blurb.
func (c *Content) GradeTaxonomy(kb *knowledge.KB, products []string, placed map[string]string) TaxonomyResult {
	var r TaxonomyResult
	for _, id := range products {
		p := kb.Product(id)
		pl := Placement{Product: id, Got: placed[id], Want: p.Layer}
		pl.Right = pl.Got == pl.Want
		r.Score.Max++
		if pl.Right {
			r.Score.Points++
		} else {
			pl.Why = c.Distinguish(kb, id, pl.Got)
			r.Score.Missed = append(r.Score.Missed, TaxonomyItem(id))
		}
		r.Placements = append(r.Placements, pl)
	}
	return r
}

// Distinguish says why a product belongs to its own layer and not to the
// layer it was placed on: what its layer does, what the chosen layer's job
// is that it does not do, and a product that does that job. With no layer
// chosen, it says what the product's layer does.
func (c *Content) Distinguish(kb *knowledge.KB, product, chosen string) string {
	p := kb.Product(product)
	own := c.Distinctions[p.Layer]
	pd, specific := c.ProductDistinctions[product]
	does := own.Does
	if specific {
		does = pd.Does
	}
	why := fmt.Sprintf("%s is %s: %s", p.Name, own.Is, does)
	other, ok := c.Distinctions[chosen]
	if !ok || chosen == p.Layer {
		return why + "."
	}
	if not, ok := pd.Not[chosen]; specific && ok {
		return fmt.Sprintf("%s. Not %s: %s.", why, other.Is, not)
	}
	job := fmt.Sprintf("that is the %s's job", lower(kb.Layer(chosen).Name))
	if q := relatedProduct(kb, p, chosen); q != nil {
		job += ", which " + q.Name + " does"
	}
	return fmt.Sprintf("%s; it does not %s (%s).", why, other.Job, job)
}

// relatedProduct is the product on layer that a learner most likely
// confused p with: one sharing a word of its name (Dynamo, Dynamo-Triton),
// else one p's own description names, else the layer's first.
func relatedProduct(kb *knowledge.KB, p *knowledge.Product, layer string) *knowledge.Product {
	cands := kb.ProductsOn(layer)
	if len(cands) == 0 {
		return nil
	}
	own := nameWords(p.Name)
	for _, q := range cands {
		for _, w := range nameWords(q.Name) {
			if slices.Contains(own, w) {
				return q
			}
		}
	}
	text := strings.ToLower(strings.Join(append(append([]string{p.Role}, p.Strengths...), p.KeyPoints...), " "))
	for _, q := range cands {
		if strings.Contains(text, strings.ToLower(q.Name)) {
			return q
		}
	}
	return cands[0]
}

// nameWords are the distinctive words of a product name ("NVIDIA Dynamo"
// gives dynamo; the vendor is not a likeness).
func nameWords(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w != "nvidia" && len(w) > 2 {
			out = append(out, w)
		}
	}
	return out
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
