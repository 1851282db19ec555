package drill

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

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
// again in the other mode, so weak items come up more often.
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
		qs = append(qs, c.flagQuestion(kb, id, mode, rng))
	}
	repeats := 0
	for _, id := range ordered {
		if repeats == 3 || flagMisses[id] == 0 {
			break
		}
		first := qs[slices.IndexFunc(qs, func(q FlagQuestion) bool { return q.FlagID == id })]
		other := ModeName
		if first.Mode == ModeName {
			other = ModeDefault
		}
		qs = append(qs, c.flagQuestion(kb, id, other, rng))
		repeats++
	}
	return qs
}

func (c *Content) flagQuestion(kb *knowledge.KB, id, mode string, rng *rand.Rand) FlagQuestion {
	f := kb.Flag(id)
	q := FlagQuestion{FlagID: id, Mode: mode, Flag: f.Name, Effect: f.Effect}
	if mode == ModeDefault {
		var others []string
		for _, it := range c.FlagItems {
			if it.ID != id {
				others = append(others, kb.Flag(it.ID).Effect)
			}
		}
		rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
		q.Choices = append([]string{f.Effect}, others[:min(3, len(others))]...)
		rng.Shuffle(len(q.Choices), func(i, j int) { q.Choices[i], q.Choices[j] = q.Choices[j], q.Choices[i] })
		q.Correct = slices.Index(q.Choices, f.Effect)
	}
	return q
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
	Source     string `json:"source"`
}

// GradeFlag grades one answer. A default or name from the seed that the
// knowledge base marks out of date earns half a point and the correction.
func (c *Content) GradeFlag(kb *knowledge.KB, q FlagQuestion, ans FlagAnswer) FlagGrade {
	f := kb.Flag(q.FlagID)
	g := FlagGrade{Question: q, Max: 2, Default: f.Default, DependsOn: f.DependsOn, Versions: versions(f), Source: f.Source + " (as of " + f.AsOf + ")"}
	item := c.flagItem(q.FlagID)
	switch q.Mode {
	case ModeDefault:
		got := normalize(ans.Default)
		switch {
		case got != "" && matchesAny(got, item.Accept):
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
		got := strings.TrimLeft(normalize(ans.Name), "-")
		names := append([]string{f.Name}, f.Aliases...)
		switch {
		case got != "" && slices.ContainsFunc(names, func(n string) bool { return strings.TrimLeft(n, "-") == got }):
			g.Points += 2
			g.NameVerdict = "right"
		default:
			if old := outdatedName(kb, q.FlagID, got); old != nil {
				g.Points++
				g.NameVerdict = "partly right"
				g.Correction = fmt.Sprintf("%s is %s%s; today the flag is %s", old.Name, old.Status, sinceText(old), f.Name)
			} else {
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
// first word is (so "0.92 by default" counts for 0.92).
func matchesAny(got string, accepted []string) bool {
	first := strings.Fields(strings.Trim(got, " .,;:"))
	for _, a := range accepted {
		a = normalize(a)
		if got == a || (len(first) > 0 && first[0] == a) {
			return true
		}
	}
	return false
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

// GradeFlags grades every question; answers[i] answers questions[i].
func (c *Content) GradeFlags(kb *knowledge.KB, qs []FlagQuestion, answers []FlagAnswer) FlagsResult {
	var r FlagsResult
	for i, q := range qs {
		var a FlagAnswer
		a.Choice = -1
		if i < len(answers) {
			a = answers[i]
		}
		g := c.GradeFlag(kb, q, a)
		r.Grades = append(r.Grades, g)
		r.Score.Points += g.Points
		r.Score.Max += g.Max
		if g.Points < g.Max {
			r.Score.Missed = append(r.Score.Missed, FlagItemID(q.FlagID, q.Mode))
		}
	}
	return r
}
