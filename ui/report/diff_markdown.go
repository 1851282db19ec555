package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// DiffMarkdown renders a diff as a Markdown document: the two stacks as a
// table, the answers that differ, each layer that moved with why, and the
// engine settings that changed.
func DiffMarkdown(dd DecisionDiff) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line("# Two decisions compared: " + md(dd.A.Label) + " and " + md(dd.B.Label))
	line("")
	if dd.Identical {
		line("A (" + md(dd.A.Label) + ") and B (" + md(dd.B.Label) + ") are the same decision: the same answers, the same stack (" + md(dd.A.Stack) + ") and the same engine settings.")
		return b.String()
	}
	line("## Stacks")
	line("")
	line("| Layer | A: " + cell(dd.A.Label) + " | B: " + cell(dd.B.Label) + " |")
	line("| --- | --- | --- |")
	for _, l := range dd.Layers {
		bCell := cell(l.B)
		if len(l.Moved) > 0 {
			bCell = "**" + bCell + "** (moved)"
		}
		line("| " + cell(l.Name) + " | " + cell(l.A) + " | " + bCell + " |")
	}
	line("")
	line("## Answers that differ")
	line("")
	answersMD(&b, dd, "A", "B")
	line("## What moved and why")
	line("")
	moved := dd.Moved()
	if len(moved) == 0 {
		line("No pick moved: both decisions choose " + md(dd.B.Stack) + ".")
		line("")
	}
	for _, l := range moved {
		line("### " + md(l.Name) + ": " + md(l.A) + " → " + md(l.B))
		line("")
		movedMD(&b, l, "A", "B")
	}
	line("## Engine settings that changed")
	line("")
	engineMD(&b, dd, "A", "B")
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// PinnedMarkdown is the memo's block for a pinned alternative: a level-3
// heading naming it, its stack beside the chosen one, the answers that
// differ, and per layer that moved what the pinned decision chose and
// why it moved, from the two traces. pinned is the alternative (A),
// current the decision the memo records (B).
func PinnedMarkdown(kb *knowledge.KB, pinned, current decide.Decision, label string) string {
	if label == "" {
		label = "pinned decision"
	}
	dd := DiffDecisions(kb, pinned, current, label, "chosen")
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line("### The pinned alternative: " + md(label))
	line("")
	if dd.Identical {
		line("The pinned decision is the one recorded here: the same answers and the same stack (" + md(dd.A.Stack) + ").")
		return b.String()
	}
	line("Pinned stack: " + md(dd.A.Stack) + ". Chosen stack: " + md(dd.B.Stack) + ".")
	line("")
	line("Answers that differ, pinned → chosen:")
	line("")
	answersMD(&b, dd, "pinned", "chosen")
	moved := dd.Moved()
	if len(moved) == 0 {
		line("No pick moved between them.")
		line("")
	}
	for _, l := range moved {
		line(md(l.Name) + ": the pinned decision chose " + md(l.A) + "; this record chooses " + md(l.B) + ".")
		line("")
		movedMD(&b, l, "the pinned decision", "this record")
	}
	if len(dd.Engine) > 0 {
		line("Engine settings, pinned → chosen:")
		line("")
		engineMD(&b, dd, "pinned", "chosen")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// answersMD lists the answers that differ as bullets: "`kubernetes`:
// available → none (Is Kubernetes …?)", a default marked.
func answersMD(b *strings.Builder, dd DecisionDiff, a, bName string) {
	if len(dd.Answers) == 0 {
		b.WriteString("None: the answers are the same.\n\n")
		return
	}
	for _, ans := range dd.Answers {
		fmt.Fprintf(b, "- `%s`: %s %s → %s %s. %s\n", ans.Key, a, mdValue(ans.A, ans.AStated), bName, mdValue(ans.B, ans.BStated), md(ans.Question))
	}
	b.WriteString("\n")
}

func mdValue(v string, stated bool) string {
	s := "`" + strings.ReplaceAll(v, "`", "'") + "`"
	if !stated {
		s += " (default)"
	}
	return s
}

// movedMD writes how each pick fared on the other side and the arguments
// that hold on one side only, as nested bullets.
func movedMD(b *strings.Builder, l LayerDiff, a, bName string) {
	if l.AInB != "" {
		fmt.Fprintf(b, "- In %s, %s: %s.\n", bName, md(pickOf(l.A)), md(l.AInB))
	}
	if l.BInA != "" {
		fmt.Fprintf(b, "- In %s, %s: %s.\n", a, md(pickOf(l.B)), md(l.BInA))
	}
	list := func(side, other string, items []WhyItem) {
		if len(items) == 0 {
			fmt.Fprintf(b, "- Only in %s: nothing of its own.\n", side)
			return
		}
		fmt.Fprintf(b, "- Only in %s:\n", side)
		for _, it := range items {
			s := md(it.Text)
			if h := WhyHead(it); h != "" {
				s = md(h) + ": " + s
			}
			if it.Other != "" {
				s += " (in " + other + ", " + md(it.Other) + ")"
			}
			if it.Kind != WhyExcluded && it.Kind != WhyUnfit && (it.ProductName == "" || !strings.HasPrefix(s, md(it.ProductName))) {
				s = Capitalize(s) // a line that starts with a product keeps its spelling (vLLM, llm-d)
			}
			b.WriteString("  - " + s + "\n")
		}
	}
	list(a, bName, l.OnlyA)
	list(bName, a, l.OnlyB)
	b.WriteString("\n")
}

// engineMD is the engine settings that differ as a table.
func engineMD(b *strings.Builder, dd DecisionDiff, a, bName string) {
	if len(dd.Engine) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	fmt.Fprintf(b, "| Setting | %s | %s |\n| --- | --- | --- |\n", a, bName)
	for _, s := range dd.Engine {
		fmt.Fprintf(b, "| %s | %s | %s |\n", cell(s.Setting), cell(s.A), cell(s.B))
	}
	b.WriteString("\n")
}
