package tui

import (
	"strings"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// section is one titled part of a product's page.
type section struct {
	title string
	lines []string
}

// productSections renders what the knowledge base says about p, wrapped to
// w: role, when to pick it, when not to, key points, landmines, what
// changed since the course notes with sources and dates, and the sources
// themselves.
func productSections(c *shared, p *knowledge.Product, w int, withLayer bool) []section {
	st := c.Styles
	bullets := func(items []string, mark string) []string {
		var out []string
		for _, it := range items {
			ls := wrap(it, w, 0, 2)
			ls[0] = mark + strings.TrimPrefix(ls[0], " ")
			out = append(out, ls...)
		}
		if len(out) == 0 {
			out = append(out, st.Muted.Render("(none recorded)"))
		}
		return out
	}
	layer := c.KB.Layer(p.Layer)
	var secs []section
	if withLayer {
		secs = append(secs, section{"Layer", wrap(layer.Name+": "+layer.What, w, 0, 2)})
	}
	secs = append(secs, []section{
		{"Role", wrap(p.Role, w, 0, 0)},
		{"Latest release", wrap(report.ReleaseText(p.Release), w, 0, 2)},
		{"Pick it when", bullets(p.PickWhen, "+ ")},
		{"Avoid it when", bullets(p.AvoidWhen, "- ")},
		{"Strengths", bullets(p.Strengths, "• ")},
		{"Key points", bullets(p.KeyPoints, "• ")},
	}...)
	var mines []string
	for _, m := range p.Landmines {
		ls := wrap(m.Text, w, 2, 0)
		ls[0] = st.Warn.Render("!") + ls[0][1:]
		mines = append(mines, ls...)
		if m.Watch != "" {
			mines = append(mines, wrapStyled("watch: "+m.Watch, w, 2, 2, st.Muted)...)
		}
		mines = append(mines, wrapStyled(report.SourceText(m.Sources.Cite(true), m.Sources.CheckedOn()), w, 2, 2, st.Muted)...)
	}
	if len(mines) == 0 {
		mines = []string{st.Muted.Render("(none recorded)")}
	}
	secs = append(secs, section{"Landmines", mines})
	if changes, _ := report.CourseNoteChanges(c.KB, p.ID); len(changes) == 1 && len(changes[0].Corrections)+len(changes[0].FlagsGone) > 0 {
		secs = append(secs, section{report.CourseNotesTitle, report.CourseNoteBody(changes[0], st, w, 0)})
	}
	var srcs []string
	for _, s := range p.Sources {
		srcs = append(srcs, wrap("• "+s.Cite(false), w, 0, 2)...)
		srcs = append(srcs, wrapStyled(knowledge.Sources{s}.Freshness(), w, 2, 2, st.Muted)...)
	}
	if len(srcs) == 0 {
		srcs = []string{st.Muted.Render("(none recorded)")}
	}
	secs = append(secs, section{"Sources", srcs})
	return secs
}
