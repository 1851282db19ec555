package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// CourseNotesTitle names the page that lists where the knowledge base
// parts from the course notes, the same on every surface.
const CourseNotesTitle = "What changed since the course notes"

// CourseNotesAbout says once what the course notes are.
const CourseNotesAbout = "stackpick's knowledge started from 'Engines as Products' (the course notes); where they have aged, the knowledge base corrects them, each correction with its source."

// Correction is one claim of the course notes the knowledge base corrects.
type Correction struct {
	CourseNotes string `json:"course_notes"`    // what the course notes say
	Now         string `json:"now"`             // what holds today
	Since       string `json:"since,omitempty"` // the release or date the change landed
	Source      string `json:"source"`
	AsOf        string `json:"as_of,omitempty"`
}

// sinceMD is " Since: v0.11.0." when the knowledge base knows when the
// change landed, else "".
func (c Correction) sinceMD() string {
	if c.Since == "" {
		return ""
	}
	return " Since: " + md(sentence(c.Since))
}

// GoneFlag is a run-book flag the course notes name that the engine no
// longer takes (removed, deprecated or renamed), and what took over.
type GoneFlag struct {
	Flag    string `json:"flag"`
	FlagID  string `json:"flag_id"`
	Status  string `json:"status"` // removed or deprecated
	When    string `json:"when,omitempty"`
	Instead string `json:"instead"`
	Source  string `json:"source"`
	AsOf    string `json:"as_of,omitempty"`
}

// ProductChanges is what changed since the course notes for one product.
type ProductChanges struct {
	Product     string       `json:"product"`
	Name        string       `json:"name"`
	Corrections []Correction `json:"corrections"`
	FlagsGone   []GoneFlag   `json:"flags_gone"`
}

// CourseNoteChanges lists, per product in knowledge-base order, the course
// notes' claims the knowledge base corrects and the run-book flags they
// name that are gone. product "" is every product with a change; an
// unknown product is an error that names the ones there are.
func CourseNoteChanges(kb *knowledge.KB, product string) ([]ProductChanges, error) {
	if product != "" && kb.Product(product) == nil {
		var ids []string
		for _, p := range kb.Products {
			ids = append(ids, p.ID)
		}
		e := &knowledge.Error{File: "PRODUCT", Key: product, Problem: "no such product", Allowed: strings.Join(ids, ", ")}
		if n := knowledge.Nearest(product, ids); n != "" {
			e.Hint = fmt.Sprintf("did you mean %q?", n)
		}
		return nil, e
	}
	out := []ProductChanges{}
	for _, p := range kb.Products {
		if product != "" && p.ID != product {
			continue
		}
		pc := ProductChanges{Product: p.ID, Name: p.Name, Corrections: []Correction{}, FlagsGone: goneFlags(kb, p.ID)}
		for _, n := range p.SeedNotes {
			pc.Corrections = append(pc.Corrections, Correction{CourseNotes: n.Claim, Now: n.Current, Since: n.Since, Source: n.Sources.Cite(true), AsOf: n.Sources.CheckedOn()})
		}
		if product != "" || len(pc.Corrections)+len(pc.FlagsGone) > 0 {
			out = append(out, pc)
		}
	}
	return out, nil
}

func goneFlags(kb *knowledge.KB, engine string) []GoneFlag {
	out := []GoneFlag{}
	for _, n := range decide.CourseFlagsGone(kb, engine) {
		g := GoneFlag{Flag: n.Flag, FlagID: n.FlagID, Status: n.Status, Instead: n.ReplacedBy, Source: n.Source}
		if f := kb.Flag(n.FlagID); f != nil {
			g.When, g.AsOf = f.Removed, f.Sources.CheckedOn()
			if f.Status == knowledge.FlagDeprecated {
				g.When = f.Deprecated
			}
		}
		out = append(out, g)
	}
	return out
}

// GoneFlagsCount is how many run-book flags the course notes name for
// engine that are gone (0 for an engine without a run book).
func GoneFlagsCount(kb *knowledge.KB, engine string) int {
	return len(decide.CourseFlagsGone(kb, engine))
}

// CourseNoteLines is the page for a terminal, wrapped to w: per product,
// the corrections and the flags gone, each with its source (commit ids
// shortened). The app's page and `kb changes` both lay it out.
func CourseNoteLines(changes []ProductChanges, st Styles, w int) []string {
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	if len(changes) == 0 {
		return []string{st.Muted.Render("(nothing recorded)")}
	}
	for i, pc := range changes {
		if i > 0 {
			add("")
		}
		add(WrapSpans([]Span{Styled(pc.Name, &st.Pick), Styled(" · "+countsText(pc), &st.Muted)}, w, 0, 2)...)
		add(CourseNoteBody(pc, st, w, 2)...)
	}
	return out
}

// CourseNoteBody is one product's corrections and flags gone, indented by
// indent, for the page above and for the product's own page.
func CourseNoteBody(pc ProductChanges, st Styles, w, indent int) []string {
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	if len(pc.Corrections) > 0 {
		add(WrapStyled("Course-notes claims corrected", w, indent, 2, st.Heading)...)
		for _, c := range pc.Corrections {
			add(WrapSpans([]Span{Styled("the course notes:", &st.Warn), Plain(" " + c.CourseNotes)}, w, indent, 4)...)
			add(WrapSpans([]Span{Styled("now:", &st.Good), Plain(" " + c.Now)}, w, indent+2, 4)...)
			if c.Since != "" {
				add(WrapStyled("since: "+c.Since, w, indent+2, 4, st.Muted)...)
			}
			add(WrapStyled(SourceText(c.Source, c.AsOf), w, indent+2, 4, st.Muted)...)
		}
	}
	if len(pc.FlagsGone) > 0 {
		add(WrapStyled("Run-book flags gone or renamed", w, indent, 2, st.Heading)...)
		for _, g := range pc.FlagsGone {
			head := []Span{Styled("✗", &st.Bad), Plain(" "), Styled(g.Flag, &st.Key), Plain(" " + flagStatusText(g))}
			add(WrapSpans(head, w, indent, 4)...)
			add(WrapSpans([]Span{Styled("instead:", &st.Good), Plain(" " + g.Instead)}, w, indent+2, 4)...)
			add(WrapStyled(SourceText(g.Source, g.AsOf), w, indent+2, 4, st.Muted)...)
		}
	}
	return out
}

// CourseNotesText is `kb changes` as text: the title, what the course
// notes are, and the page.
func CourseNotesText(changes []ProductChanges, st Styles, w int) string {
	out := []string{st.Heading.Render(CourseNotesTitle)}
	out = append(out, WrapStyled(CourseNotesAbout, w, 0, 0, st.Muted)...)
	out = append(out, "")
	out = append(out, CourseNoteLines(changes, st, w)...)
	return strings.Join(out, "\n") + "\n"
}

// CourseNotesMarkdown is `kb changes` as Markdown.
func CourseNotesMarkdown(changes []ProductChanges) string {
	var b strings.Builder
	b.WriteString("# " + CourseNotesTitle + "\n\n" + md(CourseNotesAbout) + "\n")
	for _, pc := range changes {
		b.WriteString("\n## " + md(pc.Name) + "\n\n")
		if len(pc.Corrections)+len(pc.FlagsGone) == 0 {
			b.WriteString("Nothing recorded.\n")
		}
		if len(pc.Corrections) > 0 {
			b.WriteString("Course-notes claims corrected:\n\n")
			for _, c := range pc.Corrections {
				fmt.Fprintf(&b, "- The course notes: %s Now: %s%s Source: %s.\n", md(sentence(c.CourseNotes)), md(sentence(c.Now)), c.sinceMD(), sourceMD(c.Source, c.AsOf))
			}
		}
		if len(pc.FlagsGone) > 0 {
			if len(pc.Corrections) > 0 {
				b.WriteString("\n")
			}
			b.WriteString("Run-book flags gone or renamed:\n\n")
			for _, g := range pc.FlagsGone {
				fmt.Fprintf(&b, "- `%s` %s; instead: %s Source: %s.\n", g.Flag, md(flagStatusText(g)), md(sentence(g.Instead)), sourceMD(g.Source, g.AsOf))
			}
		}
	}
	return b.String()
}

// CourseNotesJSON is `kb changes` as JSON.
func CourseNotesJSON(w io.Writer, changes []ProductChanges) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		About    string           `json:"about"`
		Products []ProductChanges `json:"products"`
	}{CourseNotesAbout, changes})
}

func countsText(pc ProductChanges) string {
	var parts []string
	if n := len(pc.Corrections); n > 0 {
		parts = append(parts, count(n, "claim", "claims")+" corrected")
	}
	if n := len(pc.FlagsGone); n > 0 {
		parts = append(parts, count(n, "flag", "flags")+" gone")
	}
	if len(parts) == 0 {
		return "nothing recorded"
	}
	return strings.Join(parts, ", ")
}

func flagStatusText(g GoneFlag) string {
	if g.When == "" {
		return g.Status
	}
	return g.Status + ": " + g.When
}

// sentence ends s with one full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, ")") && strings.HasSuffix(strings.TrimSuffix(s, ")"), ".") {
		return s
	}
	return s + "."
}
