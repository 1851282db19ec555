package drill

import (
	"fmt"

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
// unplaced counts as wrong.
func GradeTaxonomy(kb *knowledge.KB, products []string, placed map[string]string) TaxonomyResult {
	var r TaxonomyResult
	for _, id := range products {
		p := kb.Product(id)
		pl := Placement{Product: id, Got: placed[id], Want: p.Layer}
		pl.Right = pl.Got == pl.Want
		r.Score.Max++
		if pl.Right {
			r.Score.Points++
		} else {
			pl.Why = fmt.Sprintf("%s belongs to the %s layer: %s", p.Name, lower(kb.Layer(p.Layer).Name), p.Role)
			r.Score.Missed = append(r.Score.Missed, TaxonomyItem(id))
		}
		r.Placements = append(r.Placements, pl)
	}
	return r
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
