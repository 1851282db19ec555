package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Header is what the reader is told before the cards.
type Header struct {
	Title string // scenario title or answers file
	Story string
}

// Decision renders one card per layer, then the risks of that layer, at
// the given width (use 100 when the output is not a terminal).
func Decision(kb *knowledge.KB, d decide.Decision, h Header, st Styles, width int) string {
	var b strings.Builder
	if h.Title != "" {
		b.WriteString(st.Title.Render(h.Title))
		b.WriteString("\n")
	}
	if h.Story != "" {
		b.WriteString(wrapIndent(h.Story, width, 0, 0))
		b.WriteString("\n")
	}
	b.WriteString(st.Muted.Render("Stack: " + StackLine(kb, d)))
	b.WriteString("\n")
	for _, lp := range d.Layers {
		b.WriteString("\n")
		b.WriteString(LayerCard(kb, d, lp, st, width))
	}
	return b.String()
}

// StackLine is the one-line summary: "vLLM · (no model server) · llm-d + KServe".
func StackLine(kb *knowledge.KB, d decide.Decision) string {
	parts := make([]string, 0, len(d.Layers))
	for _, lp := range d.Layers {
		s := kb.ProductName(lp.Pick)
		if lp.Pick == knowledge.None {
			s = "no " + strings.ToLower(kb.Layer(lp.Layer).Name)
		}
		for _, a := range lp.Also {
			s += " + " + kb.ProductName(a)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// LayerCard renders one layer's pick, reasons, alternatives, flips, risks
// and the seed corrections that concern the pick.
func LayerCard(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick, st Styles, width int) string {
	var b strings.Builder
	layer := kb.Layer(lp.Layer)
	rule := strings.Repeat("─", max(0, min(width, 100)-len(layer.Name)-4))
	fmt.Fprintf(&b, "%s %s\n", st.Layer.Render("── "+strings.ToUpper(layer.Name)), st.Muted.Render(rule))
	pick := kb.ProductName(lp.Pick)
	if lp.Pick == knowledge.None {
		pick = "none: this layer is not needed"
	}
	line := st.Pick.Render(pick)
	for _, a := range lp.Also {
		line += " + " + st.Pick.Render(kb.ProductName(a))
	}
	b.WriteString(line + "\n")
	if p := kb.Product(lp.Pick); p != nil {
		b.WriteString(wrapIndent(p.Role, width, 2, 0, st.Muted) + "\n")
	}

	b.WriteString(st.Heading.Render("Why") + "\n")
	for _, r := range lp.Reasons {
		b.WriteString(reasonLine(kb, r, st, width, "+"))
	}

	if len(lp.Alternatives) > 0 {
		b.WriteString(st.Heading.Render("Alternatives") + "\n")
		for _, alt := range lp.Alternatives {
			mark := st.Bad.Render("✗")
			fmt.Fprintf(&b, "  %s %s %s\n", mark, kb.ProductName(alt.Product), st.Muted.Render(fmt.Sprintf("(score %d)", alt.Score)))
			for _, w := range alt.WhyNot {
				b.WriteString(wrapIndent(w, width, 6, 2) + "\n")
			}
		}
	}

	b.WriteString(st.Heading.Render("What would change the pick") + "\n")
	if len(lp.Flips) == 0 {
		b.WriteString(st.Muted.Render("  No single answer change moves this layer.") + "\n")
	}
	for _, g := range GroupFlips(lp.Flips) {
		fmt.Fprintf(&b, "  %s: %s → %s  ⇒ %s\n", st.Key.Render(g.Answer), g.From, strings.Join(g.To, " | "), st.Pick.Render(Outcome(kb, lp, g.Pick, g.Also)))
	}

	if lp.Layer == knowledge.LayerEngine {
		b.WriteString(EngineConfig(d.EngineConfig, st, width))
	}

	var risks []decide.Risk
	for _, r := range d.Risks {
		if r.Layer == lp.Layer {
			risks = append(risks, r)
		}
	}
	if len(risks) > 0 {
		b.WriteString(st.Heading.Render("Risks and landmines") + "\n")
		for _, r := range risks {
			b.WriteString("  " + st.Warn.Render("!") + wrapIndent(r.Text, width, 1, 3) + "\n")
			if r.Watch != "" {
				b.WriteString(wrapIndent("watch: "+r.Watch, width, 4, 7, st.Muted) + "\n")
			}
			b.WriteString(wrapIndent(SourceText(r.Source, r.AsOf), width, 4, 8, st.Muted) + "\n")
		}
	}
	if len(lp.SeedNotes) > 0 {
		b.WriteString(st.Heading.Render(fmt.Sprintf("Where the seed is out of date about %s", kb.ProductName(lp.Pick))) + "\n")
		for _, n := range lp.SeedNotes {
			b.WriteString(wrapIndent("seed: "+n.Claim, width, 2, 6) + "\n")
			b.WriteString("  " + st.Good.Render("now:") + wrapIndent(n.Current, width, 1, 6) + "\n")
			b.WriteString(wrapIndent(SourceText(n.Source, n.AsOf), width, 4, 8, st.Muted) + "\n")
		}
	}
	return b.String()
}

func reasonLine(kb *knowledge.KB, r decide.Reason, st Styles, width int, mark string) string {
	label := r.Rule
	switch {
	case r.Effect == knowledge.EffectPrefer:
		label += fmt.Sprintf(" (%+d)", r.Weight)
	case r.Effect == knowledge.EffectComplement:
		label += fmt.Sprintf(" (+ %s)", kb.ProductName(r.Product))
	default:
		label += " (" + r.Effect + ")"
	}
	var b strings.Builder
	b.WriteString("  " + st.Good.Render(mark) + " " + st.RuleID.Render(label) + "\n")
	b.WriteString(wrapIndent(r.Text, width, 4, 0) + "\n")
	b.WriteString(wrapIndent("when "+r.When+" · "+SourceText(r.Source, r.AsOf), width, 4, 2, st.Muted) + "\n")
	return b.String()
}

// SourceText is "source: SRC (as of DATE)".
func SourceText(src, asOf string) string {
	if asOf != "" {
		return "source: " + src + " (as of " + asOf + ")"
	}
	return "source: " + src
}

// FlipGroup joins flips of one answer that lead to the same outcome, so
// "other_model_types → vision | tabular | …" reads as one line.
type FlipGroup struct {
	Answer, From, Pick string
	Also               []string
	To                 []string
}

// GroupFlips groups a layer's flips by answer and outcome, in flip order.
func GroupFlips(flips []decide.Flip) []FlipGroup {
	var out []FlipGroup
	for _, f := range flips {
		found := false
		for i := range out {
			g := &out[i]
			if g.Answer == f.Answer && g.Pick == f.Pick && strings.Join(g.Also, ",") == strings.Join(f.Also, ",") {
				g.To = append(g.To, f.To)
				found = true
				break
			}
		}
		if !found {
			out = append(out, FlipGroup{Answer: f.Answer, From: f.From, Pick: f.Pick, Also: f.Also, To: []string{f.To}})
		}
	}
	return out
}

// Outcome names what a flip leads to; when only the complements change it
// says so ("llm-d alone", "KServe + llm-d").
func Outcome(kb *knowledge.KB, lp decide.LayerPick, pick string, also []string) string {
	s := kb.ProductName(pick)
	for _, a := range also {
		s += " + " + kb.ProductName(a)
	}
	if pick == lp.Pick && len(also) == 0 && len(lp.Also) > 0 {
		s += " alone"
	}
	return s
}
