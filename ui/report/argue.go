package report

import (
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// The words for a decision's v2 trace: layer states, assumptions, arguments
// for and against alternatives, close calls and flips. The card, the text
// and the memo all word them through here.

// StateText says which kind of outcome a layer has, never worded alike:
// the pick's name, "no model server · not needed", "no orchestrator ·
// nothing fits".
func StateText(kb *knowledge.KB, lp decide.LayerPick) string {
	switch lp.State {
	case decide.StateNotNeeded:
		return PickText(kb, lp) + " · not needed"
	case decide.StateNothingFits:
		return PickText(kb, lp) + " · nothing fits"
	}
	return PickText(kb, lp)
}

// WhyHeading is the heading over a layer's reasons, by state.
func WhyHeading(lp decide.LayerPick) string {
	switch lp.State {
	case decide.StateNotNeeded:
		return "Why it is not needed"
	case decide.StateNothingFits:
		return "Why nothing fits"
	}
	return "Why"
}

// AssumptionText is a defaulted answer as an assumption with the question
// that would confirm it: "assumes change_cadence = monthly (default): How
// often do models or hardware change?".
func AssumptionText(kb *knowledge.KB, d decide.Decision, key string) string {
	for _, a := range d.Assumptions {
		if a.Key == key {
			if a.Means != "" {
				return "assumes " + a.Key + " = " + a.Value + " (default: " + a.Means + "): " + a.Question
			}
			return "assumes " + a.Key + " = " + a.Value + " (default): " + a.Question
		}
	}
	value, question := "", ""
	if q := kb.Question(key); q != nil {
		question = q.Prompt
		if i := kb.QuestionIndex(key); i >= 0 && i < len(d.Answers.Values()) {
			value = d.Answers.Values()[i].Plain(q.Type)
		}
	}
	s := "assumes " + key
	if value != "" {
		s += " = " + value
	}
	s += " (default)"
	if question != "" {
		s += ": " + question
	}
	return s
}

// AssumptionLine is one of d.Assumptions in a list: "change_cadence =
// monthly (default): How often …? Rests on it: rule, …".
func AssumptionLine(a decide.Assumption) string {
	s := a.Key + " = " + a.Value + " (default" + meansText(a) + "): " + a.Question
	if len(a.For) > 0 {
		s += " Rests on it: " + strings.Join(a.For, ", ") + "."
	}
	return s
}

// ReasonWords names what kind of case a reason makes, for a reader, with
// no rule id or weight: "needed, met by KServe", "adds KServe", "chosen
// for the stack", "the default", or "" for a plain preference.
func ReasonWords(kb *knowledge.KB, r decide.Reason) string {
	switch r.Kind {
	case decide.KindNeed:
		if r.Provided != nil && r.Provided.Product != "" && r.Product != knowledge.None {
			return "needed, met by " + kb.ProductName(r.Provided.Product)
		}
		return "needed"
	case decide.KindStack:
		return "chosen for the stack"
	case decide.KindDefault:
		return "the default"
	}
	switch r.Effect {
	case knowledge.EffectComplement:
		return "adds " + kb.ProductName(r.Product)
	case knowledge.EffectRequire:
		return "required"
	}
	return ""
}

// AssumptionWords is one of d.Assumptions for a reader: "replicas = 0
// (default: 4 per model, …): How many replicas …?", without the rules that
// rest on it (the trace view's AssumptionLine names them).
func AssumptionWords(a decide.Assumption) string {
	return a.Key + " = " + a.Value + " (default" + meansText(a) + "): " + a.Question
}

// ReasonHead names a reason by kind: "gitops-kserve (+3)", "need
// fleet-routing, met by KServe", "default".
func ReasonHead(kb *knowledge.KB, r decide.Reason) string {
	switch r.Kind {
	case decide.KindNeed:
		s := "need " + r.Rule
		if r.Provided != nil && r.Provided.Product != "" && r.Product != knowledge.None {
			s += ", met by " + kb.ProductName(r.Provided.Product)
		}
		return s
	case decide.KindStack:
		return r.Rule + " (chosen for the stack)"
	case decide.KindDefault:
		return r.Rule + " (default)"
	}
	if e := EffectText(kb, r); e != "" {
		return r.Rule + " (" + e + ")"
	}
	return r.Rule
}

// ArgumentText words one argument for a reader. A need's argument says
// what is missing without decide's "none lacks …" for an empty layer.
func ArgumentText(kb *knowledge.KB, layer string, a decide.Argument) string {
	if a.Kind == decide.KindNeed {
		if head, rest, ok := strings.Cut(a.Text, ", which the answers need: "); ok {
			if a.Product == knowledge.None {
				return "With " + EmptyLayer(kb, layer) + ", a need goes unmet: " + rest
			}
			// decide names the feature by its vocabulary id; the need's
			// own words say what it is.
			if who, _, ok := strings.Cut(head, " lacks "); ok {
				return who + " does not provide what the answers need: " + rest
			}
		}
	}
	return a.Text
}

// AltStatus is the short state of an alternative after its name:
// "excluded", "does not fit the stack", "would win the layer alone",
// "close call", "lost on the arguments".
func AltStatus(lp decide.LayerPick, alt decide.Alternative) string {
	switch {
	case alt.Excluded:
		return "excluded"
	case alt.Trade:
		return "would win the layer alone"
	case lp.CloseCall != nil && lp.CloseCall.Other == alt.Product:
		if lp.CloseCall.Tie {
			return "tie"
		}
		return "close call"
	case alt.Unfit && noCase(alt):
		return "nothing argues for it"
	case alt.Unfit:
		return "does not fit the stack"
	}
	return "lost on the arguments"
}

// TradeText says what a trade gave up: "TensorRT-LLM would win the engine
// alone, but its best stack is TensorRT-LLM · no model server · NVIDIA
// Dynamo, which loses as a whole:".
func TradeText(kb *knowledge.KB, layer string, alt decide.Alternative) string {
	s := kb.ChoiceName(layer, alt.Product) + " would win the " + strings.ToLower(kb.Layer(layer).Name) + " alone, but"
	if len(alt.Stack) > 0 {
		return s + " its best stack, " + PlacedLine(kb, alt.Stack) + ", loses as a whole:"
	}
	return s + " no whole stack places it:"
}

// AltArg is one worded argument about an alternative; For names the
// product it speaks for when that is not the alternative itself ("vLLM"
// when the pick's own case decided, "llm-d" when another layer's did).
type AltArg struct{ Text, For string }

// Label is the argument's label with the product it speaks for:
// "decisive (for vLLM)".
func (a AltArg) Label(kind string) string {
	if a.For != "" {
		return kind + " (for " + a.For + ")"
	}
	return kind
}

// AltArguments are an alternative's arguments, in the order a reader
// weighs them: an excluded choice only why it is excluded; otherwise what
// it had for it, then what decided against it (decisive first, then the
// rest of what counted against it).
func AltArguments(kb *knowledge.KB, d decide.Decision, layer string, alt decide.Alternative) (pro, decisive, against []AltArg) {
	arg := func(a decide.Argument) AltArg {
		x := AltArg{Text: ArgumentText(kb, layer, a) + AssumesSuffix(kb, d, a.Assumes)}
		if a.Product != "" && a.Product != alt.Product && a.Kind != decide.KindCapability {
			x.For = kb.ChoiceName(layerOf(kb, a.Product, layer), a.Product)
		}
		return x
	}
	if alt.Excluded {
		for _, a := range alt.Against {
			against = append(against, AltArg{Text: ArgumentText(kb, layer, a) + AssumesSuffix(kb, d, a.Assumes)})
		}
		return nil, nil, against
	}
	for _, a := range alt.For {
		pro = append(pro, AltArg{Text: ArgumentText(kb, layer, a) + AssumesSuffix(kb, d, a.Assumes)})
	}
	seen := map[string]bool{}
	for _, a := range alt.Decisive {
		x := arg(a)
		if !seen[x.Text] {
			seen[x.Text] = true
			decisive = append(decisive, x)
		}
	}
	for _, a := range alt.Against {
		x := arg(a)
		if !seen[x.Text] {
			seen[x.Text] = true
			against = append(against, x)
		}
	}
	if len(pro) == 0 && len(decisive) == 0 && len(against) == 0 {
		for _, w := range alt.WhyNot {
			against = append(against, AltArg{Text: w})
		}
	}
	return pro, decisive, against
}

// layerOf is the layer a product sits on, or fallback (for "none").
func layerOf(kb *knowledge.KB, product, fallback string) string {
	if p := kb.Product(product); p != nil {
		return p.Layer
	}
	return fallback
}

// CloseCallTitle is "Close call: vLLM or SGLang" or "Tie: Ray Serve or
// SGLang router".
func CloseCallTitle(kb *knowledge.KB, lp decide.LayerPick) string {
	cc := lp.CloseCall
	kind := "Close call"
	if cc.Tie {
		kind = "Tie"
	}
	return kind + ": " + PickText(kb, lp) + " or " + PickText(kb, decide.LayerPick{Layer: lp.Layer, Pick: cc.Other, Also: cc.OtherAlso})
}

// CloseCallTip says the answer that would tip a close call, or that none
// does.
func CloseCallTip(kb *knowledge.KB, lp decide.LayerPick) string {
	cc := lp.CloseCall
	if cc.Tip == nil {
		return "No single answer tips it."
	}
	s := "Tips it: " + cc.Tip.Answer + ": " + cc.Tip.From + " → " + cc.Tip.To + " gives " + PickText(kb, decide.LayerPick{Layer: lp.Layer, Pick: cc.Tip.Pick, Also: cc.Tip.Also})
	if !cc.Tip.Stated {
		s += " (" + cc.Tip.Answer + " is a default)"
	}
	return s + "."
}

// PlacedLine is StackLine for a stack a flip or an alternative leads to.
func PlacedLine(kb *knowledge.KB, stack []decide.Placed) string {
	parts := make([]string, 0, len(stack))
	for _, p := range stack {
		part := PickText(kb, decide.LayerPick{Layer: p.Layer, Pick: p.Pick, Also: p.Also})
		if p.State == decide.StateNothingFits {
			part += " (nothing fits)"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ")
}

// ConflictAnswers joins a conflict's answers as "kubernetes = none ×
// governance = vendor-neutral".
func ConflictAnswers(c decide.Conflict) string { return strings.Join(c.Answers, " × ") }

// AssumesSuffix marks an argument that rests on defaulted answers:
// " (assumes change_cadence = monthly, a default)".
func AssumesSuffix(kb *knowledge.KB, d decide.Decision, keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + answerValue(kb, d, k)
	}
	if len(keys) == 1 {
		return " (assumes " + parts[0] + ", a default)"
	}
	return " (assumes " + strings.Join(parts, ", ") + ", defaults)"
}

func answerValue(kb *knowledge.KB, d decide.Decision, key string) string {
	q := kb.Question(key)
	i := kb.QuestionIndex(key)
	if q == nil || i < 0 || i >= len(d.Answers.Values()) {
		return "?"
	}
	return d.Answers.Values()[i].Plain(q.Type)
}

func noCase(alt decide.Alternative) bool {
	if len(alt.Decisive) == 0 {
		return false
	}
	for _, a := range alt.Decisive {
		if a.Kind != decide.KindNoCase {
			return false
		}
	}
	return true
}

// meansText is ": 4 per model, …" for a default that stands for a computed
// value, else "".
func meansText(a decide.Assumption) string {
	if a.Means == "" {
		return ""
	}
	return ": " + a.Means
}
