package report

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// SideBySideWidth is the width from which DiffLines sets A and B in two
// columns; below it they are stacked.
const SideBySideWidth = 100

// DiffJSON writes the diff as indented JSON (schema stackpick.diff/v1).
func DiffJSON(w io.Writer, dd DecisionDiff) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(dd)
}

// DiffText is DiffLines joined, for the command line.
func DiffText(dd DecisionDiff, st Styles, w int) string {
	return strings.Join(DiffLines(dd, st, w), "\n") + "\n"
}

// DiffLines words a diff for a terminal w cells wide: the two stacks, the
// answers that differ, every layer that moved with what held in one
// decision and not the other, the layers that did not move, and the
// engine settings that changed. From SideBySideWidth on, A and B stand in
// two columns; narrower, one under the other. No line is wider than w.
func DiffLines(dd DecisionDiff, st Styles, w int) []string {
	w = max(w, 20)
	side := w >= SideBySideWidth
	colW := (w - 3) / 2
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	heading := func(s string) {
		if len(out) > 0 {
			add("")
		}
		add(WrapStyled(s, w, 0, 2, st.Heading)...)
	}
	aHead := []Span{Styled("A", &st.Key), Plain(" · " + dd.A.Label)}
	bHead := []Span{Styled("B", &st.Key), Plain(" · " + dd.B.Label)}
	if side {
		add(columns(st, WrapSpans(aHead, colW, 0, 4), WrapSpans(bHead, colW, 0, 4), colW)...)
		add(columns(st, WrapStyled(dd.A.Stack, colW, 0, 2, st.Pick), WrapStyled(dd.B.Stack, colW, 0, 2, st.Pick), colW)...)
	} else {
		add(WrapSpans(aHead, w, 0, 4)...)
		add(WrapStyled(dd.A.Stack, w, 2, 2, st.Pick)...)
		add(WrapSpans(bHead, w, 0, 4)...)
		add(WrapStyled(dd.B.Stack, w, 2, 2, st.Pick)...)
	}
	if dd.Identical {
		add("")
		add(WrapStyled("A and B are the same decision: the same answers, the same stack and the same engine settings.", w, 0, 0, st.Good)...)
		return out
	}

	heading(countTitle("Answers that differ", len(dd.Answers)))
	if len(dd.Answers) == 0 {
		add(WrapStyled("None: the answers are the same.", w, 2, 0, st.Muted)...)
	}
	for _, a := range dd.Answers {
		if side {
			add(WrapSpans([]Span{Styled(a.Key, &st.Key), Plain(" "), Styled(a.Question, &st.Muted)}, w, 2, 2)...)
			add(columns(st,
				WrapSpans(answerSpans(st, "A", a.A, a.AStated), colW, 4, 2),
				WrapSpans(answerSpans(st, "B", a.B, a.BStated), colW, 4, 2), colW)...)
			continue
		}
		spans := []Span{Styled(a.Key, &st.Key), Plain(": ")}
		spans = append(spans, valueSpans(st, a.A, a.AStated)...)
		spans = append(spans, Plain(" → "))
		spans = append(spans, valueSpans(st, a.B, a.BStated)...)
		add(WrapSpans(spans, w, 2, 2)...)
		add(WrapStyled(a.Question, w, 4, 0, st.Muted)...)
	}

	moved := dd.Moved()
	heading(countTitle("What moved", len(moved)))
	if len(moved) == 0 {
		add(WrapStyled("No pick moved: both decisions choose "+dd.B.Stack+".", w, 2, 0, st.Muted)...)
	}
	for _, l := range moved {
		add("")
		add(WrapSpans([]Span{Styled("── "+strings.ToUpper(l.Name)+" ", &st.Layer), Plain(l.A), Plain(" → "), Styled(l.B, &st.Changed)}, w, 0, 3)...)
		if s := fareText(l); s != "" {
			add(WrapSpans([]Span{Plain(s)}, w, 2, 0)...)
		}
		if side {
			add(columns(st, diffWhyLines(st, "Held in A only", "B", l.OnlyA, colW), diffWhyLines(st, "Holds in B only", "A", l.OnlyB, colW), colW)...)
		} else {
			add(diffWhyLines(st, "Held in A only", "B", l.OnlyA, w)...)
			add(diffWhyLines(st, "Holds in B only", "A", l.OnlyB, w)...)
		}
	}
	var same []string
	for _, l := range dd.Layers {
		if len(l.Moved) == 0 {
			same = append(same, l.Name+": "+l.A)
		}
	}
	if len(same) > 0 && len(moved) > 0 {
		add("")
		add(WrapSpans([]Span{Styled("Unchanged: ", &st.Muted), Plain(strings.Join(same, "; "))}, w, 0, 2)...)
	}

	heading(countTitle("Engine settings that changed", len(dd.Engine)))
	if len(dd.Engine) == 0 {
		add(WrapStyled("None.", w, 2, 0, st.Muted)...)
	}
	for _, s := range dd.Engine {
		if side {
			add(columns(st,
				WrapSpans([]Span{Styled(s.Setting, &st.Key), Plain(": " + s.A)}, colW, 2, 4),
				WrapSpans([]Span{Styled(s.Setting, &st.Key), Plain(": "), Styled(s.B, &st.Changed)}, colW, 2, 4), colW)...)
			continue
		}
		add(WrapSpans([]Span{Styled(s.Setting, &st.Key), Plain(": " + s.A + " → "), Styled(s.B, &st.Changed)}, w, 2, 4)...)
	}
	return out
}

// countTitle is "Answers that differ (2)".
func countTitle(s string, n int) string {
	return s + " (" + strconv.Itoa(n) + ")"
}

// valueSpans is an answer's value, marked "(default)" when it was not
// stated.
func valueSpans(st Styles, v string, stated bool) []Span {
	if stated {
		return []Span{Plain(v)}
	}
	return []Span{Plain(v + " "), Styled("(default)", &st.Warn)}
}

func answerSpans(st Styles, side, v string, stated bool) []Span {
	return append([]Span{Styled(side, &st.Key), Plain(": ")}, valueSpans(st, v, stated)...)
}

// fareText says how each side's pick fared in the other decision: "In B,
// llm-d is excluded. In A, NVIDIA Dynamo lost on the arguments."
func fareText(l LayerDiff) string {
	var parts []string
	aPick, bPick := pickOf(l.A), pickOf(l.B)
	if l.AInB != "" {
		parts = append(parts, "In B, "+aPick+": "+l.AInB+".")
	}
	if l.BInA != "" {
		parts = append(parts, "In A, "+bPick+": "+l.BInA+".")
	}
	return strings.Join(parts, " ")
}

// pickOf is the pick's name from a layer's outcome text ("llm-d + KServe"
// → "llm-d", "no orchestrator · nothing fits" → "no orchestrator").
func pickOf(outcome string) string {
	s, _, _ := strings.Cut(outcome, " · ")
	s, _, _ = strings.Cut(s, " + ")
	return s
}

// whyLines lists the arguments that hold on one side only, under label.
func diffWhyLines(st Styles, label, other string, items []WhyItem, w int) []string {
	out := WrapStyled(label, w, 2, 2, st.Title)
	if len(items) == 0 {
		return append(out, WrapStyled("nothing of its own", w, 4, 0, st.Muted)...)
	}
	for _, it := range items {
		mark, ms := whyMark(st, it.Kind)
		spans := []Span{Styled(mark, ms), Plain(" ")}
		if h := WhyHead(it); h != "" {
			spans = append(spans, Styled(h+":", &st.Title), Plain(" "))
		}
		spans = append(spans, Plain(it.Text))
		out = append(out, WrapSpans(spans, w, 4, 2)...)
		if it.Other != "" {
			out = append(out, WrapStyled("in "+other+", "+it.Other, w, 6, 2, st.Muted)...)
		}
	}
	return out
}

// WhyHead names what a why item is about: "for llm-d", "llm-d excluded",
// "" for the layer's close call or conflict (its text says it).
func WhyHead(it WhyItem) string {
	switch it.Kind {
	case WhyFor:
		return "for " + it.ProductName
	case WhyAgainst:
		return "against " + it.ProductName
	case WhyExcluded:
		return it.ProductName + " excluded"
	case WhyUnfit:
		return it.ProductName + " does not fit"
	case WhyTieBreak:
		return "settled by the declared tie-break"
	case WhyConflict:
		return "nothing fits"
	}
	return ""
}

// whyMark is the sign before a why item: + for, − against, = a close
// call or its tie-break, ! a conflict.
func whyMark(st Styles, kind string) (string, *lipgloss.Style) {
	switch kind {
	case WhyFor:
		return "+", &st.Good
	case WhyCloseCall, WhyTieBreak:
		return "=", &st.Warn
	case WhyConflict:
		return "!", &st.Bad
	}
	return "−", &st.Bad
}

// columns sets left and right side by side, left padded to colW, a rule
// between them.
func columns(st Styles, left, right []string, colW int) []string {
	n := max(len(left), len(right))
	out := make([]string, 0, n)
	bar := st.Border.Render("│")
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, strings.TrimRight(PadRight(l, colW)+" "+bar+" "+r, " "))
	}
	return out
}
