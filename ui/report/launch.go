package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// EngineConfig renders the sized engine for the engine card: the launch
// command with a defense under each flag, the defaults kept, the seed's
// flags that were replaced, and the sizing figures behind the numbers.
func EngineConfig(ec *decide.EngineConfig, st Styles, width int) string {
	if ec == nil {
		return ""
	}
	var b strings.Builder
	if !ec.Covered {
		b.WriteString(st.Heading.Render("Launch command") + "\n")
		b.WriteString(wrapIndent(ec.Note, width, 2, 0, st.Muted) + "\n")
		return b.String()
	}
	b.WriteString(st.Heading.Render(fmt.Sprintf("Launch command (%s, %s on %s)", ec.EngineVersion, ec.Model, ec.GPU)) + "\n")
	head := "vllm serve " + ec.HFID
	if ec.Engine == knowledge.EngineSGLang {
		head = "python -m sglang.launch_server"
	}
	b.WriteString("  " + st.Key.Render(head) + " \\\n")
	for i, l := range ec.Command {
		line := l.Flag
		if l.Value != "" {
			line += " " + l.Value
		}
		cont := " \\"
		if i == len(ec.Command)-1 {
			cont = ""
		}
		b.WriteString("    " + st.Key.Render(line) + cont + "\n")
		b.WriteString(wrapIndent("# "+l.Defense, width, 6, 2, st.Muted) + "\n")
	}
	if len(ec.Defaults) > 0 {
		b.WriteString(st.Heading.Render("Left at their defaults") + "\n")
		for _, n := range ec.Defaults {
			b.WriteString(wrapIndent(n.Flag+": "+n.Note, width, 2, 4) + "\n")
		}
	}
	if len(ec.Replaced) > 0 {
		b.WriteString(st.Heading.Render("Seed flags not emitted (removed or renamed)") + "\n")
		for _, n := range ec.Replaced {
			b.WriteString("  " + st.Bad.Render("✗") + wrapIndent(n.Flag+": "+n.Note, width, 1, 4) + "\n")
		}
	}
	for _, n := range ec.Notes {
		b.WriteString(wrapIndent("note: "+n, width, 2, 6, st.Muted) + "\n")
	}
	if ec.Sizing != nil {
		b.WriteString(st.Heading.Render("The arithmetic behind it") + "\n")
		b.WriteString(Figures(ec.Sizing.Figures, st, width))
	}
	return b.String()
}
