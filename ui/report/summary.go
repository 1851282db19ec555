package report

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// SummaryOptions say what a surface adds to or takes from the summary.
type SummaryOptions struct {
	// NotesHint ends the course-notes line: the key that opens them in
	// the app, where to find them in the command line's text.
	NotesHint string
	// NoStackLine leaves the stack line out, for a surface that shows it
	// in its own header.
	NoStackLine bool
	// Whole keeps every why line whole (wrapped, never cut), for the
	// command line's reader, who scrolls.
	Whole bool
	// Trace adds what each assumption rests on (rule ids), for the trace
	// view.
	Trace bool
}

// CLINotesHint points the command line's reader at the command that lists
// the course-notes points gone for the stack's products.
func CLINotesHint(kb *knowledge.KB, d decide.Decision) string {
	return "run 'stackpick kb changes " + strings.Join(placedProducts(d), " ") + "'"
}

// whole is a line budget no summary part reaches.
const whole = 1 << 20

// Summary is the decision on one screen, at most w cells wide and h lines
// high: a warning first when the engine does not fit the fleet, the stack
// line, the topology, the why of each layer, the close calls, the
// assumptions, the three nearest flips and a line counting the
// course-notes points that changed. When it does not fit, it gives up
// detail in a fixed order (wrapped lines first, then the topology and the
// flips, then the rest) and never a layer's pick; rows left over go back
// to the flips, then the why lines. No rule ids, no scores.
func Summary(kb *knowledge.KB, d decide.Decision, st Styles, w, h int) []string {
	return SummaryWith(kb, d, st, w, h, SummaryOptions{NotesHint: CLINotesHint(kb, d)})
}

// SummaryWith is Summary with a surface's options.
func SummaryWith(kb *knowledge.KB, d decide.Decision, st Styles, w, h int, opt SummaryOptions) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	s := summary{kb: kb, d: d, st: st, w: w, opt: opt,
		stack: !opt.NoStackLine, topo: true, gaps: true, notes: true,
		whyMax: whole, ccMax: 2, assumeMax: 2, assumeEach: true, flips: 3, fitMax: 2}
	s.label = 0
	if w >= 60 {
		s.label = 14
	}
	s.flipList = nearestFlips(kb, d, 3)
	s.fit = FitWarning(d)
	if opt.Whole {
		s.ccMax, s.assumeMax, s.fitMax = whole, whole, 0
		return s.lines()
	}
	// Each step gives up a little; the picks are never given up.
	steps := []func(){
		func() { s.whyMax = 3 },
		func() { s.whyMax = 2 },
		func() { s.assumeMax = 1 },
		func() { s.ccMax = 1 },
		func() { s.gaps = false },
		func() { s.flips = 2 },
		func() { s.whyMax = 1 },
		func() { s.topo = false },
		func() { s.flips = 1 },
		func() { s.assumeEach = false },
		func() { s.fitMax = 1 },
		func() { s.flips = 0 },
		func() { s.ccMax = 0 },
		func() { s.notes = false },
		func() { s.assumeMax = 0 },
		func() { s.stack = false },
		func() { s.whyMax = 0 },
	}
	out := s.lines()
	for _, step := range steps {
		if len(out) <= h {
			break
		}
		step()
		out = s.lines()
	}
	// Rows left over go back to the flips, then to the why lines, a line
	// at a time, as long as the whole still fits.
	grow := func(v *int, most int) {
		for *v < most {
			*v++
			if next := s.lines(); len(next) <= h {
				out = next
				continue
			}
			*v--
			return
		}
	}
	if len(out) < h {
		grow(&s.flips, min(3, len(s.flipList)))
		if s.whyMax > 0 {
			grow(&s.whyMax, s.longestWhy())
		}
	}
	if len(out) > h {
		out = out[:h] // a height below three lines: the first picks
	}
	return out
}

// longestWhy is how many lines the longest why line takes whole.
func (s *summary) longestWhy() int {
	keep := s.whyMax
	defer func() { s.whyMax = keep }()
	s.whyMax = whole
	n := 1
	for _, lp := range s.d.Layers {
		n = max(n, len(s.whyLines(lp)))
	}
	return n
}

// FitWarning is the line that leads the summary when the engine cannot
// be sized on the fleet: the engine card's "does not fit" note. "" when it
// fits, or when the engine is not one stackpick sizes.
func FitWarning(d decide.Decision) string {
	ec := d.EngineConfig
	if ec == nil || ec.Covered || ec.Model == "" || ec.Note == "" {
		return ""
	}
	return "Will not run: " + strings.TrimPrefix(ec.Note, "--model: ")
}

type summary struct {
	kb  *knowledge.KB
	d   decide.Decision
	st  Styles
	w   int
	opt SummaryOptions

	label                    int // width of the label column (0: labels inline)
	stack, topo, gaps, notes bool
	whyMax, ccMax, assumeMax int // lines each may take (0: name only / none)
	assumeEach               bool
	flips                    int
	flipList                 []flipLine
	fit                      string // the engine's does-not-fit warning
	fitMax                   int    // lines it may take (0: all; the engine card has it whole)
	whyCache                 map[whyKey][]string
}

func (s *summary) lines() []string {
	var out []string
	gap := func() {
		if s.gaps && len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
	}
	if s.fit != "" {
		warn := func(t string) []string {
			return WrapSpans([]Span{Styled("!", &s.st.Bad), Plain(" "), Styled(t, &s.st.Warn)}, s.w, 0, 2)
		}
		lines := warn(s.fit)
		if s.fitMax > 0 && len(lines) > s.fitMax {
			// A clause cut that leaves less than half a line says less
			// than the line cut short.
			if cut := clauseCut(s.fit, func(t string) bool { lines = warn(t); return len(lines) <= s.fitMax }); cut == "" || ansi.StringWidth(cut) < s.w/2 {
				lines = s.clip(warn(s.fit), s.fitMax)
			}
		}
		out = append(out, lines...)
		gap()
	}
	if s.stack {
		out = append(out, WrapSpans([]Span{Styled("Stack:", &s.st.Muted), Plain(" "), Styled(StackLine(s.kb, s.d), &s.st.Pick)}, s.w, 0, 7)...)
	}
	if s.topo {
		gap()
		out = append(out, TopologyLines(s.kb, s.d, s.st, s.w)...)
	}
	gap()
	for _, lp := range s.d.Layers {
		out = append(out, s.whyLines(lp)...)
	}
	if s.ccMax > 0 {
		var cc []string
		for _, lp := range s.d.Layers {
			if lp.CloseCall == nil {
				continue
			}
			kind, title, _ := strings.Cut(CloseCallTitle(s.kb, lp), ": ")
			text := title + ". " + closeCallSettled(lp) + CloseCallTip(s.kb, lp)
			cc = append(cc, s.labelled(kind, text, s.ccMax, &s.st.Warn)...)
		}
		if len(cc) > 0 {
			gap()
			out = append(out, cc...)
		}
	}
	if s.assumeMax > 0 && len(s.d.Assumptions) > 0 {
		gap()
		if s.assumeEach {
			for i, a := range s.d.Assumptions {
				label := ""
				if i == 0 {
					label = "Assumed"
				}
				text := AssumptionWords(a)
				if s.opt.Trace {
					text = AssumptionLine(a)
				}
				out = append(out, s.labelled(label, text, s.assumeMax, &s.st.Warn)...)
			}
		} else {
			keys := make([]string, len(s.d.Assumptions))
			for i, a := range s.d.Assumptions {
				keys[i] = a.Key + " = " + a.Value
			}
			out = append(out, s.labelled("Assumed", strings.Join(keys, ", ")+" (defaults to confirm)", 1, &s.st.Warn)...)
		}
	}
	if s.flips > 0 && len(s.flipList) > 0 {
		gap()
		for i, f := range s.flipList[:min(s.flips, len(s.flipList))] {
			label, room := "", s.w-s.label
			if i == 0 {
				label = "Nearest flips"
			}
			if s.label == 0 {
				// Inline labels on a narrow screen: the short one.
				room = s.w - 2
				if i == 0 {
					label, room = "Flips", s.w-len("Flips: ")
				}
			}
			out = append(out, s.labelled(label, flipText(f, room), max(s.ccMax, 1), &s.st.Key)...)
		}
	}
	if s.notes {
		line := CourseNotesLine(s.kb, s.d, s.opt.NotesHint)
		if flags, notes := CourseNotesGone(s.kb, s.d); s.w < 60 && flags+notes > 0 {
			line = fmt.Sprintf("%d course-notes points changed", flags+notes)
			if s.opt.NotesHint != "" {
				line += ": " + s.opt.NotesHint
			}
		}
		if line != "" {
			gap()
			out = append(out, s.clip(WrapStyled(line, s.w, 0, 2, s.st.Muted), max(2, s.assumeMax))...)
		}
	}
	return out
}

// SummaryPick is what the summary says beside a layer's name: its pick
// with its complements, or for a layer left empty only its state ("not
// needed", "nothing fits"), since the layer's name is already on the line.
func SummaryPick(kb *knowledge.KB, lp decide.LayerPick) string {
	if lp.Pick == knowledge.None && len(lp.Also) == 0 {
		switch lp.State {
		case decide.StateNotNeeded:
			return "not needed"
		case decide.StateNothingFits:
			return "nothing fits"
		}
	}
	return StateText(kb, lp)
}

// whyLines is a layer's line: its name, its pick or state, and why, in at
// most whyMax lines (0: the name and the pick alone, on one line).
func (s *summary) whyLines(lp decide.LayerPick) []string {
	// Each shrinking or growing step lays the summary out again: a layer's
	// lines at a budget are worded once.
	key := whyKey{lp.Layer, s.whyMax}
	if ls, ok := s.whyCache[key]; ok {
		return ls
	}
	ls := s.wordWhy(lp)
	if s.whyCache == nil {
		s.whyCache = map[whyKey][]string{}
	}
	s.whyCache[key] = ls
	return ls
}

type whyKey struct {
	layer string
	max   int
}

func (s *summary) wordWhy(lp decide.LayerPick) []string {
	name := s.kb.Layer(lp.Layer).Name
	pick := Styled(SummaryPick(s.kb, lp), &s.st.Pick)
	if lp.State == decide.StateNothingFits {
		pick = Styled(SummaryPick(s.kb, lp), &s.st.Warn)
	}
	if s.whyMax == 0 {
		if s.label == 0 {
			return []string{Truncate(s.st.Layer.Render(name+": ")+joinSpans([]Span{pick}), s.w)}
		}
		return []string{Truncate(s.st.Layer.Render(padTo(name, s.label))+joinSpans([]Span{pick}), s.w)}
	}
	why := WhyLine(s.kb, s.d, lp)
	if lp.State == decide.StateNotNeeded {
		why = strings.TrimPrefix(strings.TrimPrefix(why, "Not needed: "), "Not needed. ") // the state says it
	}
	if lp.State == decide.StateNothingFits {
		why = strings.TrimPrefix(why, "Nothing fits: ")
	}
	lines := s.labelledSpans(name, []Span{pick, Plain(" · " + why)}, whole, &s.st.Layer)
	if len(lines) <= s.whyMax {
		return lines
	}
	// Too long for its lines: cut after the last clause that fits (a
	// head longer than the lines hold cannot).
	room := s.whyMax * max(s.w-s.label, 1)
	if cut := clauseCut(why, func(t string) bool {
		if ansi.StringWidth(t) > room {
			return false
		}
		lines = s.labelledSpans(name, []Span{pick, Plain(" · " + t)}, whole, &s.st.Layer)
		return len(lines) <= s.whyMax
	}); cut != "" {
		return lines
	}
	return s.labelledSpans(name, []Span{pick, Plain(" · " + why)}, s.whyMax, &s.st.Layer)
}

// clauseCut is the longest head of text cut after a clause (". ", "; ",
// ": ", ", "), marked " …", that fits says fits; "" when none does. It
// never cuts inside a word or a clause, and closes a parenthesis it cuts.
func clauseCut(text string, fits func(string) bool) string {
	for i := len(text) - 1; i > 0; i-- {
		if !strings.ContainsRune(".;:,", rune(text[i-1])) || text[i] != ' ' {
			continue
		}
		// Inside a parenthesis the cut closes it: "(a, b …)".
		closing := strings.Repeat(")", max(0, strings.Count(text[:i], "(")-strings.Count(text[:i], ")")))
		if cut := strings.TrimRight(text[:i-1], " ") + " …" + closing; fits(cut) {
			return cut
		}
	}
	return ""
}

// labelled is text under a label in the label column ("Assumed",
// "Nearest flips"), in at most n lines.
func (s *summary) labelled(label, text string, n int, style *lipgloss.Style) []string {
	return s.labelledSpans(label, []Span{Plain(text)}, n, style)
}

// labelledSpans wraps spans beside a label: in the label column at 60
// columns and more, else inline before them ("Engine: vLLM · …").
func (s *summary) labelledSpans(label string, spans []Span, n int, style *lipgloss.Style) []string {
	if s.label == 0 {
		if label != "" {
			spans = append([]Span{Styled(label+":", style), Plain(" ")}, spans...)
			return s.clip(WrapSpans(spans, s.w, 0, 2), n)
		}
		return s.clip(WrapSpans(spans, s.w, 2, 0), n)
	}
	lines := s.clip(WrapSpans(spans, s.w, s.label, 0), n)
	if label != "" && len(lines) > 0 {
		// The wrapper indents the first line with spaces: the label takes
		// their place, so it keeps its column.
		lines[0] = style.Render(padTo(label, s.label)) + strings.TrimPrefix(lines[0], strings.Repeat(" ", s.label))
	}
	return lines
}

// clip keeps at most n lines, marking a cut with "…".
func (s *summary) clip(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	lines = slices.Clone(lines[:n])
	last := lines[n-1]
	if ansi.StringWidth(last)+2 <= s.w {
		lines[n-1] = last + " …"
	} else {
		lines[n-1] = ansi.Truncate(last, s.w-1, "") + "…"
	}
	return lines
}

// padTo pads a label to its column, n cells wide with one space at least
// after it.
func padTo(s string, n int) string {
	if w := ansi.StringWidth(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s + " "
}

// closeCallSettled says what settled a tie, without the criterion's id.
func closeCallSettled(lp decide.LayerPick) string {
	if tb := lp.CloseCall.TieBreak; tb != nil && tb.Argument != "" {
		return "Settled by the declared tie-break: " + strings.TrimSuffix(tb.Argument, ".") + ". "
	}
	return ""
}

// flipLine is one of the nearest flips: the answer change and the
// layers whose pick it changes, each with its new pick.
type flipLine struct {
	g     FlipGroup
	moved string // "orchestrator: SGLang router"
	short string // the same picks without the layers' names
}

// flipText is a flip in room cells: the answer change ⇒ the layers it
// moves. When it does not fit, the answer side gives way first: its last
// values ("vision | …"), then its "(default)" mark and old value
// ("other_model_types → vision | …"); on a narrow screen the result then
// drops the layers' names ("⇒ Dynamo-Triton"). When even that is too
// long, the whole flip wraps.
func flipText(f flipLine, room int) string {
	full := FlipChange(f.g) + " ⇒ " + f.moved
	if ansi.StringWidth(full) <= room {
		return full
	}
	key := f.g.Answer
	if !f.g.Stated {
		key += " (default)"
	}
	forms := []struct{ head, result string }{
		{key + ": " + f.g.From + " → ", " ⇒ " + f.moved},
		{f.g.Answer + " → ", " ⇒ " + f.moved},
		{f.g.Answer + " → ", " ⇒ " + f.short},
	}
	for i, form := range forms {
		left := room - ansi.StringWidth(form.head+form.result)
		least := 1
		if i == len(forms)-1 {
			least = 0 // the values all given up: "answer → … ⇒ pick"
		}
		for n := len(f.g.To); n >= least; n-- {
			to := strings.Join(f.g.To[:n], " | ")
			switch {
			case n == 0:
				to = "…"
			case n < len(f.g.To):
				to += " | …"
			}
			if ansi.StringWidth(to) <= left {
				return form.head + to + form.result
			}
		}
	}
	// Last, the answer's name gives way: the result stays whole.
	if result := " ⇒ " + f.short; ansi.StringWidth(result)+6 <= room {
		return Truncate(f.g.Answer, room-ansi.StringWidth(result)-4) + " → …" + result
	}
	return full
}

// flipPicks is FlipMoves without the layers' names, for a narrow screen:
// "Dynamo-Triton", "SGLang · no orchestrator".
func flipPicks(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, g FlipGroup) string {
	if len(g.Stack) == 0 {
		return Outcome(kb, lp, g.Pick, g.Also)
	}
	var parts []string
	for _, p := range g.Stack {
		for _, cur := range d.Layers {
			if cur.Layer == p.Layer && (cur.Pick != p.Pick || strings.Join(cur.Also, "+") != strings.Join(p.Also, "+")) {
				parts = append(parts, PickText(kb, decide.LayerPick{Layer: p.Layer, Pick: p.Pick, Also: p.Also}))
			}
		}
	}
	if len(parts) == 0 {
		return PlacedLine(kb, g.Stack)
	}
	return strings.Join(parts, " · ")
}

// FlipMoves names the layers a flip group changes, each with its new pick
// ("orchestrator: SGLang router", "engine: SGLang · orchestrator: none"),
// against the decision's own picks.
func FlipMoves(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, g FlipGroup) string {
	var parts []string
	name := func(layer string) string { return strings.ToLower(kb.Layer(layer).Name) }
	pickOf := func(layer, pick string, also []string) string {
		if pick == knowledge.None && len(also) == 0 {
			return "none"
		}
		return PickText(kb, decide.LayerPick{Layer: layer, Pick: pick, Also: also})
	}
	if len(g.Stack) == 0 {
		return name(lp.Layer) + ": " + Outcome(kb, lp, g.Pick, g.Also)
	}
	for _, p := range g.Stack {
		for _, cur := range d.Layers {
			if cur.Layer == p.Layer && (cur.Pick != p.Pick || strings.Join(cur.Also, "+") != strings.Join(p.Also, "+")) {
				parts = append(parts, name(p.Layer)+": "+pickOf(p.Layer, p.Pick, p.Also))
			}
		}
	}
	if len(parts) == 0 {
		return PlacedLine(kb, g.Stack)
	}
	return strings.Join(parts, " · ")
}

// nearestFlips are the n nearest single-answer changes that move the
// stack, over every layer: decide ranks each layer's flips, and the
// nearest of all are the smallest distance first (stated answers and
// answer changes before hardware changes at equal distance, then layer
// order). Changes of one answer to the same stack read as one.
func nearestFlips(kb *knowledge.KB, d decide.Decision, n int) []flipLine {
	type cand struct {
		f     decide.Flip
		layer int
		order int
		lp    decide.LayerPick
	}
	var all []cand
	for li, lp := range d.Layers {
		for i, f := range lp.Flips {
			all = append(all, cand{f: f, layer: li, order: i, lp: lp})
		}
	}
	slices.SortStableFunc(all, func(a, b cand) int {
		if a.f.Hardware != b.f.Hardware {
			if a.f.Hardware {
				return 1
			}
			return -1
		}
		if a.f.Distance != b.f.Distance {
			return a.f.Distance - b.f.Distance
		}
		if a.layer != b.layer {
			return a.layer - b.layer
		}
		return a.order - b.order
	})
	type group struct {
		key string
		g   FlipGroup
		lp  decide.LayerPick
	}
	var groups []*group
	for _, c := range all {
		stack := placedKey(c.f.Stack)
		if len(c.f.Stack) == 0 {
			stack = c.lp.Layer + "=" + c.f.Pick + "+" + strings.Join(c.f.Also, "+")
		}
		key := c.f.Answer + "|" + stack
		found := false
		for _, g := range groups {
			if g.key == key {
				if !slices.Contains(g.g.To, c.f.To) {
					g.g.To = append(g.g.To, c.f.To)
				}
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, &group{key: key, lp: c.lp, g: FlipGroup{Answer: c.f.Answer, From: c.f.From, Pick: c.f.Pick, Also: c.f.Also, To: []string{c.f.To}, Stack: c.f.Stack, Stated: c.f.Stated, Hardware: c.f.Hardware}})
		}
	}
	var out []flipLine
	for _, g := range groups {
		if len(out) == n {
			break
		}
		out = append(out, flipLine{g: g.g, moved: FlipMoves(kb, d, g.lp, g.g), short: flipPicks(kb, d, g.lp, g.g)})
	}
	return out
}

// ShortStackLine is the stack line in at most w cells, for a header: the
// longest of "Stack: vLLM · no model server · llm-d + KServe", the line
// without its label, then tighter separators, then empty layers as "–",
// then the complements left off (the details name them), so every
// layer's pick stays on screen down to 40 columns and below.
func ShortStackLine(kb *knowledge.KB, d decide.Decision, w int) string {
	full := StackLine(kb, d)
	tight := func(s string) string {
		return strings.NewReplacer(" · ", "·", " + ", "+").Replace(s)
	}
	var dash, bare []string
	for _, lp := range d.Layers {
		switch {
		case lp.Pick == knowledge.None && len(lp.Also) == 0:
			dash = append(dash, "–")
			bare = append(bare, "–")
		case lp.Pick == knowledge.None:
			dash = append(dash, tight(PickText(kb, lp)))
			bare = append(bare, kb.ProductName(lp.Also[0]))
		default:
			dash = append(dash, tight(PickText(kb, lp)))
			bare = append(bare, kb.ChoiceName(lp.Layer, lp.Pick))
		}
	}
	for _, s := range []string{"Stack: " + full, full, tight(full), strings.Join(dash, " · "), strings.Join(dash, "·"), strings.Join(bare, "·")} {
		if ansi.StringWidth(s) <= w {
			return s
		}
	}
	return Truncate(strings.Join(bare, "·"), w)
}
