package drill

import (
	"cmp"
	"slices"
)

// MockResult is the mock exit test: the four drills against the seed's bar.
type MockResult struct {
	Parts   []MockPart `json:"parts"`
	Pass    bool       `json:"pass"`
	Weakest []string   `json:"weakest"` // the missed items, weakest drill first
}

// MockPart is one drill of the mock exit test.
type MockPart struct {
	Drill string  `json:"drill"`
	Ratio float64 `json:"ratio"`
	Bar   float64 `json:"bar"`
	Pass  bool    `json:"pass"`
	Score Score   `json:"score"`
}

// GradeMock puts the four graded drills against the bar. The scenario part
// passes only when every layer is right, whatever the defense earned.
func (c *Content) GradeMock(tax TaxonomyResult, sc ScenarioResult, fl FlagsResult, ex ExplainResult) MockResult {
	allRight := true
	for _, l := range sc.Layers {
		allRight = allRight && l.Right
	}
	rightRatio := 0.0
	if len(sc.Layers) > 0 {
		n := 0
		for _, l := range sc.Layers {
			if l.Right {
				n++
			}
		}
		rightRatio = float64(n) / float64(len(sc.Layers))
	}
	parts := []MockPart{
		{Drill: Taxonomy, Ratio: tax.Score.Ratio(), Bar: c.Bar.Taxonomy, Score: tax.Score},
		{Drill: Scenario, Ratio: rightRatio, Bar: c.Bar.Scenario, Score: sc.Score},
		{Drill: Flags, Ratio: fl.Score.Ratio(), Bar: c.Bar.Flags, Score: fl.Score},
		{Drill: Explain, Ratio: ex.Score.Ratio(), Bar: c.Bar.Explain, Score: ex.Score},
	}
	r := MockResult{Pass: true, Weakest: []string{}}
	for i := range parts {
		parts[i].Pass = parts[i].Ratio >= parts[i].Bar-1e-9
		if parts[i].Drill == Scenario {
			parts[i].Pass = allRight && parts[i].Pass
		}
		r.Pass = r.Pass && parts[i].Pass
	}
	r.Parts = parts
	weak := slices.Clone(parts)
	slices.SortStableFunc(weak, func(a, b MockPart) int { return cmp.Compare(a.Ratio-a.Bar, b.Ratio-b.Bar) })
	for _, p := range weak {
		r.Weakest = append(r.Weakest, p.Score.Missed...)
	}
	return r
}

// Score is what the mock exit test leaves in the history: a point per part,
// scaled by the part's ratio, and the weakest items as the missed ones.
func (r MockResult) Score() Score {
	s := Score{Missed: r.Weakest}
	for _, p := range r.Parts {
		s.Points += p.Ratio
		s.Max++
	}
	return s
}

// Verdict is PASS or FAIL.
func (r MockResult) Verdict() string {
	if r.Pass {
		return "PASS"
	}
	return "FAIL"
}
