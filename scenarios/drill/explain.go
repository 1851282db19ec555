package drill

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// ExplainItem is the history id of one key point.
func ExplainItem(topic, point string) string { return "explain:" + topic + ":" + point }

// ExplainResult is the graded explanation.
type ExplainResult struct {
	Topic   string   `json:"topic"`
	Covered []Point  `json:"covered"`
	Missed  []Point  `json:"missed"`
	InTime  bool     `json:"in_time"`
	Elapsed float64  `json:"elapsed_seconds"`
	Terms   []string `json:"terms"` // the answer's words that earned the covered points
	// KeywordList is set when the answer reads as bare terms rather than
	// sentences: it earns half a point per key point at most.
	KeywordList bool `json:"keyword_list"`
	// Notes say why a missed key point was missed though its words were
	// there: said of the other product, or negated.
	Notes    []PointNote `json:"notes"`
	Feedback []string    `json:"feedback"` // about the answer as a whole
	Score    Score       `json:"score"`
}

// PointNote is why one key point was not credited.
type PointNote struct {
	Point string `json:"point"`
	Note  string `json:"note"`
}

// Note is the note on point id, or "".
func (r ExplainResult) Note(id string) string {
	for _, n := range r.Notes {
		if n.Point == id {
			return n.Note
		}
	}
	return ""
}

// Topic returns the explanation topic (the first is the exit test's).
func (c *Content) Topic() Topic { return c.Topics[0] }

// negations are the words that, before a term in the same clause, say the
// opposite of the key point.
var negations = []string{"not", "never", "no", "doesn't", "isn't", "don't", "aren't", "wasn't", "won't", "can't", "cannot", "nor", "neither", "without"}

// clause is one piece of an answer: a sentence, or a part of one split at
// ; , "but", "while" or "whereas", with the products it is about.
type clause struct {
	text    string // normalized
	subject string // the product the clause is about: the first it names, or the one before's
}

// GradeExplain checks an explanation against the topic's key points. A key
// point about a product counts only when its term is in a clause about that
// product (named there, or carried from the clause before when a clause
// names none); a term negated in its clause does not count; an answer that
// is a list of keywords earns half at most. An answer given after the time
// is up is graded, but earns nothing.
func GradeExplain(t Topic, text string, elapsed time.Duration) ExplainResult {
	r := ExplainResult{Topic: t.ID, InTime: elapsed <= time.Duration(t.Seconds)*time.Second, Elapsed: elapsed.Seconds(),
		Covered: []Point{}, Missed: []Point{}, Terms: []string{}, Notes: []PointNote{}, Feedback: []string{}}
	clauses := splitClauses(t, text)
	r.KeywordList = strings.TrimSpace(text) != "" && keywordList(text)
	for _, p := range t.Points {
		hit, note := pointHit(t, p, clauses)
		r.Score.Max++
		if hit != "" {
			r.Covered = append(r.Covered, p)
			r.Terms = append(r.Terms, hit)
			if r.InTime {
				r.Score.Points++
			}
			continue
		}
		r.Missed = append(r.Missed, p)
		r.Score.Missed = append(r.Score.Missed, ExplainItem(t.ID, p.ID))
		if note != "" {
			r.Notes = append(r.Notes, PointNote{Point: p.ID, Note: note})
		}
	}
	if r.KeywordList {
		r.Score.Points /= 2
		r.Feedback = append(r.Feedback, "This reads as a list of keywords, not an explanation: say in sentences what each product is and does. A keyword list earns half a point per key point at most.")
	}
	return r
}

// pointHit finds the first term of p said, unnegated, in a clause about the
// point's product; when none is, it says what came closest.
func pointHit(t Topic, p Point, clauses []clause) (hit, note string) {
	var wrongProduct, negated string
	for _, cl := range clauses {
		about := len(p.About) == 0 || slices.Contains(p.About, cl.subject)
		for _, term := range p.Terms {
			at := termIndex(cl.text, term)
			if at < 0 {
				continue
			}
			said := saidAt(cl.text, at, term)
			switch {
			case negatedBefore(cl.text[:at]):
				if negated == "" {
					negated = said
				}
			case !about:
				if wrongProduct == "" {
					wrongProduct = said
				}
			default:
				return said, ""
			}
		}
	}
	switch {
	case wrongProduct != "":
		return "", fmt.Sprintf("You said “%s”, but of %s, not of %s", wrongProduct, t.productNames(otherProducts(t, p.About)), t.productNames(p.About))
	case negated != "":
		return "", fmt.Sprintf("You said “%s” only in the negative", negated)
	}
	return "", ""
}

func otherProducts(t Topic, about []string) []string {
	var out []string
	for _, tp := range t.Products {
		if !slices.Contains(about, tp.ID) {
			out = append(out, tp.ID)
		}
	}
	return out
}

// productNames is "NVIDIA Dynamo" or "Dynamo-Triton or NVIDIA Dynamo".
func (t Topic) productNames(ids []string) string {
	var names []string
	for _, id := range ids {
		for _, tp := range t.Products {
			if tp.ID == id {
				names = append(names, tp.Names[0])
			}
		}
	}
	if len(names) == 0 {
		return "another product"
	}
	return strings.Join(names, " or ")
}

// termIndex is where term starts in text (a term is a word stem, so it
// must start a word but may end inside one), or -1.
func termIndex(text, term string) int {
	term = normalize(term)
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], term)
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || !isWordByte(text[i-1]) || !isWordByte(term[0]) {
			return i
		}
		from = i + 1
	}
	return -1
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// saidAt is the answer's own words for a term found at at: the term
// carried to the end of its last word ("renam" says "renamed").
func saidAt(text string, at int, term string) string {
	end := at + len(normalize(term))
	for end < len(text) && isWordByte(text[end]) {
		end++
	}
	return text[at:end]
}

// negatedBefore reports whether the clause says a negation before a term.
func negatedBefore(before string) bool {
	for _, w := range words(before) {
		if slices.Contains(negations, w) {
			return true
		}
	}
	return false
}

// words splits text into lower-case words, apostrophes kept inside them
// (a typographic one folded to ').
func words(text string) []string {
	text = strings.ReplaceAll(strings.ToLower(text), "’", "'")
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	})
}

// clauseBreaks split a sentence into clauses.
var clauseBreaks = []string{";", ",", ":", " but ", " while ", " whereas ", " — ", " - ", "\n"}

// splitClauses cuts an answer into clauses and finds each clause's
// subject: the first product it names ("Dynamo is the renamed Triton" is
// about Dynamo). A clause that names none is about the subject of the
// clause before it ("Dynamo sits above engines, and it routes ...").
func splitClauses(t Topic, text string) []clause {
	text = strings.ReplaceAll(strings.ToLower(text), "’", "'")
	var pieces []string
	for _, sentence := range splitSentences(text) {
		parts := []string{sentence}
		for _, br := range clauseBreaks {
			var next []string
			for _, p := range parts {
				next = append(next, strings.Split(p, br)...)
			}
			parts = next
		}
		pieces = append(pieces, parts...)
	}
	var out []clause
	subject := ""
	for _, p := range pieces {
		p = normalize(p)
		if p == "" {
			continue
		}
		if named := t.nameProducts(p); len(named) > 0 {
			subject = named[0]
		}
		out = append(out, clause{text: p, subject: subject})
	}
	return out
}

// splitSentences cuts at . ! ? followed by a space or the end (so "v1.6"
// and "e.g." inside a word stay whole).
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '.' || c == '!' || c == '?' {
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' {
				out = append(out, text[start:i])
				start = i + 1
			}
		}
	}
	return append(out, text[start:])
}

// nameProducts lists the topic's products a clause names, in the order it
// names them; the longest name is matched first, so "dynamo-triton" is not
// also read as "dynamo".
func (t Topic) nameProducts(text string) []string {
	type found struct {
		at int
		id string
	}
	type name struct{ text, id string }
	var names []name
	for _, tp := range t.Products {
		for _, n := range tp.Names {
			names = append(names, name{strings.ToLower(n), tp.ID})
		}
	}
	slices.SortStableFunc(names, func(a, b name) int { return len(b.text) - len(a.text) })
	b := []byte(text)
	var hits []found
	for _, n := range names {
		for from := 0; ; {
			i := strings.Index(string(b[from:]), n.text)
			if i < 0 {
				break
			}
			i += from
			end := i + len(n.text)
			if (i == 0 || !isWordByte(b[i-1])) && (end == len(b) || !isWordByte(b[end])) {
				hits = append(hits, found{i, n.id})
				for k := i; k < end; k++ {
					b[k] = ' '
				}
			}
			from = end
		}
	}
	slices.SortFunc(hits, func(a, c found) int { return a.at - c.at })
	var ids []string
	for _, h := range hits {
		if !slices.Contains(ids, h.id) {
			ids = append(ids, h.id)
		}
	}
	return ids
}

// verbs are the words that make a clause a statement rather than a label.
var verbs = []string{
	"is", "are", "was", "were", "be", "been", "being", "isn't", "aren't", "wasn't",
	"has", "have", "had", "does", "do", "did", "doesn't", "don't",
	"can", "could", "will", "would", "should", "may", "might", "must", "can't", "cannot", "won't",
	"means", "sits", "runs", "serves", "routes", "adds", "splits", "wraps", "manages", "handles",
	"uses", "use", "orchestrates", "schedules", "scales", "autoscales", "offloads", "coexist", "coexists",
	"works", "needs", "need", "lets", "gives", "keeps", "moves", "sends", "picks", "choose", "pick",
	"depends", "renamed", "called", "became", "belongs", "supports", "hosts", "exposes", "loads",
	"sit", "run", "serve", "route", "add", "split", "wrap", "manage", "handle", "go", "goes",
	"it's", "that's", "they're", "there's",
}

// functionWords glue a sentence together; a run of terms has few of them.
var functionWords = []string{
	"the", "a", "an", "of", "for", "to", "and", "or", "in", "on", "with", "at", "by", "from", "as", "into", "over",
	"above", "under", "behind", "across", "than", "then", "so", "but", "if", "when", "while", "whereas", "because",
	"it", "its", "they", "them", "their", "that", "this", "these", "those", "which", "who", "what", "you", "your", "we",
	"is", "are", "was", "were", "be", "has", "have", "does", "do", "can", "will", "not", "no", "one", "both", "each",
}

// keywordList reports whether an answer is mostly bare terms: no verb at
// all, a comma list whose items are mostly one to three words, or a run of
// words with hardly any that glue a sentence together.
func keywordList(text string) bool {
	ws := words(text)
	glue := 0
	for _, w := range ws {
		if slices.Contains(functionWords, w) {
			glue++
		}
	}
	if len(ws) >= 6 && float64(glue) < 0.15*float64(len(ws)) {
		return true
	}
	hasVerb := false
	for _, w := range ws {
		if slices.Contains(verbs, w) {
			hasVerb = true
			break
		}
	}
	if !hasVerb {
		return true
	}
	items := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '·' })
	short := 0
	for _, it := range items {
		if n := len(words(it)); n > 0 && n <= 3 {
			short++
		}
	}
	return len(items) >= 5 && float64(short) >= 0.6*float64(len(items))
}
