package report

import (
	"fmt"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// LayerCard is one layer's pick defended, as lines at most w cells wide:
// the pick and its complements, the reasons with their sources, the
// alternatives with why not, what would change the pick, the engine's
// launch command, the risks, and where the course notes are out of date.
// It is the one card: the app draws it in a box, the command line under a
// rule. changed marks a pick the last answer moved (the app's live view).
func LayerCard(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, w int, changed bool) []string {
	var body []string
	add := func(ls ...string) { body = append(body, ls...) }
	heading := func(s string) {
		add("", st.Heading.Render(Truncate(s, w)))
	}

	pick := st.Pick.Render(Truncate(StateText(kb, lp), w-2))
	if changed {
		pick += st.Changed.Render(" « changed")
	}
	add(Truncate(pick, w))
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

	heading(WhyHeading(lp))
	if len(lp.Reasons) == 0 {
		add(WrapStyled("No rule or need spoke for it; it is the knowledge base's default.", w, 0, 2, st.Muted)...)
	}
	for _, r := range lp.Reasons {
		if lp.State == decide.StateNothingFits && r.Kind == decide.KindNeed && hasConflict(lp, r.Rule) {
			continue // its conflict below says the need and why nothing meets it
		}
		add(reasonLines(kb, d, r, st, w)...)
	}
	for _, c := range lp.Conflicts {
		add(conflictLines(kb, lp.Layer, c, st, w)...)
	}
	if len(lp.Costs) > 0 {
		heading("Picked despite")
		for _, a := range lp.Costs {
			add(WrapSpans([]Span{Styled("−", &st.Bad), Plain(" " + ArgumentText(kb, lp.Layer, a))}, w, 0, 2)...)
		}
	}

	if cc := lp.CloseCall; cc != nil {
		heading(CloseCallTitle(kb, lp))
		add(argLines("for "+PickText(kb, lp)+":", kb, lp.Layer, cc.PickFor, st, w)...)
		other := PickText(kb, decide.LayerPick{Layer: lp.Layer, Pick: cc.Other, Also: cc.OtherAlso})
		add(argLines("for "+other+":", kb, lp.Layer, cc.OtherFor, st, w)...)
		if tb := cc.TieBreak; tb != nil {
			add(WrapSpans([]Span{Styled("settled by the declared tie-break "+tb.ID+":", &st.Key), Plain(" " + tb.Argument)}, w, 0, 2)...)
			if tb.Source != "" {
				add(WrapStyled(SourceText(tb.Source, ""), w, 2, 2, st.Muted)...)
			}
		}
		add(Wrap(CloseCallTip(kb, lp), w, 0, 2)...)
	}

	if len(lp.Alternatives) > 0 {
		heading("Alternatives")
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
			if alt.ScoreNote != "" && !alt.Excluded {
				add(WrapStyled("trace: "+alt.ScoreNote, w, 2, 2, st.Muted)...)
			}
		}
	}

	heading("What would change the pick")
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

	if lp.Layer == knowledge.LayerEngine {
		add(EngineCard(d.EngineConfig, st, w)...)
	}

	var risks []decide.Risk
	for _, r := range d.Risks {
		if r.Layer == lp.Layer {
			risks = append(risks, r)
		}
	}
	if len(risks) > 0 {
		heading("Risks")
		for _, r := range risks {
			add(WrapSpans([]Span{Styled("!", &st.Warn), Plain(" " + r.Text)}, w, 0, 2)...)
			if r.Watch != "" {
				add(WrapStyled("watch: "+r.Watch, w, 2, 2, st.Muted)...)
			}
			add(WrapStyled(SourceText(r.Source, r.AsOf), w, 2, 2, st.Muted)...)
		}
	}

	if len(lp.SeedNotes) > 0 {
		heading("Where the course notes are out of date")
		for _, n := range lp.SeedNotes {
			add(Wrap("the course notes: "+n.Claim, w, 0, 2)...)
			add(WrapSpans([]Span{Styled("now:", &st.Good), Plain(" " + n.Current)}, w, 0, 2)...)
			add(WrapStyled(SourceText(n.Source, n.AsOf), w, 2, 2, st.Muted)...)
		}
	}
	return body
}

// reasonLines renders one reason: its rule or need and what it did, its
// text, the answers it rests on that were defaulted (as assumptions with
// the question that confirms them), and when it holds with its source.
func reasonLines(kb *knowledge.KB, d decide.Decision, r decide.Reason, st Styles, w int) []string {
	out := []string{Truncate(st.Good.Render("+")+" "+st.RuleID.Render(ReasonHead(kb, r)), w)}
	out = append(out, Wrap(r.Text, w, 2, 0)...)
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
func conflictLines(kb *knowledge.KB, layer string, c decide.Conflict, st Styles, w int) []string {
	out := WrapSpans([]Span{Styled("!", &st.Warn), Plain(" unmet need " + c.Need + ": " + c.Text)}, w, 0, 2)
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
func argLines(label string, kb *knowledge.KB, layer string, args []decide.Argument, st Styles, w int) []string {
	if len(args) == 0 {
		return WrapStyled(label+" no argument of its own", w, 0, 2, st.Muted)
	}
	out := []string{Truncate(label, w)}
	for _, a := range args {
		out = append(out, Wrap("+ "+ArgumentText(kb, layer, a), w, 2, 2)...)
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
