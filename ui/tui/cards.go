package tui

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report"
)

// decisionCards renders the session's decision as one card per layer,
// exactly w cells wide, and returns the line where each card starts (for
// jumping between layers). The scenario's story leads when there is room.
func decisionCards(c *shared, w int, story bool) (string, []int) {
	st := c.styles
	s := &c.session
	d := s.decision
	var out []string
	if s.scenario != "" && story {
		for _, sc := range c.scenarios {
			if sc.Name == s.scenario {
				out = append(out, wrapStyled(sc.Story, w, 0, 0, st.Muted)...)
			}
		}
	}
	if diff := changedAnswers(c.kb, s.answers); diff != "" {
		out = append(out, wrapStyled("Answers changed from the defaults: "+diff, w, 0, 2, st.Muted)...)
	} else {
		out = append(out, st.Muted.Render("All answers at their defaults."))
	}
	changed := s.changedLayers()
	var offsets []int
	for _, lp := range d.Layers {
		out = append(out, "")
		offsets = append(offsets, len(out))
		out = append(out, layerCard(c, d, lp, changed[lp.Layer], w)...)
	}
	out = append(out, "", st.Muted.Render(truncate("e: edit one answer · s: save answers · x: export memo · a: all questions", w)))
	return strings.Join(out, "\n"), offsets
}

// layerCard is one layer's pick defended: complements, reasons with their
// sources, alternatives with why not, what would change the pick, risks,
// and where the seed is out of date.
func layerCard(c *shared, d decide.Decision, lp decide.LayerPick, changed bool, w int) []string {
	st := c.styles
	kb := c.kb
	inner := w - 4
	layer := kb.Layer(lp.Layer)
	var body []string
	add := func(ls ...string) { body = append(body, ls...) }
	heading := func(s string) {
		add("", st.Heading.Render(truncate(s, inner)))
	}

	pick := st.Pick.Render(truncate(pickText(kb, lp), inner-2))
	if changed {
		pick += st.Changed.Render(" « changed")
	}
	add(truncate(pick, inner))
	if p := kb.Product(lp.Pick); p != nil {
		add(wrapStyled(p.Role, inner, 0, 0, st.Muted)...)
	} else {
		add(wrapStyled(layer.What, inner, 0, 0, st.Muted)...)
	}
	for _, a := range lp.Also {
		if p := kb.Product(a); p != nil {
			add(wrapStyled("+ "+p.Name+": "+p.Role, inner, 0, 2, st.Muted)...)
		}
	}

	heading("Why")
	if len(lp.Reasons) == 0 {
		add(st.Muted.Render(truncate("No rule spoke for it; it is the default.", inner)))
	}
	for _, r := range lp.Reasons {
		add(reasonLines(c, r, inner, st.Good.Render("+"))...)
	}

	if len(lp.Alternatives) > 0 {
		heading("Alternatives")
		for _, alt := range lp.Alternatives {
			name := kb.ProductName(alt.Product)
			if alt.Product == knowledge.None {
				name = "none (leave the layer empty)"
			}
			add(truncate(st.Bad.Render("✗ ")+name+st.Muted.Render(fmt.Sprintf(" (score %d)", alt.Score)), inner))
			for _, why := range alt.WhyNot {
				add(wrap(why, inner, 2, 2)...)
			}
		}
	}

	heading("What would change the pick")
	groups := report.GroupFlips(lp.Flips)
	if len(groups) == 0 {
		add(st.Muted.Render(truncate("No single answer change moves this layer.", inner)))
	}
	for _, g := range groups {
		line := fmt.Sprintf("%s: %s → %s ⇒ %s", g.Answer, g.From, strings.Join(g.To, " | "), report.Outcome(kb, lp, g.Pick, g.Also))
		ls := wrap(line, inner, 2, 2)
		ls[0] = "  " + st.Key.Render(g.Answer) + strings.TrimPrefix(ls[0], "  "+g.Answer)
		add(ls...)
	}

	if lp.Layer == knowledge.LayerEngine {
		add(engineLines(c, d.EngineConfig, inner)...)
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
			ls := wrap(r.Text, inner, 2, 0)
			ls[0] = st.Warn.Render("!") + ls[0][1:]
			add(ls...)
			if r.Watch != "" {
				add(wrapStyled("watch: "+r.Watch, inner, 2, 2, st.Muted)...)
			}
			add(wrapStyled(report.SourceText(r.Source, r.AsOf), inner, 2, 2, st.Muted)...)
		}
	}

	if len(lp.SeedNotes) > 0 {
		heading("Where the seed is out of date")
		for _, n := range lp.SeedNotes {
			add(wrap("seed: "+n.Claim, inner, 0, 2)...)
			now := wrap("now: "+n.Current, inner, 0, 2)
			now[0] = st.Good.Render("now:") + strings.TrimPrefix(now[0], "now:")
			add(now...)
			add(wrapStyled(report.SourceText(n.Source, n.AsOf), inner, 2, 2, st.Muted)...)
		}
	}
	return box(st, st.Layer.Render(strings.ToUpper(layer.Name)), body, w, 0)
}

// reasonLines renders one fired rule: its id and weight, its reason, and
// when it fired with its source.
func reasonLines(c *shared, r decide.Reason, w int, mark string) []string {
	st := c.styles
	label := r.Rule
	switch r.Effect {
	case knowledge.EffectPrefer:
		label += fmt.Sprintf(" (%+d)", r.Weight)
	case knowledge.EffectComplement:
		label += " (adds " + c.kb.ProductName(r.Product) + ")"
	default:
		label += " (" + r.Effect + ")"
	}
	out := []string{truncate(mark+" "+st.RuleID.Render(label), w)}
	out = append(out, wrap(r.Text, w, 2, 0)...)
	out = append(out, wrapStyled("when "+r.When+" · "+report.SourceText(r.Source, r.AsOf), w, 2, 2, st.Muted)...)
	return out
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
