package tui

import (
	"strings"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// decisionCards lays the session's decision out as report's layer cards,
// each in a box exactly w cells wide, and returns the line where each card
// starts (for jumping between layers). The scenario's story leads when
// there is room.
func decisionCards(c *shared, w int, story bool) (string, []int) {
	st := c.Styles
	s := &c.session
	d := s.decision
	var out []string
	if s.scenario != "" && story {
		for _, sc := range c.Scenarios {
			if sc.Name == s.scenario {
				out = append(out, wrapStyled(sc.Story, w, 0, 0, st.Muted)...)
			}
		}
	}
	if diff := changedAnswers(c.KB, s.answers); diff != "" {
		out = append(out, wrapStyled("Answers changed from the defaults: "+diff, w, 0, 2, st.Muted)...)
	} else {
		out = append(out, st.Muted.Render("All answers at their defaults."))
	}
	if sv := report.ServesLine(c.KB, d); sv != "" {
		out = append(out, wrapStyled(sv, w, 0, 2, st.Muted)...)
	}
	out = append(out, report.AssumptionLines(d, st, w)...)
	changed := s.changedLayers()
	var offsets []int
	for _, lp := range d.Layers {
		out = append(out, "")
		offsets = append(offsets, len(out))
		body := report.LayerCard(c.KB, d, lp, st, w-4, changed[lp.Layer])
		out = append(out, screen.Box(st, st.Layer.Render(report.LayerTitle(c.KB, lp.Layer)), body, w, 0)...)
	}
	out = append(out, "", st.Muted.Render(truncate("e: edit one answer · s: save answers · x: export memo · a: all questions", w)))
	return strings.Join(out, "\n"), offsets
}

// changedAnswers lists the answers that differ from the defaults, as
// "key value" pairs.
func changedAnswers(kb *knowledge.KB, a knowledge.Answers) string {
	var parts []string
	for _, c := range kb.Changed(a) {
		parts = append(parts, c.Q.Key+" "+c.ToText())
	}
	return strings.Join(parts, " · ")
}
