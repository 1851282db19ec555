package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// Questions lists every question a user can answer: key, type, allowed
// values, default and why it matters, grouped by questionnaire page.
func Questions(kb *knowledge.KB, st Styles, width int) string {
	var b strings.Builder
	page := ""
	for _, q := range kb.Questions {
		if q.Derived {
			continue
		}
		if q.Page != page {
			if page != "" {
				b.WriteString("\n")
			}
			b.WriteString(st.Layer.Render("── "+strings.ToUpper(q.Page)) + "\n")
			page = q.Page
		}
		fmt.Fprintf(&b, "%s %s  %s\n", st.Key.Render(q.Key), st.Muted.Render("("+q.Type+")"), "default "+q.DefaultValue().Format(q.Type))
		b.WriteString(wrapIndent(q.Prompt, width, 2, 0) + "\n")
		b.WriteString(wrapIndent("allowed: "+q.AllowedText(), width, 2, 9, st.Muted) + "\n")
		b.WriteString(wrapIndent("why: "+q.Why, width, 2, 5, st.Muted) + "\n")
	}
	var derived []string
	for _, q := range kb.Questions {
		if q.Derived {
			derived = append(derived, q.Key)
		}
	}
	if len(derived) > 0 {
		b.WriteString("\n" + wrapIndent("Computed for rules, not typed: "+strings.Join(derived, ", "), width, 0, 0, st.Muted) + "\n")
	}
	return b.String()
}

// Scenarios lists the presets with their one-line stories.
func Scenarios(list []scenarios.Scenario, st Styles, width int) string {
	var b strings.Builder
	wid := 0
	for _, s := range list {
		wid = max(wid, len(s.Name))
	}
	for _, s := range list {
		fmt.Fprintf(&b, "%s  %s\n", st.Key.Render(fmt.Sprintf("%-*s", wid, s.Name)), st.Title.Render(s.Title))
		if s.Line != "" {
			b.WriteString(wrapIndent(s.Line, width, wid+2, 0, st.Muted) + "\n")
		}
	}
	b.WriteString("\n" + st.Muted.Render("Run one: stackpick decide --scenario NAME") + "\n")
	return b.String()
}

// RulesText is the rules table for a terminal: one block per rule.
func RulesText(kb *knowledge.KB, st Styles, width int) string {
	var b strings.Builder
	layer := ""
	for _, r := range kb.Rules {
		if r.Layer != layer {
			if layer != "" {
				b.WriteString("\n")
			}
			b.WriteString(st.Layer.Render("── "+strings.ToUpper(kb.Layer(r.Layer).Name)) + "\n")
			layer = r.Layer
		}
		fmt.Fprintf(&b, "%s  %s\n", st.RuleID.Render(r.ID), effectText(kb, r))
		b.WriteString(wrapIndent("when "+r.WhenText, width, 2, 5, st.Muted) + "\n")
		b.WriteString(wrapIndent(r.Reason, width, 2, 0) + "\n")
		b.WriteString(wrapIndent(SourceText(r.Sources.Cite(true), r.Sources.CheckedOn()), width, 2, 8, st.Muted) + "\n")
	}
	return b.String()
}

// RulesMarkdown is the rules table as Markdown, for the README and docs.
func RulesMarkdown(kb *knowledge.KB) string {
	var b strings.Builder
	b.WriteString("| rule | layer | effect | when | reason | source |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range kb.Rules {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", r.ID, r.Layer, mdCell(effectText(kb, r)), mdCell(r.WhenText), mdCell(r.Reason), mdCell(SourceText(r.Sources.Cite(true), r.Sources.CheckedOn())))
	}
	return b.String()
}

func effectText(kb *knowledge.KB, r *knowledge.Rule) string {
	switch r.Effect {
	case knowledge.EffectPrefer:
		return fmt.Sprintf("prefer %s %+d", ruleTarget(kb, r.Layer, r.Product), r.Weight)
	case knowledge.EffectComplement:
		return fmt.Sprintf("add %s beside %s", r.Product, r.With)
	default:
		return r.Effect + " " + ruleTarget(kb, r.Layer, r.Product)
	}
}

// ruleTarget is the product a rule names, by id as the knowledge base
// spells it, but the empty choice in the one wording of an empty layer.
func ruleTarget(kb *knowledge.KB, layer, id string) string {
	if id == knowledge.None {
		return EmptyLayer(kb, layer)
	}
	return id
}

func mdCell(s string) string {
	return cell(strings.ReplaceAll(s, "\n", " "))
}

// KBSummary is what `kb check` prints when everything is valid.
func KBSummary(kb *knowledge.KB, files []string, st Styles, width int) string {
	var b strings.Builder
	b.WriteString(st.Good.Render("✓ knowledge base is valid") + "\n")
	landmines, notes := 0, 0
	for _, p := range kb.Products {
		landmines += len(p.Landmines)
		notes += len(p.SeedNotes)
	}
	asked := 0
	for _, q := range kb.Questions {
		if !q.Derived {
			asked++
		}
	}
	counts := fmt.Sprintf("%d layers, %d products, %d capability facts, %d needs, %d questions (and %d derived answers), %d rules, %d claims, %d tie-break criteria, %d GPUs, %d models, %d engine flags, %d landmines, %d corrections to the course notes",
		len(kb.Layers), len(kb.Products), len(kb.Capabilities), len(kb.Needs), asked, len(kb.Questions)-asked, len(kb.Rules), len(kb.Claims), len(kb.TieBreaks), len(kb.GPUs), len(kb.Models), len(kb.Flags), landmines, notes)
	b.WriteString(wrapIndent(counts, width, 2, 0) + "\n")
	for _, f := range files {
		b.WriteString(st.Muted.Render("  read "+f) + "\n")
	}
	return b.String()
}
