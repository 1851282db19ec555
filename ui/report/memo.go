package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// MemoInput is what a memo needs beyond the decision. Date is injected (the
// renderer never reads the clock) so the same decision and date give the
// same bytes. Title, Status, Deciders and Problem come from the answers
// file's [memo] table, the command's flags or the app's About step; left
// empty, the memo writes its defaults (a title from the stack, status
// proposed, "(fill in)" for the deciders, the question the decision
// answers for the problem).
type MemoInput struct {
	Title    string // the record's title; "" is "Serve <models> with <stack>"
	Status   string // one of knowledge.MemoStatuses; "" is proposed
	Deciders []string
	Date     string // YYYY-MM-DD
	Problem  string // a short problem statement in the user's words
	Story    string // the preset's story, told after the problem
	Source   string // "scenario exit-test" or "answers file fleet.toml"
	// Manifest is the command that writes the decision's deployable
	// files ("stackpick manifest --scenario exit-test --out deploy"); ""
	// when the answers are not in a file or a preset.
	Manifest string
	// Pinned is a decision pinned for comparison: the memo lists it under
	// the options considered, with the answers and picks that differ.
	Pinned *PinnedDecision
}

// PinnedDecision is an alternative decision kept beside the one a memo
// records, under a label ("A", "the 2-node plan").
type PinnedDecision struct {
	Label    string
	Decision decide.Decision
}

// WithMemo returns in with the fields m sets (an answers file's [memo]
// table, flags) taking the place of in's.
func (in MemoInput) WithMemo(m knowledge.Memo) MemoInput {
	got := m.Over(knowledge.Memo{Title: in.Title, Status: in.Status, Deciders: in.Deciders, Date: in.Date, Problem: in.Problem})
	in.Title, in.Status, in.Deciders, in.Date, in.Problem = got.Title, got.Status, got.Deciders, got.Date, got.Problem
	return in
}

// MemoPlaceholder is what the memo writes for metadata nobody filled in.
const MemoPlaceholder = "(fill in)"

// Memo renders the decision as a Markdown architecture decision record in
// the MADR layout: the title, its status, deciders and date, and a TL;DR
// that names the whole stack with one sentence per layer, all within the
// first 20 lines; then the problem, the stated requirements, the drivers,
// the assumptions, the options with their arguments, the outcome with its
// topology, the consequences, the engine's settings, the flips, a
// checklist and the sources. It says exactly what the decision trace says.
func Memo(kb *knowledge.KB, d decide.Decision, in MemoInput) string {
	m := &memo{kb: kb, d: d, in: in}
	title := in.Title
	if title == "" {
		title = DefaultMemoTitle(kb, d)
	}
	status := in.Status
	if status == "" {
		status = "proposed"
	}
	deciders := MemoPlaceholder
	if len(in.Deciders) > 0 {
		deciders = strings.Join(in.Deciders, ", ")
	}
	m.line("# " + md(title))
	m.blank()
	m.line("- Status: " + status)
	m.line("- Deciders: " + md(deciders))
	m.line("- Date: " + in.Date)
	if in.Source != "" {
		m.line("- Source: stackpick, from " + md(in.Source) + " (decision schema `" + d.Schema + "`)")
	}
	m.blank()

	m.tldr()
	m.problem()
	m.requirements()
	m.drivers()
	m.assumptions()
	m.options()
	m.outcome()
	m.consequences()
	m.engineConfig()
	m.flips()
	m.verify()
	m.sources()
	return strings.TrimRight(m.b.String(), "\n") + "\n"
}

type memo struct {
	kb *knowledge.KB
	d  decide.Decision
	in MemoInput
	b  strings.Builder
}

func (m *memo) line(s string) { m.b.WriteString(s + "\n") }
func (m *memo) blank()        { m.b.WriteString("\n") }
func (m *memo) para(s string) { m.line(md(s)); m.blank() }

func (m *memo) layerName(id string) string { return m.kb.Layer(id).Name }

func (m *memo) productName(layer, id string) string { return m.kb.ChoiceName(layer, id) }

// tldr is the stack and one sentence per layer.
func (m *memo) tldr() {
	m.line("## TL;DR")
	m.blank()
	m.line("Chosen stack: **" + md(StackLine(m.kb, m.d)) + "**.")
	m.blank()
	for _, lp := range m.d.Layers {
		// WhyLine opens with the state of an empty layer ("Not needed:").
		m.line("- " + m.layerName(lp.Layer) + ": **" + md(m.chosen(lp)) + "**. " + md(sentence(WhyLine(m.kb, m.d, lp))))
	}
	m.blank()
	var notes []string
	for _, lp := range m.d.Layers {
		if lp.CloseCall != nil {
			notes = append(notes, CloseCallTitle(m.kb, lp)+" ("+strings.ToLower(m.layerName(lp.Layer))+")")
		}
	}
	if n := len(m.d.Assumptions); n > 0 {
		notes = append(notes, count(n, "assumption to confirm", "assumptions to confirm"))
	}
	if len(notes) > 0 {
		m.para("Read before signing: " + strings.Join(notes, "; ") + ".")
	}
}

func (m *memo) problem() {
	m.line("## Context and problem statement")
	m.blank()
	switch {
	case m.in.Problem != "":
		for _, p := range strings.Split(strings.TrimSpace(m.in.Problem), "\n\n") {
			m.para(strings.Join(strings.Fields(p), " "))
		}
		if m.in.Story != "" {
			m.para(m.in.Story)
		}
	case m.in.Story != "":
		m.para(m.in.Story)
		m.para(DefaultProblem(m.kb, m.d.Answers.Answers))
	default:
		m.para(DefaultProblem(m.kb, m.d.Answers.Answers))
	}
}

// requirements are the answers the user stated, in words.
func (m *memo) requirements() {
	m.line("## Requirements")
	m.blank()
	groups := Requirements(m.kb, m.d.Answers.Answers)
	if len(groups) == 0 {
		m.para("No answer was stated: every answer is a default of the questionnaire, and the assumptions below list those the decision rests on.")
		return
	}
	m.para("As stated; every other answer is a default, and the assumptions below list those the decision rests on.")
	for _, g := range groups {
		m.line("- " + g.Page + ": " + md(strings.Join(g.Phrases, "; ")) + ".")
	}
	m.blank()
}

// drivers are the stated answers that made rules fire, each with what it
// did to the stack, in words.
func (m *memo) drivers() {
	m.line("## Decision drivers")
	m.blank()
	did := map[string][]string{}
	// pairOf is a complement's two products, in either order: "adds KServe
	// beside llm-d" and "adds llm-d beside KServe" are one fact, said once.
	pairOf := map[string]string{}
	for ri, r := range m.kb.Rules {
		if !m.d.Trace[ri].Fired {
			continue
		}
		effect := ruleEffectWords(m.kb, r)
		if r.Effect == knowledge.EffectComplement {
			pair := []string{r.Product, r.With}
			slices.Sort(pair)
			pairOf[effect] = strings.Join(pair, "+")
		}
		for _, c := range r.Conds {
			if !m.d.Answers.StatedKey(c.Key) || slices.Contains(did[c.Key], effect) {
				continue
			}
			did[c.Key] = append(did[c.Key], effect)
		}
	}
	// Stated latency answers shape the engine's command, not a rule: say
	// which flags they set.
	for key, flags := range m.enginesStatedFlags() {
		did[key] = append(did[key], "sets "+strings.Join(flags, " and "))
	}
	found := false
	saidPair := map[string]bool{}
	for i, q := range m.kb.Questions {
		var effects []string
		for _, e := range did[q.Key] {
			if p := pairOf[e]; p != "" {
				if saidPair[p] {
					continue
				}
				saidPair[p] = true
			}
			effects = append(effects, e)
		}
		if len(effects) == 0 {
			continue
		}
		found = true
		m.line("- " + md(Capitalize(AnswerPhrase(m.kb, q, m.d.Answers.Values()[i]))) + ": " + md(strings.Join(effects, ", ")) + ".")
	}
	if !found {
		m.line("- No stated answer moved the ranking; the picks rest on the knowledge base's defaults and the assumptions below.")
	}
	m.blank()
}

// ruleEffectWords says what a rule does, in words: "favours llm-d",
// "counts against NVIDIA Dynamo", "adds KServe beside llm-d".
func ruleEffectWords(kb *knowledge.KB, r *knowledge.Rule) string {
	name := kb.ChoiceName(r.Layer, r.Product)
	switch r.Effect {
	case knowledge.EffectPrefer:
		if r.Weight < 0 {
			return "counts against " + name
		}
		return "favours " + name
	case knowledge.EffectExclude:
		return "rules out " + name
	case knowledge.EffectRequire:
		return "requires " + name
	case knowledge.EffectComplement:
		return "adds " + kb.ProductName(r.Product) + " beside " + kb.ProductName(r.With)
	}
	return r.Effect + " " + name
}

// assumptions lists the defaulted answers the decision rests on, each
// with the question that confirms it and the layers it bears on.
func (m *memo) assumptions() {
	m.line("## Assumptions")
	m.blank()
	if len(m.d.Assumptions) == 0 {
		m.para("Every answer a reason rests on was stated; nothing here is assumed.")
		return
	}
	m.para("These answers were not given; they are defaults that a reason rests on. Confirm each before relying on the decision.")
	layers := m.ruleLayers()
	for _, a := range m.d.Assumptions {
		line := fmt.Sprintf("- `%s = %s` (default%s). To confirm: %s", a.Key, a.Value, md(meansText(a)), md(sentence(a.Question)))
		var on []string
		for _, lp := range m.d.Layers {
			if slices.ContainsFunc(a.For, func(id string) bool { return slices.Contains(layers[id], lp.Layer) }) {
				on = append(on, "the "+strings.ToLower(m.layerName(lp.Layer))+" ("+md(m.chosen(lp))+")")
			}
		}
		if len(on) > 0 {
			line += " It bears on " + joinAnd(on) + "."
		}
		m.line(line)
	}
	m.blank()
}

// ruleLayers maps a rule or need id to the layers its reasons and
// arguments bear on in this decision.
func (m *memo) ruleLayers() map[string][]string {
	out := map[string][]string{}
	add := func(id, layer string) {
		if id != "" && !slices.Contains(out[id], layer) {
			out[id] = append(out[id], layer)
		}
	}
	for _, r := range m.kb.Rules {
		add(r.ID, r.Layer)
	}
	for _, lp := range m.d.Layers {
		for _, r := range lp.Reasons {
			add(r.Rule, lp.Layer)
		}
		for _, c := range lp.Conflicts {
			add(c.Need, lp.Layer)
		}
	}
	return out
}

// options lists, per layer, the pick and every alternative with its
// arguments, then the pinned alternative if there is one.
func (m *memo) options() {
	m.line("## Considered options")
	m.blank()
	for _, lp := range m.d.Layers {
		m.line("### " + m.layerName(lp.Layer))
		m.blank()
		chosen := "chosen"
		switch lp.State {
		case decide.StateNotNeeded:
			chosen = "chosen: not needed"
		case decide.StateNothingFits:
			chosen = "nothing fits"
		}
		m.line(fmt.Sprintf("- **%s** (%s)", md(m.chosen(lp)), chosen))
		for _, alt := range lp.Alternatives {
			m.line(fmt.Sprintf("- %s (%s):", md(m.productName(lp.Layer, alt.Product)), AltStatus(lp, alt)))
			if alt.Trade {
				m.line("  - " + md(TradeText(m.kb, lp.Layer, alt)))
			} else if len(alt.Stack) > 0 && !alt.Excluded {
				m.line("  - Its best stack: " + md(PlacedLine(m.kb, alt.Stack)) + ".")
			}
			pro, decisive, against := AltArguments(m.kb, m.d, lp.Layer, alt)
			for _, a := range pro {
				m.line("  - For it: " + md(a.Text))
			}
			for _, a := range decisive {
				m.line("  - " + md(a.Label("Decisive")) + ": " + md(a.Text))
			}
			label := "Against"
			if alt.Excluded {
				label = "Excluded"
			}
			for _, a := range against {
				m.line("  - " + md(a.Label(label)) + ": " + md(a.Text))
			}
		}
		m.blank()
	}
	m.pinned()
}

// pinned is the pinned alternative as an option: its stack, the answers
// that differ, and per layer that moved what it chose and why (the diff's
// own Markdown block).
func (m *memo) pinned() {
	if p := m.in.Pinned; p != nil {
		m.b.WriteString(PinnedMarkdown(m.kb, p.Decision, m.d, p.Label))
		m.blank()
	}
}

func (m *memo) chosen(lp decide.LayerPick) string { return PickText(m.kb, lp) }

func (m *memo) outcome() {
	m.line("## Decision outcome")
	m.blank()
	m.line("Chosen stack: **" + md(StackLine(m.kb, m.d)) + "**.")
	m.blank()
	if sv := ServesLine(m.kb, m.d); sv != "" {
		m.para(md(sv) + ".")
	}
	for _, lp := range m.d.Layers {
		m.line("### " + m.layerName(lp.Layer) + ": " + md(m.chosen(lp)))
		m.blank()
		switch lp.State {
		case decide.StateNotNeeded:
			m.para("Not needed: nothing in the answers gives this layer work to do.")
		case decide.StateNothingFits:
			m.para("Nothing fits: a need asks for this layer, and every candidate is ruled out by the answers.")
		}
		var reasons []decide.Reason
		for _, r := range lp.Reasons {
			if lp.State == decide.StateNothingFits && r.Kind == decide.KindNeed && hasConflict(lp, r.Rule) {
				continue
			}
			reasons = append(reasons, r)
		}
		if len(reasons) > 0 {
			m.line("Because:")
			m.blank()
			for i, r := range reasons {
				note := ""
				if w := strings.TrimPrefix(reasonWords(m.kb, r), ", "); w != "" {
					note = " (" + md(w) + ")"
				}
				line := fmt.Sprintf("%d. %s%s. Source: %s.", i+1, md(sentenceless(r.Text)), note, sourceMD(r.Source, r.AsOf))
				for _, k := range r.Assumes {
					a := AssumptionText(m.kb, m.d, k)
					line += " A" + md(strings.TrimPrefix(a, "a"))
					if !strings.HasSuffix(a, "?") && !strings.HasSuffix(a, ".") {
						line += "."
					}
				}
				m.line(line)
			}
			m.blank()
		}
		if len(lp.Costs) > 0 {
			m.line("Picked despite:")
			m.blank()
			for _, a := range lp.Costs {
				m.line(fmt.Sprintf("- %s Source: %s.", md(sentence(ArgumentText(m.kb, lp.Layer, a))), sourceMD(a.Source, "")))
			}
			m.blank()
		}
		if len(lp.Conflicts) > 0 {
			m.line("Unmet needs and the answers that conflict:")
			m.blank()
			for _, c := range lp.Conflicts {
				m.line(fmt.Sprintf("- %s Conflicting answers: %s.", md(sentence(c.Text)), codeList(c.Answers)))
				for _, b := range c.Blocked {
					m.line(fmt.Sprintf("  - %s: %s", m.productName(lp.Layer, b.Product), md(ArgumentText(m.kb, lp.Layer, b))))
				}
			}
			m.blank()
		}
		if cc := lp.CloseCall; cc != nil {
			m.line("**" + md(CloseCallTitle(m.kb, lp)) + ".**")
			m.blank()
			m.argList("For "+m.chosen(lp), lp.Layer, cc.PickFor)
			m.argList("For "+m.chosen(decide.LayerPick{Layer: lp.Layer, Pick: cc.Other, Also: cc.OtherAlso}), lp.Layer, cc.OtherFor)
			if tb := cc.TieBreak; tb != nil {
				m.line(fmt.Sprintf("- Settled by the declared tie-break: %s Source: %s.", md(tb.Argument), sourceMD(tb.Source, "")))
			}
			m.line("- " + md(CloseCallTip(m.kb, lp)))
			m.blank()
		}
	}
	m.line("### Topology")
	m.blank()
	m.line(strings.TrimRight(TopologyMermaid(m.kb, m.d), "\n"))
	m.blank()
}

// sentenceless drops a reason's closing full stop, for a citation after it.
func sentenceless(s string) string { return strings.TrimSuffix(strings.TrimSpace(s), ".") }

// argList writes a close call's arguments for one side as one bullet.
func (m *memo) argList(label, layer string, args []decide.Argument) {
	if len(args) == 0 {
		m.line("- " + md(label) + ": no argument of its own.")
		return
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = md(ArgumentText(m.kb, layer, a))
	}
	m.line("- " + md(label) + ": " + strings.Join(parts, " "))
}

// reasonWords says in prose what kind of reason it is, after its id: ", a
// need met by llm-d", ", adds KServe"; nothing for a plain preference (its
// weight is a score, which belongs to the trace and JSON).
func reasonWords(kb *knowledge.KB, r decide.Reason) string {
	switch r.Kind {
	case decide.KindNeed:
		if r.Provided != nil && r.Provided.Product != "" && r.Product != knowledge.None {
			return ", a need met by " + kb.ProductName(r.Provided.Product)
		}
		return ", a need"
	case decide.KindStack:
		return ", chosen for the stack"
	case decide.KindDefault:
		return ", the default"
	}
	switch r.Effect {
	case knowledge.EffectPrefer, "":
		return ""
	case knowledge.EffectComplement:
		return ", adds " + kb.ProductName(r.Product)
	}
	return ", " + r.Effect
}

func (m *memo) consequences() {
	m.line("## Consequences")
	m.blank()
	if len(m.d.Risks) == 0 {
		m.para("No landmine of the chosen products applies to these answers.")
	} else {
		m.line("Risks and landmines that apply, with what to watch:")
		m.blank()
		for _, r := range m.d.Risks {
			line := fmt.Sprintf("- **%s** (%s): %s", m.productName(r.Layer, r.Product), strings.ToLower(m.layerName(r.Layer)), md(sentence(r.Text)))
			if r.Watch != "" {
				line += " Watch: " + md(sentence(r.Watch))
			}
			line += " Source: " + sourceMD(r.Source, r.AsOf) + "."
			m.line(line)
		}
		m.blank()
	}
	m.manifestsMD()
	if line := CourseNotesLine(m.kb, m.d, ""); line != "" {
		m.line("From 'Engines as Products' (the course notes this knowledge started from): " + md(line) + "; `stackpick kb changes` lists them with what holds now.")
		m.blank()
	}
}

// engineConfig writes the capacity arithmetic and the annotated launch
// command, when the decision has them.
func (m *memo) engineConfig() {
	ec := m.d.EngineConfig
	if ec == nil {
		return
	}
	m.line("## Engine settings and the arithmetic behind them")
	m.blank()
	if !ec.Covered {
		m.para(ec.Note)
		return
	}
	m.para(fmt.Sprintf("For %s on %s, written for %s. Every flag carries its defense; flags the knowledge base marks removed or renamed are never emitted.", ec.Model, ec.GPU, ec.EngineVersion))
	m.line("```sh")
	m.line(strings.TrimRight(ec.CommandText, "\n"))
	m.line("```")
	m.blank()
	m.line("| Flag | Value | Why | Source |")
	m.line("| --- | --- | --- | --- |")
	for _, l := range ec.Command {
		value := cell(l.Value)
		if value == "" {
			value = "(switch)"
		}
		m.line(fmt.Sprintf("| `%s` | %s | %s | %s |", l.Flag, value, cell(l.Defense), cell(ShortRefs(l.Source))))
	}
	m.blank()
	if len(ec.Defaults) > 0 {
		m.line("Left at their defaults:")
		m.blank()
		for _, n := range ec.Defaults {
			m.line(fmt.Sprintf("- `%s`: %s", n.Flag, md(n.Note)))
		}
		m.blank()
	}
	if ec.Sizing != nil && len(ec.Sizing.Figures) > 0 {
		m.line("Capacity arithmetic (per GPU unless stated):")
		m.blank()
		m.line("| Figure | Value | Formula |")
		m.line("| --- | --- | --- |")
		for _, f := range ec.Sizing.Figures {
			formula := f.Formula
			if f.Source != "" {
				formula += " (source: " + f.Source + ")"
			}
			m.line(fmt.Sprintf("| %s | %s | %s |", cell(f.Name), cell(f.Text()), cell(formula)))
		}
		m.blank()
	}
	for _, n := range ec.Notes {
		m.line("- Note: " + md(n))
	}
	if len(ec.Notes) > 0 {
		m.blank()
	}
}

func (m *memo) flips() {
	m.line("## What would change this decision")
	m.blank()
	// A change that moves several layers to the same stack is one flip:
	// it is listed once, with every layer it moves.
	type flip struct {
		body   string
		layers []string
	}
	var answerFlips, hwFlips []flip
	add := func(list *[]flip, lp decide.LayerPick, g FlipGroup) {
		body := m.flipBody(lp, g)
		for i := range *list {
			if (*list)[i].body == body {
				(*list)[i].layers = append((*list)[i].layers, strings.ToLower(m.layerName(lp.Layer)))
				return
			}
		}
		*list = append(*list, flip{body: body, layers: []string{m.layerName(lp.Layer)}})
	}
	for _, lp := range m.d.Layers {
		answers, hw := SplitFlips(GroupFlips(lp.Flips))
		for _, g := range answers {
			add(&answerFlips, lp, g)
		}
		for _, g := range hw {
			add(&hwFlips, lp, g)
		}
	}
	line := func(f flip) string { return "- " + joinAnd(f.layers) + ": " + f.body }
	found := len(answerFlips) > 0
	for _, f := range answerFlips {
		m.line(line(f))
	}
	var hardware []string
	for _, f := range hwFlips {
		hardware = append(hardware, line(f))
	}
	if !found && len(hardware) == 0 {
		m.line("- No single answer change moves any layer.")
	}
	if !found && len(hardware) > 0 {
		m.line("- No answer change short of the hardware moves any layer.")
	}
	m.blank()
	if len(hardware) > 0 {
		m.line("### Changing the hardware")
		m.blank()
		for _, l := range hardware {
			m.line(l)
		}
		m.blank()
	}
}

// flipBody is a flip after its layers: "`kubernetes` from required to
// none gives **SGLang · …**."
func (m *memo) flipBody(lp decide.LayerPick, g FlipGroup) string {
	key := "`" + g.Answer + "`"
	if !g.Stated {
		key += " (a default)"
	}
	return fmt.Sprintf("%s from %s to %s gives **%s**.", key, md(g.From), md(strings.Join(g.To, " or ")), md(FlipStack(m.kb, lp, g)))
}

func (m *memo) verify() {
	m.line("## Verify before committing")
	m.blank()
	for _, lp := range m.d.Layers {
		for _, id := range append([]string{lp.Pick}, lp.Also...) {
			p := m.kb.Product(id)
			if p == nil {
				continue
			}
			m.line(fmt.Sprintf("- [ ] Check the %s version you will deploy against its own documentation: flags, defaults and APIs change between releases (see %s).", p.Name, sourceMD(p.Sources[:1].Cite(true), p.Sources[:1].CheckedOn())))
		}
	}
	m.line("- [ ] Benchmark the chosen engine against its closest alternative on your own traffic (prompt and output lengths, concurrency, prefix reuse) before committing.")
	for _, r := range m.d.Risks {
		if r.Watch != "" {
			m.line(fmt.Sprintf("- [ ] Put on a dashboard or in the run book: %s", md(strings.TrimSuffix(r.Watch, "."))+"."))
		}
	}
	m.line("- [ ] Re-run `stackpick decide` when a requirement or an assumption above changes; the section above lists the changes that would move a layer.")
	m.blank()
}

func (m *memo) sources() {
	m.line("## Sources")
	m.blank()
	type src struct{ text, asOf string }
	var all []src
	// A source is listed once: a part ("; "-separated) whose path or URL
	// is already listed, titled or not, is left out.
	seen := map[string]bool{}
	add := func(text, asOf string) {
		var keep []string
		for _, part := range strings.Split(text, "; ") {
			key := part
			if _, rest, ok := strings.Cut(part, ": "); ok && rest != "" && !strings.Contains(rest, " ") {
				key = rest
			}
			if part == "" || seen[key] {
				continue
			}
			seen[key] = true
			keep = append(keep, part)
		}
		if len(keep) > 0 {
			all = append(all, src{strings.Join(keep, "; "), asOf})
		}
	}
	for _, lp := range m.d.Layers {
		for _, r := range lp.Reasons {
			add(r.Source, r.AsOf)
		}
		for _, id := range append([]string{lp.Pick}, lp.Also...) {
			if p := m.kb.Product(id); p != nil {
				for _, s := range p.Sources {
					add(s.Cite(true), knowledge.Sources{s}.CheckedOn())
				}
			}
		}
	}
	for _, r := range m.d.Risks {
		add(r.Source, r.AsOf)
	}
	for _, s := range all {
		m.line("- " + sourceFullMD(s.text, s.asOf))
	}
	m.line("- The course notes: \"01 — Engines as Products\", checked against primary sources in stackpick's knowledge base.")
}

// The memo's patterns are compiled when a memo is first written, not when
// any command starts.
var (
	urlRE  = lazyRegexp(`https?://[^\s;,)]+[^\s;,.)]`)
	codeRE = lazyRegexp(`(^|[\s(])((?:--[a-z0-9][a-z0-9_-]*)|(?:vllm:[a-z_]+)|(?:[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*@[0-9a-f]{6,}[A-Za-z0-9_./:-]*))`)
	// A shell command quoted in prose ("(helm install NAME ... -f
	// values.yaml; then kubectl apply -f file.yaml)") is one code span, up
	// to the ";", ")" or ", " that ends it, not flags in code amid words.
	cmdRE   = lazyRegexp(`\b(?:helm (?:install|upgrade) |kubectl (?:apply|create|wait) |docker compose (?:up|-f)|sh docker-run\.sh)(?:(?:[^;(),]|,\S)*[^;(),\s])?`)
	mdSpecs = strings.NewReplacer("<", `\<`, "*", `\*`, "`", "'", "[", `\[`, "]", `\]`)
	// An underscore inside a word (fine_tune_method) is literal in
	// CommonMark; only one at a word boundary could open emphasis.
	underscoreRE = lazyRegexp(`(^|[^A-Za-z0-9])_|_([^A-Za-z0-9]|$)`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func escape(s string) string {
	s = mdSpecs.Replace(s)
	return underscoreRE().ReplaceAllStringFunc(s, func(m string) string { return strings.Replace(m, "_", `\_`, 1) })
}

// md makes knowledge-base prose safe for Markdown: flags, metric names and
// repo@commit paths become code spans, URLs become autolinks, and the
// characters Markdown would read as markup are escaped.
func md(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range codeOrURL(s) {
		b.WriteString(escape(s[last:loc[0]]))
		tok := s[loc[0]:loc[1]]
		if strings.HasPrefix(tok, "http") && !strings.Contains(tok, " ") {
			b.WriteString("<" + tok + ">")
		} else {
			b.WriteString("`" + tok + "`")
		}
		last = loc[1]
	}
	b.WriteString(escape(s[last:]))
	return b.String()
}

// codeOrURL finds, in order, the spans of s that are URLs or code-like tokens.
func codeOrURL(s string) [][2]int {
	var spans [][2]int
	for _, l := range cmdRE().FindAllStringIndex(s, -1) {
		spans = append(spans, [2]int{l[0], l[1]})
	}
	for _, l := range urlRE().FindAllStringIndex(s, -1) {
		if !slices.ContainsFunc(spans, func(sp [2]int) bool { return l[0] < sp[1] && l[1] > sp[0] }) {
			spans = append(spans, [2]int{l[0], l[1]})
		}
	}
	for _, l := range codeRE().FindAllStringSubmatchIndex(s, -1) {
		start, end := l[4], l[5]
		overlaps := slices.ContainsFunc(spans, func(sp [2]int) bool { return start < sp[1] && end > sp[0] })
		if !overlaps {
			spans = append(spans, [2]int{start, end})
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	return spans
}

// sourceMD cites a source inline in the memo's body, commit ids shortened
// (ShortRefs); sourceFullMD keeps them whole for the Sources section.
func sourceMD(src, asOf string) string { return sourceFullMD(ShortRefs(src), asOf) }

func sourceFullMD(src, asOf string) string {
	s := md(src)
	if asOf != "" {
		s += " (checked " + asOf + ")"
	}
	return s
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(md(s), "|", `\|`)
}

func codeList(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "`" + id + "`"
	}
	return strings.Join(parts, ", ")
}

// enginesStatedFlags is, for each stated latency answer, the launch flags
// it set: a flag's defense opens with the batch plan it follows ("latency
// first: …") or names the target ("itl_ms 40: …").
func (m *memo) enginesStatedFlags() map[string][]string {
	ec := m.d.EngineConfig
	if ec == nil || !ec.Covered {
		return nil
	}
	a := m.d.Answers
	out := map[string][]string{}
	add := func(key string, f decide.LaunchFlag) {
		spelled := f.Flag
		if f.Value != "" {
			spelled += " " + f.Value
		}
		if !slices.Contains(out[key], spelled) {
			out[key] = append(out[key], spelled)
		}
	}
	for _, f := range ec.Command {
		head, _, _ := strings.Cut(f.Defense, ":")
		if a.StatedKey(knowledge.KeyLatencyPriority) && slices.Contains([]string{"latency first", "throughput first", "balanced"}, head) {
			add(knowledge.KeyLatencyPriority, f)
		}
		for _, key := range []string{knowledge.KeyTTFTMs, knowledge.KeyITLMs} {
			if a.StatedKey(key) && strings.HasPrefix(f.Defense, key+" ") {
				add(key, f)
			}
		}
	}
	return out
}
