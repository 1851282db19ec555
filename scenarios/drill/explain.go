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
var negations = []string{"not", "never", "no", "doesn't", "isn't", "don't", "aren't", "wasn't", "won't", "can't", "cannot", "nor", "neither", "without", "hardly", "barely", "scarcely", "nothing", "none"}

// clause is one piece of an answer: a sentence, or a part of one split at
// ; , "but", "while" or "whereas", with the products it names.
type clause struct {
	text    string // normalized
	subject string // the product the clause is about when it names none before a word: the one before's
	named   []named
	// fragment is set when the clause's sentence is a bare word or has no
	// verb ("general."): it states nothing, so it earns nothing.
	fragment bool
}

// named is a product a clause names, and where.
type named struct {
	at int
	id string
}

// aboutAt is the product the words at byte at of a clause are said of: the
// last product the clause names before them ("use Dynamo-Triton for
// general serving and Dynamo for scale": "scale" is said of Dynamo), or
// the clause's subject when it names none before them.
func (cl clause) aboutAt(at int) string {
	id := cl.subject
	for _, n := range cl.named {
		if n.at < at {
			id = n.id
		}
	}
	return id
}

// GradeExplain checks an explanation against the topic's key points. A key
// point about a product counts only when its term is said of that product
// in a clause that states something: after the product's name in the same
// clause (the nearest name before the term decides), or in a clause that
// names no product, carried from the clause before. A term negated in its
// clause does not count; a bare word ("scale.") earns nothing; a phrase the
// data marks as contradicting the point, said of its product, cancels it.
// An answer that is a list of keywords earns half at most. An answer given
// after the time is up is graded, but earns nothing.
func GradeExplain(t Topic, text string, elapsed time.Duration) ExplainResult {
	r := ExplainResult{Topic: t.ID, InTime: elapsed <= time.Duration(t.Seconds)*time.Second, Elapsed: elapsed.Seconds(),
		Covered: []Point{}, Missed: []Point{}, Terms: []string{}, Notes: []PointNote{}, Feedback: []string{}}
	clauses := splitClauses(t, text)
	r.KeywordList = strings.TrimSpace(text) != "" && (keywordList(text) || fragmentList(text))
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

// pointHit finds the first term of p said, unnegated, of the point's
// product in a clause that states something; when none is, or when the
// answer contradicts the point, it says why.
func pointHit(t Topic, p Point, clauses []clause) (hit, note string) {
	about := func(cl clause, at int) bool { return len(p.About) == 0 || slices.Contains(p.About, cl.aboutAt(at)) }
	for _, cl := range clauses {
		if cl.fragment {
			continue
		}
		for _, c := range p.Contradicts {
			at := termIndex(cl.text, c)
			if at < 0 || negatedBefore(cl.text[:at]) || !about(cl, at) {
				continue
			}
			of := ""
			if len(p.About) > 0 {
				of = " of " + t.productNames([]string{cl.aboutAt(at)})
			}
			return "", fmt.Sprintf("You said “%s”%s, which is not so", saidAt(cl.text, at, c), of)
		}
	}
	var wrongProduct, negated, bare string
	for _, cl := range clauses {
		for _, term := range p.Terms {
			at := termIndex(cl.text, term)
			if at < 0 {
				continue
			}
			said := saidAt(cl.text, at, term)
			switch {
			case cl.fragment:
				if bare == "" {
					bare = said
				}
			case negatedBefore(cl.text[:at]):
				if negated == "" {
					negated = said
				}
			case !about(cl, at):
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
	case bare != "":
		return "", fmt.Sprintf("You said “%s” only as a bare word, not in a sentence that says what it is about", bare)
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
var clauseBreaks = []string{";", ",", ":", " but ", " while ", " whereas ", " — ", " - "}

// splitClauses cuts an answer into clauses and finds the products each
// names. A clause that names none is about the subject of the clause
// before it: the first product that one names ("Dynamo sits above engines,
// and it routes ...").
func splitClauses(t Topic, text string) []clause {
	text = strings.ReplaceAll(strings.ToLower(text), "’", "'")
	var out []clause
	subject := ""
	for _, sentence := range splitSentences(text) {
		frag := isFragment(sentence)
		parts := []string{sentence}
		for _, br := range clauseBreaks {
			var next []string
			for _, p := range parts {
				next = append(next, strings.Split(p, br)...)
			}
			parts = next
		}
		for _, p := range parts {
			p = normalize(p)
			if p == "" {
				continue
			}
			cl := clause{text: p, subject: subject, named: t.nameProducts(p), fragment: frag}
			if len(cl.named) > 0 {
				subject = cl.named[0].id
			}
			out = append(out, cl)
		}
	}
	return out
}

// isFragment reports whether a sentence states nothing: one bare word, or
// words with no verb among them.
func isFragment(sentence string) bool {
	ws := words(sentence)
	if len(ws) == 0 {
		return false
	}
	if len(ws) == 1 {
		return true
	}
	for _, w := range ws {
		if slices.Contains(verbs, w) {
			return false
		}
	}
	return true
}

// fragmentList reports whether an answer is mostly sentences that state
// nothing ("Dynamo is an orchestrator. general. coexist. scale."): two or
// more, and a third of its sentences at least.
func fragmentList(text string) bool {
	sentences, frags := 0, 0
	for _, s := range splitSentences(strings.ToLower(text)) {
		if len(words(s)) == 0 {
			continue
		}
		sentences++
		if isFragment(s) {
			frags++
		}
	}
	return frags >= 2 && 3*frags >= sentences
}

// splitSentences cuts at . ! ? followed by a space or the end (so "v1.6"
// and "e.g." inside a word stay whole).
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '\n' {
			out = append(out, text[start:i])
			start = i + 1
		} else if c == '.' || c == '!' || c == '?' {
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' {
				out = append(out, text[start:i])
				start = i + 1
			}
		}
	}
	return append(out, text[start:])
}

// nameProducts lists the topic's products a clause names and where, in
// the order it names them; the longest name is matched first, so
// "dynamo-triton" is not also read as "dynamo".
func (t Topic) nameProducts(text string) []named {
	type found = named
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
	return hits
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
