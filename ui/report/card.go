package report

import (
	"fmt"
	"strings"

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

	pick := st.Pick.Render(Truncate(PickText(kb, lp), w-2))
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

	heading("Why")
	if len(lp.Reasons) == 0 {
		add(st.Muted.Render(Truncate("No rule spoke for it; it is the default.", w)))
	}
	for _, r := range lp.Reasons {
		add(reasonLines(kb, r, st, w)...)
	}

	if len(lp.Alternatives) > 0 {
		heading("Alternatives")
		for _, alt := range lp.Alternatives {
			name := kb.ChoiceName(lp.Layer, alt.Product)
			add(Truncate(st.Bad.Render("✗ ")+name+st.Muted.Render(fmt.Sprintf(" (score %d)", alt.Score)), w))
			for _, why := range alt.WhyNot {
				add(Wrap(why, w, 2, 2)...)
			}
		}
	}

	heading("What would change the pick")
	groups := GroupFlips(lp.Flips)
	if len(groups) == 0 {
		add(st.Muted.Render(Truncate("No single answer change moves this layer.", w)))
	}
	for _, g := range groups {
		line := []Span{
			Styled(g.Answer, &st.Key),
			Plain(fmt.Sprintf(": %s → %s ⇒ %s", g.From, strings.Join(g.To, " | "), Outcome(kb, lp, g.Pick, g.Also))),
		}
		add(WrapSpans(line, w, 2, 2)...)
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
		heading("Where the seed is out of date")
		for _, n := range lp.SeedNotes {
			add(Wrap("seed: "+n.Claim, w, 0, 2)...)
			add(WrapSpans([]Span{Styled("now:", &st.Good), Plain(" " + n.Current)}, w, 0, 2)...)
			add(WrapStyled(SourceText(n.Source, n.AsOf), w, 2, 2, st.Muted)...)
		}
	}
	return body
}

// reasonLines renders one fired rule: its id and effect, its reason, and
// when it fired with its source.
func reasonLines(kb *knowledge.KB, r decide.Reason, st Styles, w int) []string {
	out := []string{Truncate(st.Good.Render("+")+" "+st.RuleID.Render(r.Rule+" ("+EffectText(kb, r)+")"), w)}
	out = append(out, Wrap(r.Text, w, 2, 0)...)
	return append(out, WrapStyled("when "+r.When+" · "+SourceText(r.Source, r.AsOf), w, 2, 2, st.Muted)...)
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
