package drill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stackpick/stackpick/knowledge"
)

// Flag question modes.
const (
	// ModeDefault shows a flag: type its default, pick its effect from four.
	ModeDefault = "default-and-effect"
	// ModeName shows an effect: name the flag.
	ModeName = "name"
)

// FlagQuestion is one question of the flags drill.
type FlagQuestion struct {
	FlagID  string   `json:"flag_id"`
	Mode    string   `json:"mode"`
	Flag    string   `json:"flag"`    // shown in ModeDefault
	Effect  string   `json:"effect"`  // shown in ModeName
	Choices []string `json:"choices"` // four effects, in ModeDefault
	Correct int      `json:"correct"` // index of the right effect
}

// FlagItemID is the history id of one flag question.
func FlagItemID(flagID, mode string) string { return "flags:" + flagID + ":" + mode }

// FlagQuiz builds the drill: each of the top flags once, in a mode chosen by
// the seed, most-missed first; then up to three of the most-missed flags
// again in the other mode, so weak items come up more often. No question's
// wrong effects give away a later one: an effect a later question asks for
// is never offered before it.
func (c *Content) FlagQuiz(kb *knowledge.KB, seed uint64, misses Misses) []FlagQuestion {
	rng := rand.New(rand.NewPCG(seed, 0xf1a9))
	ids := make([]string, len(c.FlagItems))
	flagMisses := Misses{}
	for i, it := range c.FlagItems {
		ids[i] = it.ID
		flagMisses[it.ID] = misses[FlagItemID(it.ID, ModeDefault)] + misses[FlagItemID(it.ID, ModeName)]
	}
	ordered := order(ids, seed, flagMisses)
	var qs []FlagQuestion
	for _, id := range ordered {
		mode := ModeDefault
		if rng.IntN(2) == 1 {
			mode = ModeName
		}
		// A mode the player missed before is asked again.
		if misses[FlagItemID(id, ModeName)] > misses[FlagItemID(id, ModeDefault)] {
			mode = ModeName
		} else if misses[FlagItemID(id, ModeDefault)] > misses[FlagItemID(id, ModeName)] {
			mode = ModeDefault
		}
		qs = append(qs, FlagQuestion{FlagID: id, Mode: mode})
	}
	repeats := 0
	for _, id := range ordered {
		if repeats == 3 || flagMisses[id] == 0 {
			break
		}
		at := slices.IndexFunc(qs, func(q FlagQuestion) bool { return q.FlagID == id })
		other := ModeName
		if qs[at].Mode == ModeName {
			other = ModeDefault
		} else {
			// A default question shows the flag's name, so the name is
			// asked first and the default again at the end.
			qs[at].Mode, other = ModeName, ModeDefault
		}
		qs = append(qs, FlagQuestion{FlagID: id, Mode: other})
		repeats++
	}
	qs = c.untangle(kb, qs)
	for i := range qs {
		c.fillQuestion(kb, qs, i, rng)
	}
	return qs
}

// fillQuestion words question i and, for a default question, draws three
// wrong effects from the effects no later question asks for: the other top
// flags' and, when those run short, other current flags of the engine.
func (c *Content) fillQuestion(kb *knowledge.KB, qs []FlagQuestion, i int, rng *rand.Rand) {
	q := &qs[i]
	f := kb.Flag(q.FlagID)
	q.Flag, q.Effect = f.Name, f.Effect
	if q.Mode != ModeDefault {
		return
	}
	later := map[string]bool{}
	var laterNames []string
	for _, lq := range qs[i+1:] {
		if lq.Mode == ModeDefault {
			later[kb.Flag(lq.FlagID).Effect] = true
		} else {
			laterNames = append(laterNames, kb.Flag(lq.FlagID).Name)
		}
	}
	usable := func(e string) bool {
		return e != "" && e != f.Effect && !later[e] && !slices.ContainsFunc(laterNames, func(n string) bool { return NamesFlag(e, n) })
	}
	var top, rest []string
	for _, it := range c.FlagItems {
		if e := kb.Flag(it.ID).Effect; usable(e) && !slices.Contains(top, e) {
			top = append(top, e)
		}
	}
	for _, of := range kb.Flags {
		if of.Engine == f.Engine && of.Status == knowledge.FlagCurrent && usable(of.Effect) && !slices.Contains(top, of.Effect) && !slices.Contains(rest, of.Effect) {
			rest = append(rest, of.Effect)
		}
	}
	rng.Shuffle(len(top), func(a, b int) { top[a], top[b] = top[b], top[a] })
	rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	others := append(top, rest...)
	q.Choices = append([]string{f.Effect}, others[:min(3, len(others))]...)
	rng.Shuffle(len(q.Choices), func(a, b int) { q.Choices[a], q.Choices[b] = q.Choices[b], q.Choices[a] })
	q.Correct = slices.Index(q.Choices, f.Effect)
}

// NamesFlag reports whether text names the flag called name ("--max-num-seqs"),
// with or without its dashes, as a whole word.
func NamesFlag(text, name string) bool {
	text, name = strings.ToLower(text), strings.TrimLeft(strings.ToLower(name), "-")
	part := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_' }
	for from := 0; ; {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(name)
		before := i == 0 || !part(text[i-1]) || (text[i-1] == '-' && (i < 2 || text[i-2] == '-' || !part(text[i-2])))
		if before && (end == len(text) || !part(text[end])) {
			return true
		}
		from = i + 1
	}
}

// shownText is what a question and its feedback show whatever the answer,
// its wrong effects aside: the effect, the default and what it depends on.
func shownText(kb *knowledge.KB, q FlagQuestion) string {
	f := kb.Flag(q.FlagID)
	return f.Effect + "\n" + f.Default + "\n" + f.DependsOn
}

// untangle orders the questions so that none gives away a later one: a
// question whose effect, default or dependency names the flag a later
// question asks for by name comes after that question (and a flag asked
// by name comes before its default question, which shows the name). A
// name question that cannot move without a leak of its own is asked for
// its default instead.
func (c *Content) untangle(kb *knowledge.KB, qs []FlagQuestion) []FlagQuestion {
	leaksTo := func(q, p FlagQuestion) bool { // q, asked before p, gives p away
		if p.Mode != ModeName {
			return false
		}
		name := kb.Flag(p.FlagID).Name
		if q.FlagID == p.FlagID {
			return q.Mode == ModeDefault
		}
		return NamesFlag(shownText(kb, q), name)
	}
	moves := map[string]int{}
	for range 4 * len(qs) * len(qs) {
		moved := false
		for j := 0; j < len(qs) && !moved; j++ {
			for i := 0; i < j; i++ {
				if !leaksTo(qs[i], qs[j]) {
					continue
				}
				p := qs[j]
				k := FlagItemID(p.FlagID, p.Mode)
				if moves[k]++; moves[k] > len(qs) {
					qs[j].Mode = ModeDefault
				} else {
					qs = slices.Insert(slices.Delete(qs, j, j+1), i, p)
				}
				moved = true
				break
			}
		}
		if !moved {
			return qs
		}
	}
	// Still tangled: every name question that leaks is asked for its
	// default instead.
	for j := range qs {
		for i := 0; i < j; i++ {
			if leaksTo(qs[i], qs[j]) {
				qs[j].Mode = ModeDefault
			}
		}
	}
	return qs
}

// FlagAnswer is what the player gave for one question.
type FlagAnswer struct {
	Default string `json:"default,omitempty"`
	Choice  int    `json:"choice"` // index into Choices; -1 for none
	Name    string `json:"name,omitempty"`
}

// FlagGrade is one graded flag question, with the teaching that goes with it.
type FlagGrade struct {
	Question FlagQuestion `json:"question"`
	Points   float64      `json:"points"`
	Max      float64      `json:"max"`
	// Verdicts in words: "right", "partly right", "wrong".
	DefaultVerdict string `json:"default_verdict,omitempty"`
	EffectVerdict  string `json:"effect_verdict,omitempty"`
	NameVerdict    string `json:"name_verdict,omitempty"`
	// Teaching: the current default, what it depends on, the versions it
	// applies to, and any correction of the seed.
	Default    string `json:"default"`
	DependsOn  string `json:"depends_on,omitempty"`
	Versions   string `json:"versions,omitempty"`
	Correction string `json:"correction,omitempty"`
	// DidYouMean is the flag a misspelt name was closest to.
	DidYouMean string `json:"did_you_mean,omitempty"`
	Source     string `json:"source"`
}

// Right is the answer in words: the flag's name, or its default and effect.
func (g FlagGrade) Right() string {
	if g.Question.Mode == ModeName {
		return g.Question.Flag
	}
	return "default " + g.Default + "; effect: " + g.Question.Effect
}

// Feedback is what the player is told right after answering: the verdict
// and points, a did-you-mean, the correction of the course notes, and the
// right answer with its source.
func (g FlagGrade) Feedback() []string {
	mark := "✓"
	if g.Points < g.Max {
		mark = "✗"
	}
	verdict := g.Verdict()
	out := []string{fmt.Sprintf("%s %s%s (%s)", mark, strings.ToUpper(verdict[:1]), verdict[1:], Fraction(g.Points, g.Max))}
	if g.DidYouMean != "" {
		out = append(out, "Did you mean "+g.DidYouMean+"?")
	}
	if g.Correction != "" {
		out = append(out, "Correction: "+g.Correction)
	}
	if g.Question.Mode == ModeName {
		out = append(out, "The flag: "+g.Question.Flag)
	} else {
		out = append(out, "Default today: "+g.Default)
		if g.DependsOn != "" {
			out = append(out, "Depends on: "+g.DependsOn)
		}
		if g.EffectVerdict != "right" {
			out = append(out, "Its effect: "+g.Question.Effect)
		}
	}
	if g.Versions != "" && g.Points < g.Max {
		out = append(out, "Versions: "+g.Versions)
	}
	return append(out, "Source: "+g.Source)
}

// Verdict is the grade in words: "right", or what was right and wrong.
func (g FlagGrade) Verdict() string {
	if g.Question.Mode == ModeName {
		return g.NameVerdict
	}
	if g.DefaultVerdict == "right" && g.EffectVerdict == "right" {
		return "right"
	}
	return "default " + g.DefaultVerdict + ", effect " + g.EffectVerdict
}

// GradeFlag grades one answer. A default or name from the seed that the
// knowledge base marks out of date earns half a point and the correction.
func (c *Content) GradeFlag(kb *knowledge.KB, q FlagQuestion, ans FlagAnswer) FlagGrade {
	f := kb.Flag(q.FlagID)
	g := FlagGrade{Question: q, Max: 2, Default: f.Default, DependsOn: f.DependsOn, Versions: versions(f), Source: f.Sources.Cite(false) + " (" + f.Sources.Freshness() + ")"}
	item := c.flagItem(q.FlagID)
	switch q.Mode {
	case ModeDefault:
		got := normalize(ans.Default)
		switch {
		case got != "" && matchesAny(got, item.Accept):
			g.Points++
			g.DefaultVerdict = "right"
		case got != "" && namesBoth(got, item.SeedDefault):
			// The full rule: both values the default resolves to.
			g.Points++
			g.DefaultVerdict = "right"
		case got != "" && matchesAny(got, item.SeedDefault):
			g.Points += 0.5
			g.DefaultVerdict = "partly right"
			g.Correction = fmt.Sprintf("%q is the course notes' answer, out of date or only part of it; today: %s", ans.Default, f.Default)
		default:
			g.DefaultVerdict = "wrong"
		}
		if ans.Choice == q.Correct {
			g.Points++
			g.EffectVerdict = "right"
		} else {
			g.EffectVerdict = "wrong"
		}
	case ModeName:
		// vLLM's parser takes --kv_cache_dtype for --kv-cache-dtype.
		got := strings.TrimLeft(strings.ReplaceAll(normalize(ans.Name), "_", "-"), "-")
		names := append([]string{f.Name}, f.Aliases...)
		switch {
		case got != "" && slices.ContainsFunc(names, func(n string) bool { return strings.TrimLeft(n, "-") == got }):
			g.Points += 2
			g.NameVerdict = "right"
		default:
			switch old := outdatedName(kb, q.FlagID, got); {
			case old != nil:
				g.Points++
				g.NameVerdict = "partly right"
				g.Correction = fmt.Sprintf("%s is %s%s; today the flag is %s", old.Name, old.Status, sinceText(old), f.Name)
			case got != "":
				g.NameVerdict = "wrong"
				// A near miss of a real flag: say which one it was close to,
				// and a near miss of the right one (a typo) earns half.
				if near := nearFlag(kb, f.Engine, got); near != "" {
					g.DidYouMean = near
					if near == f.Name {
						g.Points++
						g.NameVerdict = "nearly right"
					}
				}
			default:
				g.NameVerdict = "wrong"
			}
		}
	}
	return g
}

func (c *Content) flagItem(id string) FlagItem {
	for _, it := range c.FlagItems {
		if it.ID == id {
			return it
		}
	}
	return FlagItem{ID: id}
}

// matchesAny accepts an answer equal to an accepted value, or one whose
// first word is (so "0.92 by default" counts for 0.92), after both are put
// in one spelling: "92%" and ".92" are 0.92, "8k" is 8192, "on", "enabled"
// and "yes" are true.
func matchesAny(got string, accepted []string) bool {
	got = canonical(got)
	first := strings.Fields(strings.Trim(got, " .,;:"))
	for _, a := range accepted {
		a = canonical(a)
		if got == a || strings.HasPrefix(got, a+" ") || (len(first) > 0 && first[0] == a) {
			return true
		}
	}
	return false
}

// namesBoth reports whether an answer names two or more of a flag's
// values ("256 elsewhere, 1024 on H100"): with a default that depends on
// the GPU, that is the whole rule.
func namesBoth(got string, values []string) bool {
	if len(values) < 2 {
		return false
	}
	ws := strings.Fields(strings.Map(func(r rune) rune {
		if r == ',' || r == ';' || r == '/' || r == '(' || r == ')' {
			return ' '
		}
		return r
	}, canonical(got)))
	var named []string
	for _, v := range values {
		v = canonical(v)
		if !slices.Contains(named, v) && (slices.Contains(ws, v) || slices.Contains(ws, v+".")) {
			named = append(named, v)
		}
	}
	return len(named) >= 2
}

// numberWords are small numbers as words ("one" for a TP size of 1).
var numberWords = map[string]string{"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8"}

// percentRE is a number with its percent sign or word apart ("92 %",
// "92 percent", "92 per cent").
var percentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\d)\s*(%|percent\b|per cent\b|pct\b)`)
})

// truthy and falsy are the spellings of an on/off default.
var (
	truthy = []string{"true", "on", "yes", "enabled", "enable", "y"}
	falsy  = []string{"false", "off", "no", "disabled", "disable", "n"}
)

// canonical spells every word of an answer one way: numbers as Go prints
// them (0.92, 8192), a percentage as its fraction, a k suffix as ×1024, an
// on/off word as true or false.
func canonical(s string) string {
	s = percentRE().ReplaceAllString(normalize(s), "$1%")
	var b strings.Builder
	word := func(w string) string {
		if d, ok := numberWords[w]; ok {
			w = d
		}
		w = strings.TrimPrefix(w, "--")
		switch {
		case slices.Contains(truthy, w):
			return "true"
		case slices.Contains(falsy, w):
			return "false"
		}
		if v, ok := number(w); ok {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return w
	}
	start := -1
	for i := 0; i <= len(s); i++ {
		inWord := i < len(s) && (isWordByte(s[i]) || s[i] == '.' || s[i] == '%')
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			w := s[start:i]
			trail := ""
			// A full stop ends a sentence, it is not part of a number.
			for strings.HasSuffix(w, ".") {
				w, trail = w[:len(w)-1], trail+"."
			}
			b.WriteString(word(w) + trail)
			start = -1
		}
		if !inWord && i < len(s) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// number reads "0.92", ".92", "92%", "8k" or "8192".
func number(w string) (float64, bool) {
	scale := 1.0
	switch {
	case strings.HasSuffix(w, "%"):
		w, scale = strings.TrimSuffix(w, "%"), 0.01
	case strings.HasSuffix(w, "k"):
		w, scale = strings.TrimSuffix(w, "k"), 1024
	}
	if w == "" || strings.ContainsAny(w, "eE") {
		return 0, false
	}
	v, err := strconv.ParseFloat(w, 64)
	if err != nil {
		return 0, false
	}
	return math.Round(v*scale*1e6) / 1e6, true
}

// nearFlag is the current flag of engine whose name got nearly spells,
// with its dashes, or "".
func nearFlag(kb *knowledge.KB, engine, got string) string {
	var names []string
	for _, f := range kb.Flags {
		if f.Engine == engine && f.Status == knowledge.FlagCurrent {
			names = append(names, strings.TrimLeft(f.Name, "-"))
		}
	}
	if slices.Contains(names, got) {
		return "" // a real flag, only the wrong one
	}
	if n := knowledge.Nearest(got, names); n != "" {
		return "--" + n
	}
	return ""
}

// outdatedName finds a flag, named got, that the knowledge base marks
// removed or renamed into target (following replaced_by chains).
func outdatedName(kb *knowledge.KB, target, got string) *knowledge.Flag {
	for _, f := range kb.Flags {
		if strings.TrimLeft(f.Name, "-") != got || f.ID == target {
			continue
		}
		seen := map[string]bool{}
		for cur := f; cur != nil && cur.ReplacedBy != "" && !seen[cur.ID]; cur = kb.Flag(cur.ReplacedBy) {
			seen[cur.ID] = true
			if cur.ReplacedBy == target {
				return f
			}
		}
	}
	return nil
}

func versions(f *knowledge.Flag) string {
	var parts []string
	if f.Introduced != "" {
		parts = append(parts, "introduced "+f.Introduced)
	}
	if f.Deprecated != "" {
		parts = append(parts, "deprecated "+f.Deprecated)
	}
	if f.Removed != "" {
		parts = append(parts, "removed "+f.Removed)
	}
	return strings.Join(parts, "; ")
}

func sinceText(f *knowledge.Flag) string {
	if f.Removed != "" {
		return " (removed " + f.Removed + ")"
	}
	if f.Deprecated != "" {
		return " (deprecated " + f.Deprecated + ")"
	}
	return ""
}

// FlagsResult is the graded flags drill.
type FlagsResult struct {
	Grades []FlagGrade `json:"grades"`
	Score  Score       `json:"score"`
}

// GradeFlagAt grades question i of a drill: GradeFlag, with no "did you
// mean" that names the flag a later question asks for by name (a near
// miss of it would give that answer away).
func (c *Content) GradeFlagAt(kb *knowledge.KB, qs []FlagQuestion, i int, ans FlagAnswer) FlagGrade {
	g := c.GradeFlag(kb, qs[i], ans)
	if g.DidYouMean == "" {
		return g
	}
	for _, later := range qs[i+1:] {
		if later.Mode == ModeName && later.FlagID != qs[i].FlagID && kb.Flag(later.FlagID).Name == g.DidYouMean {
			g.DidYouMean = ""
		}
	}
	return g
}

// GradeFlags grades every question; answers[i] answers questions[i].
func (c *Content) GradeFlags(kb *knowledge.KB, qs []FlagQuestion, answers []FlagAnswer) FlagsResult {
	var r FlagsResult
	for i, q := range qs {
		var a FlagAnswer
		a.Choice = -1
		if i < len(answers) {
			a = answers[i]
		}
		g := c.GradeFlagAt(kb, qs, i, a)
		r.Grades = append(r.Grades, g)
		r.Score.Points += g.Points
		r.Score.Max += g.Max
		if g.Points < g.Max {
			r.Score.Missed = append(r.Score.Missed, FlagItemID(q.FlagID, q.Mode))
		}
	}
	return r
}
