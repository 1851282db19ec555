package report

import (
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// EmptyLayer is how every surface names a layer left empty ("no model
// server"): the stack line, the cards, the live stack, the memo and the
// drills all say it through here. It is knowledge.ChoiceName's empty
// choice, which decide's why-not texts use too ("outscored: no model server
// 1 vs …"), so the wording lives in one place.
func EmptyLayer(kb *knowledge.KB, layer string) string {
	return kb.ChoiceName(layer, knowledge.None)
}

// PickText names a layer's pick and its complements: "llm-d + KServe",
// "no model server".
func PickText(kb *knowledge.KB, lp decide.LayerPick) string {
	if lp.Pick == knowledge.None && len(lp.Also) == 0 {
		return EmptyLayer(kb, lp.Layer)
	}
	s := kb.ChoiceName(lp.Layer, lp.Pick)
	for _, a := range lp.Also {
		s += " + " + kb.ProductName(a)
	}
	return s
}

// LayerTitle is a layer's name as a card's title: "MODEL SERVER".
func LayerTitle(kb *knowledge.KB, layer string) string {
	return strings.ToUpper(kb.Layer(layer).Name)
}

// StackLine is the one-line summary: "vLLM · no model server · llm-d + KServe".
func StackLine(kb *knowledge.KB, d decide.Decision) string {
	parts := make([]string, 0, len(d.Layers))
	for _, lp := range d.Layers {
		parts = append(parts, PickText(kb, lp))
	}
	return strings.Join(parts, " · ")
}

// ServesLine says which component serves which model, when there is more
// than the LLM to serve: "Serves: llama-3.3-70b, embedding → vLLM; vision,
// tabular → Dynamo-Triton". Empty when the engine serves the LLM alone.
func ServesLine(kb *knowledge.KB, d decide.Decision) string {
	if len(d.Serves) == 1 && len(d.Serves[0].Models) == 1 {
		return ""
	}
	parts := make([]string, 0, len(d.Serves))
	for _, sv := range d.Serves {
		who := kb.ChoiceName(sv.Layer, sv.Product)
		if sv.Product == knowledge.None {
			who += " (nothing fits: no component serves them)"
		}
		parts = append(parts, strings.Join(sv.Models, ", ")+" → "+who)
	}
	return "Serves: " + strings.Join(parts, "; ")
}

// SourceText is "source: SRC (checked DATE)", commit ids shortened
// (ShortRefs): it is for body text, not a Sources list.
func SourceText(src, asOf string) string {
	src = ShortRefs(src)
	if asOf != "" {
		return "source: " + src + " (checked " + asOf + ")"
	}
	return "source: " + src
}

// FlipGroup joins flips of one answer that lead to the same outcome, so
// "other_model_types → vision | tabular | …" reads as one line.
type FlipGroup struct {
	Answer, From, Pick string
	Also               []string
	To                 []string
	// Stack is the whole stack the change leads to; Stated says the answer
	// changed was the user's; Hardware marks a change of accelerator class.
	Stack            []decide.Placed
	Stated, Hardware bool
}

// GroupFlips groups a layer's flips by answer and outcome, in flip order.
func GroupFlips(flips []decide.Flip) []FlipGroup {
	var out []FlipGroup
	for _, f := range flips {
		found := false
		for i := range out {
			g := &out[i]
			if g.Answer == f.Answer && g.Pick == f.Pick && strings.Join(g.Also, ",") == strings.Join(f.Also, ",") && placedKey(g.Stack) == placedKey(f.Stack) {
				g.To = append(g.To, f.To)
				found = true
				break
			}
		}
		if !found {
			out = append(out, FlipGroup{Answer: f.Answer, From: f.From, Pick: f.Pick, Also: f.Also, To: []string{f.To}, Stack: f.Stack, Stated: f.Stated, Hardware: f.Hardware})
		}
	}
	return out
}

func placedKey(st []decide.Placed) string {
	var b strings.Builder
	for _, p := range st {
		b.WriteString(p.Layer + "=" + p.Pick + "+" + strings.Join(p.Also, "+") + ";")
	}
	return b.String()
}

// SplitFlips keeps decide's order and parts the groups into answer changes
// and hardware-class changes (shown last, under their own heading).
func SplitFlips(gs []FlipGroup) (answers, hardware []FlipGroup) {
	for _, g := range gs {
		if g.Hardware {
			hardware = append(hardware, g)
		} else {
			answers = append(answers, g)
		}
	}
	return answers, hardware
}

// FlipChange is the change of a flip group: "kubernetes: none → available"
// with "(default)" when the answer was not stated.
func FlipChange(g FlipGroup) string {
	key := g.Answer
	if !g.Stated {
		key += " (default)"
	}
	return key + ": " + g.From + " → " + strings.Join(g.To, " | ")
}

// FlipStack is the whole stack a flip group leads to, or its layer's
// outcome when decide gave no stack.
func FlipStack(kb *knowledge.KB, lp decide.LayerPick, g FlipGroup) string {
	if len(g.Stack) > 0 {
		return PlacedLine(kb, g.Stack)
	}
	return Outcome(kb, lp, g.Pick, g.Also)
}

// Outcome names what a flip leads to; when only the complements change it
// says so ("llm-d alone", "KServe + llm-d").
func Outcome(kb *knowledge.KB, lp decide.LayerPick, pick string, also []string) string {
	s := PickText(kb, decide.LayerPick{Layer: lp.Layer, Pick: pick, Also: also})
	if pick == lp.Pick && len(also) == 0 && len(lp.Also) > 0 {
		s += " alone"
	}
	return s
}

// AnswersHeader is the comment atop a saved answers file: where the
// answers came from, the stack they decide and the command that replays
// them, for the app and the line mode alike.
func AnswersHeader(kb *knowledge.KB, d decide.Decision, origin, replay string) string {
	return "stackpick answers: " + origin + "\nStack: " + StackLine(kb, d) + "\nReplay: " + replay
}

// PickedText names what a drill answer picked for layer: the product, the
// empty layer in its one wording, or "nothing" when no answer was given.
// The app and the line mode grade with it alike.
func PickedText(kb *knowledge.KB, layer, id string) string {
	if id == "" {
		return "nothing"
	}
	return kb.ChoiceName(layer, id)
}

// PlacedText names the layer a taxonomy answer placed a product in, in
// running text ("model server"), or "nothing" when it was left unplaced.
func PlacedText(kb *knowledge.KB, layer string) string {
	if l := kb.Layer(layer); l != nil {
		return strings.ToLower(l.Name)
	}
	return "nothing"
}
