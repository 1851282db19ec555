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
// w: role, when to pick it, when not to, key points, landmines and seed
// corrections with their sources and dates, and the sources themselves.
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
		mines = append(mines, wrapStyled(report.SourceText(m.Source, m.AsOf), w, 2, 2, st.Muted)...)
	}
	if len(mines) == 0 {
		mines = []string{st.Muted.Render("(none recorded)")}
	}
	secs = append(secs, section{"Landmines", mines})
	if len(p.SeedNotes) > 0 {
		var notes []string
		for _, n := range p.SeedNotes {
			notes = append(notes, wrap("the course notes: "+n.Claim, w, 0, 2)...)
			now := wrap("now: "+n.Current, w, 0, 2)
			now[0] = st.Good.Render("now:") + strings.TrimPrefix(now[0], "now:")
			notes = append(notes, now...)
			notes = append(notes, wrapStyled(report.SourceText(n.Source, n.AsOf), w, 2, 2, st.Muted)...)
		}
		secs = append(secs, section{"Where the course notes are out of date", notes})
	}
	var srcs []string
	for _, s := range p.Sources {
		srcs = append(srcs, wrap("• "+s.Title, w, 0, 2)...)
		srcs = append(srcs, wrapStyled(s.URL, w, 2, 0, st.Muted)...)
		if s.AsOf != "" {
			srcs = append(srcs, st.Muted.Render(truncate("  as of "+s.AsOf, w)))
		}
	}
	if len(srcs) == 0 {
		srcs = []string{st.Muted.Render("(none recorded)")}
	}
	secs = append(secs, section{"Sources", srcs})
	return secs
}
