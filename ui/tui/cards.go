package tui

import (
	"strings"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// notesHint is what the summary says opens the course-notes flags gone.
const notesHint = "press n to see them"

// resultLayout is the result screen's text laid out once per decision,
// width, height, palette and view (plain or trace): the summary that fits
// the first screen, and report's detail sections, each worded the first
// time it is opened and kept. Opening and closing a section only joins
// these lines again (content), so a key press never words the decision
// anew.
type resultLayout struct {
	summary  []string
	intro    []string
	sections []report.Section
	worded   map[string][]string
	w        int
	trace    bool
}

// layoutResult lays the session's decision out for a view h lines high,
// w cells wide: the summary fits h less the line that says the details
// follow.
func layoutResult(c *shared, w, h int, trace bool) resultLayout {
	st := c.Styles
	d := c.session.decision
	var l resultLayout
	hint := notesHint
	if w < 60 {
		hint = "press n" // one line at 40 columns, so a flip keeps its row
	}
	l.summary = report.SummaryWith(c.KB, d, st, w, max(h-1, 3), report.SummaryOptions{NoStackLine: true, NotesHint: hint})
	if diff := changedAnswers(c.KB, c.session.answers); diff != "" {
		l.intro = wrapStyled("Answers changed from the defaults: "+diff, w, 0, 2, st.Muted)
	} else {
		l.intro = []string{st.Muted.Render("All answers at their defaults.")}
	}
	l.sections = report.SectionTitles(c.KB, d, report.CardOptions{Trace: trace})
	l.worded, l.w, l.trace = map[string][]string{}, w, trace
	return l
}

// lines are section id's lines, worded once, two cells in under its title.
func (l *resultLayout) lines(c *shared, id string) []string {
	if ls, ok := l.worded[id]; ok {
		return ls
	}
	ls := trimBlank(report.SectionLines(c.KB, c.session.decision, id, c.Styles, max(l.w-2, 10), report.CardOptions{Trace: l.trace}))
	for i, line := range ls {
		if line != "" {
			ls[i] = "  " + line
		}
	}
	l.worded[id] = ls
	return ls
}

// content joins the summary, the section titles and the open sections'
// lines; it returns the line each section's title is on.
func (l *resultLayout) content(c *shared, w int, open map[string]bool, focus int, changed map[string]bool) (string, []int) {
	st := c.Styles
	out := make([]string, 0, len(l.summary)+len(l.sections)*2+8)
	out = append(out, l.summary...)
	out = append(out, st.Muted.Render(detailsHint(l.trace, w)))
	out = append(out, "")
	out = append(out, l.intro...)
	offsets := make([]int, len(l.sections))
	for i, sec := range l.sections {
		offsets[i] = len(out)
		mark := "▸ "
		if open[sec.ID] {
			mark = "▾ "
		}
		title := mark + sec.Title
		if sec.Layer != "" && changed[sec.Layer] && strings.HasSuffix(sec.ID, "/why") {
			title += " « changed"
		}
		title = truncate(title, w)
		if i == focus {
			out = append(out, st.Selected.Render(title))
		} else {
			out = append(out, st.Heading.Render(title))
		}
		if open[sec.ID] {
			out = append(out, l.lines(c, sec.ID)...)
			out = append(out, "")
		}
	}
	keys := "e: edit one answer · s: save answers · x: export memo · m: deployable files · a: all questions"
	if screen.VisibleWidth(keys) > w {
		keys = "e: edit answer · s: save · x: memo · m: deployable files · a: all questions"
	}
	out = append(out, "", st.Muted.Render(truncate(keys, w)))
	return strings.Join(out, "\n"), offsets
}

// detailsHint is the line under the summary: the keys of the sections
// below, copy and the plain launch view, and the trace view's way in or
// (in the trace view) out, the longest wording that fits w.
func detailsHint(trace bool, w int) string {
	hints := []string{
		"Details below: tab moves, enter opens, o opens all · t trace view · c copy the launch command, l plain launch · m deployable files · p pin as A, d A beside B",
		"Details below: tab, enter opens, o all · t trace · c copy, l plain launch · m files · p pin, d A/B",
		"tab/enter details · o all · t trace · c copy · l plain · m files · p pin · d A/B",
		"tab/enter · t trace · c copy · l plain · m files · p pin",
		"tab/enter · c copy · l plain · p pin",
	}
	if trace {
		hints = []string{
			"Trace view (rule ids and scores): t again leaves it · tab moves, enter opens, o opens all · c copy, l plain launch · p pin, d A/B",
			"Trace view: t again leaves it · tab moves, enter opens, o all · c copy, l plain · p pin",
			"Trace view: t leaves it · tab, enter opens, o all · c copy, l plain",
			"Trace: t leaves · tab/enter · c copy · l plain",
			"t leaves the trace · tab/enter · c copy",
		}
	}
	for _, h := range hints {
		if screen.VisibleWidth(h) <= w {
			return h
		}
	}
	return truncate(hints[len(hints)-1], w)
}

func trimBlank(ls []string) []string {
	for len(ls) > 0 && ls[0] == "" {
		ls = ls[1:]
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
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
