package tui

import (
	"fmt"

	"github.com/stackpick/stackpick/decide"
)

// engineLines is the engine card's launch section, w cells wide: the
// command with each flag's defense under it, the flags left at their
// defaults, the seed's flags that are no longer emitted and what replaced
// them, and the sizing figures with their formulas. It reads the
// EngineConfig the decision carries; nothing here computes a number.
func engineLines(c *shared, ec *decide.EngineConfig, w int) []string {
	if ec == nil {
		return nil
	}
	st := &c.styles
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	heading := func(s string) {
		add("")
		add(wrapSpans([]span{styled(s, &st.Heading)}, w, 0, 2)...)
	}
	narrow := w < 60

	if !ec.Covered {
		heading("Launch command")
		add(wrapStyled(ec.Note, w, 0, 2, st.Muted)...)
		if len(ec.Tried) > 1 {
			heading("Layouts tried")
			for _, t := range ec.Tried {
				mark := styled("✗", &st.Bad)
				if t.Fits {
					mark = styled("✓", &st.Good)
				}
				line := fmt.Sprintf("TP %d × PP %d", t.TP, t.PP)
				if t.Why != "" {
					line += ": " + t.Why
				}
				add(wrapSpans([]span{mark, plain(" " + line)}, w, 0, 2)...)
			}
		}
		return out
	}

	heading(fmt.Sprintf("Launch command (%s, %s on %s)", ec.EngineVersion, ec.Model, ec.GPU))
	add(commandHead(c, ec, w)...)
	flagIndent, defIndent := 2, 4
	if narrow {
		defIndent = 2
	}
	for i, l := range ec.Command {
		text := l.Flag
		if l.Value != "" {
			text += " " + l.Value
		}
		line := []span{styled(text, &st.Key)}
		if i < len(ec.Command)-1 {
			line = append(line, plain(" \\"))
		}
		add(wrapSpans(line, w, flagIndent, 4)...)
		add(wrapSpans([]span{styled("# "+l.Defense, &st.Muted)}, w, defIndent, 2)...)
	}

	if len(ec.Defaults) > 0 {
		heading("Left at their defaults")
		for _, n := range ec.Defaults {
			add(wrapSpans([]span{styled(n.Flag, &st.Key), plain(": " + n.Note)}, w, 0, 2)...)
		}
	}
	if len(ec.Replaced) > 0 {
		heading("Seed flags not emitted (removed or renamed)")
		for _, n := range ec.Replaced {
			add(wrapSpans([]span{styled("✗", &st.Bad), plain(" "), styled(n.Flag, &st.Key), plain(": " + n.Note)}, w, 0, 2)...)
		}
	}
	for _, n := range ec.Notes {
		add(wrapSpans([]span{styled("note: "+n, &st.Muted)}, w, 0, 2)...)
	}

	if ec.Sizing != nil && len(ec.Sizing.Figures) > 0 {
		heading("The arithmetic behind it")
		for _, fg := range ec.Sizing.Figures {
			add(wrapSpans([]span{plain(fg.Name + ": "), styled(fg.Text(), &st.Pick)}, w, 0, 2)...)
			add(wrapSpans([]span{styled("= "+fg.Formula, &st.Muted)}, w, 2, 2)...)
			if fg.Source != "" {
				add(wrapSpans([]span{styled("source: "+fg.Source, &st.Muted)}, w, 2, 2)...)
			}
		}
	}
	return out
}

// commandHead is the command's first line ("vllm serve MODEL \"), split
// before the model when it does not fit.
func commandHead(c *shared, ec *decide.EngineConfig, w int) []string {
	st := &c.styles
	cmd, model := "vllm serve", ec.HFID
	if ec.Engine == "sglang" {
		cmd, model = "python -m sglang.launch_server", ""
	}
	cont := plain(" \\")
	if len(ec.Command) == 0 {
		cont = plain("")
	}
	if model == "" {
		return wrapSpans([]span{styled(cmd, &st.Key), cont}, w, 0, 2)
	}
	if one := cmd + " " + model + " \\"; visibleWidth(one) <= w {
		return []string{st.Key.Render(cmd+" "+model) + cont.text}
	}
	out := []string{st.Key.Render(cmd) + " \\"}
	indent := 2
	if visibleWidth(model)+len(cont.text)+indent > w {
		indent = 0 // a narrow card: the model id whole beats the indent
	}
	return append(out, wrapSpans([]span{styled(model, &st.Key), cont}, w, indent, 0)...)
}
