package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Section is one detail of a decision that opens and closes in the app and
// prints under its title on the command line: a layer's why, its
// alternatives, its risks, the engine's launch command and arithmetic, the
// course-notes flags that are gone, and (in the trace view) the scores.
type Section struct {
	// ID is stable across renders ("engine/why", "course-notes").
	ID    string
	Layer string // "" for a section of the whole decision
	Title string
	Lines []string
}

// CardOptions say how the details are worded. Trace adds what the reader
// of a decision does not need and its auditor does: rule ids, weights and
// scores.
type CardOptions struct{ Trace bool }

// LayerCard is one layer's pick defended, as lines at most w cells wide:
// the pick and its complements, then every section of the layer under its
// heading (why, alternatives and what would change the pick, the launch
// command, the risks), worded for a reader: no rule ids or scores. changed
// marks a pick the last answer moved.
func LayerCard(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, w int, changed bool) []string {
	pick := st.Pick.Render(Truncate(StateText(kb, lp), w-2))
	if changed {
		pick += st.Changed.Render(" « changed")
	}
	body := []string{Truncate(pick, w)}
	for _, sec := range LayerSections(kb, d, lp, st, w, CardOptions{}) {
		body = append(body, "", st.Heading.Render(Truncate(sec.Title, w)))
		body = append(body, sec.Lines...)
	}
	return body
}

// LayerSections are one layer's details as sections, lines at most w
// cells wide: why (the pick's role, its reasons, what it won despite, a
// close call), the alternatives with their arguments and what would change
// the pick, the engine's launch command and arithmetic, and the risks.
func LayerSections(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, w int, opt CardOptions) []Section {
	var out []Section
	for _, sp := range layerSpecs(kb, d, lp, opt) {
		out = append(out, sp.section(st, w))
	}
	return out
}

// sectionSpec is a section's title, and how to word its lines: the app
// words a section only when it is opened.
type sectionSpec struct {
	Section
	lines func(st Styles, w int) []string
}

func (sp sectionSpec) section(st Styles, w int) Section {
	s := sp.Section
	s.Lines = sp.lines(st, w)
	return s
}

func layerSpecs(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, opt CardOptions) []sectionSpec {
	name := kb.Layer(lp.Layer).Name
	out := []sectionSpec{{Section{ID: lp.Layer + "/why", Layer: lp.Layer, Title: name + " · " + whyTitle(kb, lp)}, func(st Styles, w int) []string { return whyLines(kb, d, lp, st, w, opt) }}}
	if len(lp.Alternatives) > 0 || len(lp.Flips) > 0 {
		out = append(out, sectionSpec{Section{ID: lp.Layer + "/alternatives", Layer: lp.Layer, Title: fmt.Sprintf("%s · alternatives (%d) and what would change the pick", name, len(lp.Alternatives))}, func(st Styles, w int) []string { return altLines(kb, d, lp, st, w, opt) }})
	}
	if lp.Layer == knowledge.LayerEngine && d.EngineConfig != nil {
		title := name + " · launch command and its arithmetic"
		if !d.EngineConfig.Covered {
			title = name + " · launch command"
		}
		out = append(out, sectionSpec{Section{ID: lp.Layer + "/launch", Layer: lp.Layer, Title: title}, func(st Styles, w int) []string { return EngineCard(d.EngineConfig, st, w) }})
	}
	n := 0
	for _, r := range d.Risks {
		if r.Layer == lp.Layer {
			n++
		}
	}
	if n > 0 {
		out = append(out, sectionSpec{Section{ID: lp.Layer + "/risks", Layer: lp.Layer, Title: fmt.Sprintf("%s · risks (%d)", name, n)}, func(st Styles, w int) []string { return riskLines(d, lp, st, w, opt) }})
	}
	return out
}

func riskLines(d decide.Decision, lp decide.LayerPick, st Styles, w int, opt CardOptions) []string {
	var risks []string
	for _, r := range d.Risks {
		if r.Layer != lp.Layer {
			continue
		}
		risks = append(risks, WrapSpans([]Span{Styled("!", &st.Warn), Plain(" " + r.Text)}, w, 0, 2)...)
		if r.Watch != "" {
			risks = append(risks, WrapStyled("watch: "+r.Watch, w, 2, 2, st.Muted)...)
		}
		risks = append(risks, WrapStyled(SourceText(r.Source, r.AsOf), w, 2, 2, st.Muted)...)
		if opt.Trace && r.ID != "" {
			risks = append(risks, WrapStyled("trace: "+r.ID, w, 2, 2, st.RuleID)...)
		}
	}
	return risks
}

// whyTitle is "why vLLM", "why it is not needed", "why nothing fits".
func whyTitle(kb *knowledge.KB, lp decide.LayerPick) string {
	switch lp.State {
	case decide.StateNotNeeded, decide.StateNothingFits:
		return strings.ToLower(WhyHeading(lp)[:1]) + WhyHeading(lp)[1:]
	}
	return "why " + PickText(kb, lp)
}

func whyLines(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, w int, opt CardOptions) []string {
	var body []string
	add := func(ls ...string) { body = append(body, ls...) }
	if p := kb.Product(lp.Pick); p != nil {
		add(WrapStyled(p.Role, w, 0, 0, st.Muted)...)
	} else {
		add(WrapStyled(kb.Layer(lp.Layer).What, w, 0, 0, st.Muted)...)
	}
	for _, a := range lp.Also {
		if p := kb.Product(a); p != nil {
			add(WrapStyled("+ "+p.Name+": "+p.Role, w, 0, 2, st.Muted)...)
		}
	}
	if len(lp.Reasons) == 0 {
		add(WrapStyled("No rule or need spoke for it; it is the knowledge base's default.", w, 0, 2, st.Muted)...)
	}
	for _, r := range lp.Reasons {
		if lp.State == decide.StateNothingFits && r.Kind == decide.KindNeed && hasConflict(lp, r.Rule) {
			continue // its conflict below says the need and why nothing meets it
		}
		add(reasonLines(kb, d, r, st, w, opt)...)
	}
	for _, c := range lp.Conflicts {
		add(conflictLines(kb, lp.Layer, c, st, w, opt)...)
	}
	if len(lp.Costs) > 0 {
		add(st.Muted.Render(Truncate("Picked despite:", w)))
		for _, a := range lp.Costs {
			add(WrapSpans([]Span{Styled("−", &st.Bad), Plain(" " + ArgumentText(kb, lp.Layer, a) + traceSuffix(opt, a.Rule, a.Weight))}, w, 0, 2)...)
		}
	}
	if cc := lp.CloseCall; cc != nil {
		add("", st.Warn.Render(Truncate(CloseCallTitle(kb, lp), w)))
		add(argLines("for "+PickText(kb, lp)+":", kb, lp.Layer, cc.PickFor, st, w, opt)...)
		other := PickText(kb, decide.LayerPick{Layer: lp.Layer, Pick: cc.Other, Also: cc.OtherAlso})
		add(argLines("for "+other+":", kb, lp.Layer, cc.OtherFor, st, w, opt)...)
		if tb := cc.TieBreak; tb != nil {
			label := "settled by the declared tie-break:"
			if opt.Trace {
				label = "settled by the declared tie-break " + tb.ID + ":"
			}
			add(WrapSpans([]Span{Styled(label, &st.Key), Plain(" " + tb.Argument)}, w, 0, 2)...)
			if tb.Source != "" {
				add(WrapStyled(SourceText(tb.Source, ""), w, 2, 2, st.Muted)...)
			}
		}
		if opt.Trace {
			add(WrapStyled(fmt.Sprintf("trace: margin %d", cc.Margin), w, 2, 2, st.RuleID)...)
		}
		add(Wrap(CloseCallTip(kb, lp), w, 0, 2)...)
	}
	return body
}

func altLines(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, w int, opt CardOptions) []string {
	var body []string
	add := func(ls ...string) { body = append(body, ls...) }
	for _, alt := range lp.Alternatives {
		name := kb.ChoiceName(lp.Layer, alt.Product)
		add(Truncate(st.Bad.Render("✗ ")+name+st.Muted.Render(" ("+AltStatus(lp, alt)+")"), w))
		if alt.Trade {
			add(Wrap(TradeText(kb, lp.Layer, alt), w, 2, 2)...)
		} else if len(alt.Stack) > 0 && !alt.Excluded {
			add(WrapStyled("its best stack: "+PlacedLine(kb, alt.Stack), w, 2, 2, st.Muted)...)
		}
		pro, decisive, against := AltArguments(kb, d, lp.Layer, alt)
		for _, a := range pro {
			add(WrapSpans([]Span{Styled("+", &st.Good), Plain(" for it: " + a.Text)}, w, 2, 2)...)
		}
		for _, a := range decisive {
			add(WrapSpans([]Span{Styled("−", &st.Bad), Plain(" " + a.Label("decisive") + ": " + a.Text)}, w, 2, 2)...)
		}
		label := "against"
		if alt.Excluded {
			label = "excluded"
		}
		for _, a := range against {
			add(WrapSpans([]Span{Styled("−", &st.Bad), Plain(" " + a.Label(label) + ": " + a.Text)}, w, 2, 2)...)
		}
		if opt.Trace && alt.ScoreNote != "" && !alt.Excluded {
			add(WrapStyled("trace: "+alt.ScoreNote, w, 2, 2, st.RuleID)...)
		}
	}
	if len(lp.Alternatives) > 0 {
		add("")
	}
	add(st.Heading.Render(Truncate("What would change the pick", w)))
	answers, hardware := SplitFlips(GroupFlips(lp.Flips))
	if len(answers)+len(hardware) == 0 {
		add(st.Muted.Render(Truncate("No single answer change moves this layer.", w)))
	}
	flip := func(g FlipGroup) {
		add(WrapSpans([]Span{Styled(FlipChange(g), &st.Key)}, w, 2, 2)...)
		add(Wrap("⇒ "+FlipStack(kb, lp, g), w, 4, 2)...)
	}
	for _, g := range answers {
		flip(g)
	}
	if len(hardware) > 0 {
		add(st.Muted.Render(Truncate("Changing the hardware", w)))
		for _, g := range hardware {
			flip(g)
		}
	}
	return body
}

// CourseNotesGone counts what the course notes say that is no longer so
// for every product the decision places (complements included): the
// run-book flags that are gone or renamed and the other claims the
// knowledge base corrects, from the same list `kb changes` prints.
func CourseNotesGone(kb *knowledge.KB, d decide.Decision) (flags, notes int) {
	for _, id := range placedProducts(d) {
		changes, err := CourseNoteChanges(kb, id)
		if err != nil {
			continue
		}
		for _, pc := range changes {
			flags += len(pc.FlagsGone)
			notes += len(pc.Corrections)
		}
	}
	return flags, notes
}

// placedProducts are the products the decision places, each once, in
// layer order, complements after their layer's pick.
func placedProducts(d decide.Decision) []string {
	var out []string
	add := func(id string) {
		if id != "" && id != knowledge.None && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, lp := range d.Layers {
		add(lp.Pick)
		for _, a := range lp.Also {
			add(a)
		}
	}
	return out
}

// CourseNotesLine is the summary's one line about them ("6 flags from the
// course notes are gone or renamed, and 15 other points changed"), then
// hint ("press n to see them"); "" when there is nothing to say.
func CourseNotesLine(kb *knowledge.KB, d decide.Decision, hint string) string {
	flags, notes := CourseNotesGone(kb, d)
	var s string
	switch {
	case flags > 0 && notes > 0:
		s = fmt.Sprintf("%s from the course notes %s gone or renamed, %s changed", count(flags, "flag", "flags"), isAre(flags), count(notes, "other point", "other points"))
	case flags > 0:
		s = fmt.Sprintf("%s from the course notes %s gone or renamed", count(flags, "flag", "flags"), isAre(flags))
	case notes > 0:
		s = fmt.Sprintf("%s in the course notes %s out of date", count(notes, "point", "points"), isAre(notes))
	default:
		return ""
	}
	if hint != "" {
		s += ": " + hint
	}
	return s
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// PlacedProducts are the products a decision places, complements
// included: the products whose course-notes changes the summary counts.
func PlacedProducts(d decide.Decision) []string { return placedProducts(d) }

func allSpecs(kb *knowledge.KB, d decide.Decision, opt CardOptions) []sectionSpec {
	var out []sectionSpec
	for _, lp := range d.Layers {
		out = append(out, layerSpecs(kb, d, lp, opt)...)
	}
	if opt.Trace {
		out = append(out, sectionSpec{Section{ID: "trace", Title: "Trace: stacks scored and rules"}, func(st Styles, w int) []string { return TraceLines(kb, d, st, w) }})
	}
	return out
}

// Sections are every detail of a decision, in reading order: each layer's
// sections, then (trace only) the
// search's scores and every rule's outcome.
func Sections(kb *knowledge.KB, d decide.Decision, st Styles, w int, opt CardOptions) []Section {
	specs := allSpecs(kb, d, opt)
	out := make([]Section, len(specs))
	for i, sp := range specs {
		out[i] = sp.section(st, w)
	}
	return out
}

// SectionTitles are Sections without their lines, for a surface that words
// a section only when it is opened (SectionLines).
func SectionTitles(kb *knowledge.KB, d decide.Decision, opt CardOptions) []Section {
	specs := allSpecs(kb, d, opt)
	out := make([]Section, len(specs))
	for i, sp := range specs {
		out[i] = sp.Section
	}
	return out
}

// SectionLines words the section id of Sections, or nil when d has none.
func SectionLines(kb *knowledge.KB, d decide.Decision, id string, st Styles, w int, opt CardOptions) []string {
	for _, sp := range allSpecs(kb, d, opt) {
		if sp.ID == id {
			return sp.lines(st, w)
		}
	}
	return nil
}

// TraceLines are the search's trace: the best-ranked stacks with their
// scores, each layer's pick score, and every rule fired or not (with the
// condition that failed).
func TraceLines(kb *knowledge.KB, d decide.Decision, st Styles, w int) []string {
	var out []string
	out = append(out, st.Heading.Render(Truncate("Stacks, best first", w)))
	// Every row starts with its mark column ("▸" on the chosen stack,
	// blank on the others) and its score right-aligned, so the stacks line
	// up under each other.
	digits := 1
	for _, s := range d.Stacks {
		digits = max(digits, len(fmt.Sprint(s.Score)))
	}
	for i, s := range d.Stacks {
		mark := " "
		if i == 0 {
			mark = "▸"
		}
		head := fmt.Sprintf("%s %*d  ", mark, digits, s.Score)
		line := PlacedLine(kb, s.Layers)
		if !s.Strict {
			line += " (leaves a need unmet)"
		}
		indent := digits + 4
		lines := Wrap(line, w, indent, 0)
		if len(lines) > 0 {
			lines[0] = head + strings.TrimPrefix(lines[0], strings.Repeat(" ", indent))
		}
		out = append(out, lines...)
	}
	out = append(out, "", st.Heading.Render(Truncate("Pick scores", w)))
	for _, lp := range d.Layers {
		out = append(out, Wrap(fmt.Sprintf("%s: %s %d", kb.Layer(lp.Layer).Name, PickText(kb, lp), lp.Score), w, 0, 2)...)
	}
	out = append(out, "", st.Heading.Render(Truncate("Rules", w)))
	for _, r := range d.Trace {
		if r.Fired {
			out = append(out, WrapSpans([]Span{Styled("✓", &st.Good), Plain(" "), Styled(r.Rule, &st.RuleID), Plain(" (" + r.Layer + ")")}, w, 0, 2)...)
			continue
		}
		text := " (" + r.Layer + ")"
		if r.Failed != "" {
			text += ": not " + r.Failed
		}
		out = append(out, WrapSpans([]Span{Styled("·", &st.Muted), Plain(" "), Styled(r.Rule, &st.RuleID), Styled(text, &st.Muted)}, w, 0, 2)...)
	}
	return out
}

// traceSuffix is " [rule-id +2]" in the trace view, else "".
func traceSuffix(opt CardOptions, rule string, weight int) string {
	if !opt.Trace || rule == "" {
		return ""
	}
	if weight != 0 {
		return fmt.Sprintf(" [%s %+d]", rule, weight)
	}
	return " [" + rule + "]"
}

// reasonLines renders one reason: its rule or need and what it did, its
// text, the answers it rests on that were defaulted (as assumptions with
// the question that confirms them), and when it holds with its source.
func reasonLines(kb *knowledge.KB, d decide.Decision, r decide.Reason, st Styles, w int, opt CardOptions) []string {
	var out []string
	if opt.Trace {
		out = append(out, Truncate(st.Good.Render("+")+" "+st.RuleID.Render(ReasonHead(kb, r)), w))
		out = append(out, Wrap(r.Text, w, 2, 0)...)
	} else {
		text := r.Text
		if h := ReasonWords(kb, r); h != "" {
			text = h + ": " + text
		}
		out = append(out, WrapSpans([]Span{Styled("+", &st.Good), Plain(" " + text)}, w, 0, 2)...)
	}
	for _, k := range r.Assumes {
		out = append(out, WrapSpans([]Span{Styled("?", &st.Warn), Plain(" " + AssumptionText(kb, d, k))}, w, 2, 2)...)
	}
	meta := SourceText(r.Source, r.AsOf)
	if r.When != "" {
		meta = "when " + r.When + " · " + meta
	}
	return append(out, WrapStyled(meta, w, 2, 2, st.Muted)...)
}

// conflictLines renders an unmet need of a layer where nothing fits: the
// need, the answers that conflict, and why each product is blocked.
func conflictLines(kb *knowledge.KB, layer string, c decide.Conflict, st Styles, w int, opt CardOptions) []string {
	head := " unmet need: "
	if opt.Trace {
		head = " unmet need " + c.Need + ": "
	}
	out := WrapSpans([]Span{Styled("!", &st.Warn), Plain(head + c.Text)}, w, 0, 2)
	if len(c.Answers) > 0 {
		out = append(out, WrapSpans([]Span{Styled("conflicting answers:", &st.Key), Plain(" " + ConflictAnswers(c))}, w, 2, 2)...)
	}
	for _, b := range c.Blocked {
		out = append(out, WrapSpans([]Span{Styled("✗", &st.Bad), Plain(" " + kb.ChoiceName(layer, b.Product) + ": " + ArgumentText(kb, layer, b))}, w, 2, 2)...)
	}
	return out
}

func hasConflict(lp decide.LayerPick, need string) bool {
	for _, c := range lp.Conflicts {
		if c.Need == need {
			return true
		}
	}
	return false
}

// argLines renders arguments under a label, or says there are none.
func argLines(label string, kb *knowledge.KB, layer string, args []decide.Argument, st Styles, w int, opt CardOptions) []string {
	if len(args) == 0 {
		return WrapStyled(label+" no argument of its own", w, 0, 2, st.Muted)
	}
	out := []string{Truncate(label, w)}
	for _, a := range args {
		out = append(out, Wrap("+ "+ArgumentText(kb, layer, a)+traceSuffix(opt, a.Rule, a.Weight), w, 2, 2)...)
	}
	return out
}

// EffectText says what a fired rule did to the pick: "+3", "adds KServe",
// "requires".
func EffectText(kb *knowledge.KB, r decide.Reason) string {
	switch r.Effect {
	case knowledge.EffectPrefer:
		return fmt.Sprintf("%+d", r.Weight)
	case knowledge.EffectComplement:
		return "adds " + kb.ProductName(r.Product)
	}
	return r.Effect
}
