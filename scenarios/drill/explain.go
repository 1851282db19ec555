package drill

import "time"

// ExplainItem is the history id of one key point.
func ExplainItem(topic, point string) string { return "explain:" + topic + ":" + point }

// ExplainResult is the graded explanation.
type ExplainResult struct {
	Topic   string   `json:"topic"`
	Covered []Point  `json:"covered"`
	Missed  []Point  `json:"missed"`
	InTime  bool     `json:"in_time"`
	Elapsed float64  `json:"elapsed_seconds"`
	Terms   []string `json:"terms"` // the words that earned the covered points
	Score   Score    `json:"score"`
}

// Topic returns the explanation topic (the first is the seed's).
func (c *Content) Topic() Topic { return c.Topics[0] }

// GradeExplain checks an explanation against the topic's key points. An
// answer given after the time is up is graded, but earns nothing.
func GradeExplain(t Topic, text string, elapsed time.Duration) ExplainResult {
	r := ExplainResult{Topic: t.ID, InTime: elapsed <= time.Duration(t.Seconds)*time.Second, Elapsed: elapsed.Seconds(),
		Covered: []Point{}, Missed: []Point{}, Terms: []string{}}
	for _, p := range t.Points {
		hit := ""
		for _, term := range p.Terms {
			if mentions(text, term) {
				hit = term
				break
			}
		}
		r.Score.Max++
		if hit != "" {
			r.Covered = append(r.Covered, p)
			r.Terms = append(r.Terms, hit)
			if r.InTime {
				r.Score.Points++
			}
		} else {
			r.Missed = append(r.Missed, p)
			r.Score.Missed = append(r.Score.Missed, ExplainItem(t.ID, p.ID))
		}
	}
	return r
}
