package report

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/decide/sizing"
)

// EngineCard is the engine card's launch section, lines at most w cells
// wide: the command with each flag's defense under it, the flags left at
// their defaults, and the sizing figures with their formulas. It reads
// the EngineConfig the decision carries; nothing here computes a number.
func EngineCard(ec *decide.EngineConfig, st Styles, w int) []string {
	if ec == nil {
		return nil
	}
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	heading := func(s string) {
		add("")
		add(WrapSpans([]Span{Styled(s, &st.Heading)}, w, 0, 2)...)
	}
	narrow := w < 60

	if !ec.Covered {
		heading("Launch command")
		add(WrapStyled(ec.Note, w, 0, 2, st.Muted)...)
		if len(ec.Tried) > 1 {
			heading("Layouts tried")
			add(TriedLines(ec.Tried, st, w, 0)...)
		}
		return out
	}

	heading(fmt.Sprintf("Launch command (%s, %s on %s)", ec.EngineVersion, ec.Model, ec.GPU))
	flagIndent, defIndent := 2, 4
	if narrow {
		defIndent = 2
	}
	// command writes one copy-pasteable command: the flags every instance
	// takes and those of role (all of them when role is ""), each with its
	// defense unless it was already defended above.
	defended := map[int]bool{}
	command := func(role string) {
		var flags []int
		for i, l := range ec.Command {
			if l.Role == "" || l.Role == role {
				flags = append(flags, i)
			}
		}
		// The command first, with nothing between its lines, so it pastes
		// into a shell as it is; the defenses follow it.
		add(commandHead(ec, st, w, len(flags) > 0)...)
		for k, i := range flags {
			l := ec.Command[i]
			text := l.Flag
			if l.Value != "" {
				text += " " + l.Value
			}
			cont := ""
			if k < len(flags)-1 {
				cont = " \\"
			}
			if flagIndent+len(text)+len(cont) <= w || l.Value == "" {
				add(WrapSpans([]Span{Styled(text, &st.Key), Plain(cont)}, w, flagIndent, 4)...)
				continue
			}
			// Too long for the width: the value goes on a continuation
			// line of its own and is never wrapped (a break inside a
			// quoted value would change it), so the command still pastes.
			add(strings.Repeat(" ", flagIndent) + st.Key.Render(l.Flag) + " \\")
			for _, piece := range shellPieces(l.Value, w-flagIndent-2-len(cont)) {
				add(st.Key.Render(piece.text) + piece.tail + cont)
			}
		}
		first := true
		for _, i := range flags {
			if defended[i] {
				continue
			}
			if first {
				add(st.Muted.Render(Truncate("Why each flag:", w)))
				first = false
			}
			l := ec.Command[i]
			add(WrapSpans([]Span{Styled(l.Flag, &st.Key), Plain(": "), Styled(l.Defense, &st.Muted)}, w, flagIndent, defIndent)...)
			if l.Source != "" {
				add(WrapSpans([]Span{Styled("source: "+l.Source, &st.Muted)}, w, defIndent, 2)...)
			}
			defended[i] = true
		}
	}
	if len(ec.Roles) == 0 {
		command("")
	}
	for i, rc := range ec.Roles {
		if i > 0 {
			add("")
		}
		head := fmt.Sprintf("%s instances, a command of its own", Capitalize(rc.Role))
		if rc.Split != "" {
			head += ": " + rc.Split
		}
		if i > 0 {
			head += "; the flags defended above are the same"
		}
		add(WrapSpans([]Span{Styled(head, &st.Pick)}, w, 0, 2)...)
		command(rc.Role)
	}

	if len(ec.Defaults) > 0 {
		heading("Left at their defaults")
		for _, n := range ec.Defaults {
			add(WrapSpans([]Span{Styled(n.Flag, &st.Key), Plain(": " + n.Note)}, w, 0, 2)...)
		}
	}
	for _, n := range ec.Notes {
		add(WrapSpans([]Span{Styled("note: "+n, &st.Muted)}, w, 0, 2)...)
	}

	if ec.Sizing != nil && len(ec.Sizing.Figures) > 0 {
		heading("The arithmetic behind it")
		add(FigureLines(ec.Sizing.Figures, st, w, 0)...)
	}
	return out
}

// FigureLines renders sizing figures as "name: value" with the formula and
// the source indented below, for the engine card and the size command alike.
func FigureLines(figs []sizing.Figure, st Styles, w, indent int) []string {
	var out []string
	for _, fg := range figs {
		out = append(out, WrapSpans([]Span{Plain(fg.Name + ": "), Styled(fg.Text(), &st.Pick)}, w, indent, 2)...)
		out = append(out, WrapSpans([]Span{Styled("= "+fg.Formula, &st.Muted)}, w, indent+2, 2)...)
		if fg.Source != "" {
			out = append(out, WrapSpans([]Span{Styled("source: "+fg.Source, &st.Muted)}, w, indent+2, 2)...)
		}
	}
	return out
}

// TriedLines lists the parallel layouts sizing tried, each marked fits or
// not, with why.
func TriedLines(tried []sizing.Tried, st Styles, w, indent int) []string {
	var out []string
	for _, t := range tried {
		mark := Styled("✗", &st.Bad)
		if t.Fits {
			mark = Styled("✓", &st.Good)
		}
		line := fmt.Sprintf("TP %d × PP %d", t.TP, t.PP)
		if t.Why != "" {
			line += ": " + t.Why
		}
		out = append(out, WrapSpans([]Span{mark, Plain(" " + line)}, w, indent, 2)...)
	}
	return out
}

// commandHead is the command's first line ("vllm serve MODEL \"), split
// before the model when it does not fit.
func commandHead(ec *decide.EngineConfig, st Styles, w int, more bool) []string {
	cmd, model := ec.Program()
	cont := Plain(" \\")
	if !more {
		cont = Plain("")
	}
	if model == "" {
		return WrapSpans([]Span{Styled(cmd, &st.Key), cont}, w, 0, 2)
	}
	if one := cmd + " " + model + " \\"; ansi.StringWidth(one) <= w {
		return []string{st.Key.Render(cmd+" "+model) + cont.Text}
	}
	out := []string{st.Key.Render(cmd) + " \\"}
	indent := 2
	if ansi.StringWidth(model)+len(cont.Text)+indent > w {
		indent = 0 // a narrow card: the model id whole beats the indent
	}
	return append(out, WrapSpans([]Span{Styled(model, &st.Key), cont}, w, indent, 0)...)
}

// Capitalize upper-cases the first letter of s ("prefill" → "Prefill").
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

type shellPiece struct{ text, tail string }

// shellPieces splits a value too long for the width into lines that the
// shell joins back into the same word: a single-quoted value is cut after
// its commas into 'a,'\ + 'b' (adjacent quoted strings make one word, and
// a backslash-newline outside the quotes is removed, so the pieces start
// in column 0). Anything else stays whole on one line.
func shellPieces(v string, w int) []shellPiece {
	n := len(v)
	if n < 2 || v[0] != '\'' || v[n-1] != '\'' || strings.Contains(v[1:n-1], "'") || w < 8 {
		return []shellPiece{{text: "  " + v}}
	}
	inner := v[1 : n-1]
	var out []shellPiece
	for len(inner) > 0 {
		cut := len(inner)
		if cut > w-3 {
			cut = strings.LastIndex(inner[:w-3], ",") + 1
			if cut <= 0 {
				cut = w - 3
			}
		}
		out = append(out, shellPiece{text: "'" + inner[:cut] + "'", tail: "\\"})
		inner = inner[cut:]
	}
	out[len(out)-1].tail = ""
	return out
}

// LaunchCommand is the launch command as plain text that pastes into a
// shell: no borders, no colour, no comment after a continuation. With
// w <= 0 it is the command as the clipboard takes it, one flag to a line
// and nothing else (with prefill and decode roles, one command per role, a
// blank line between them). With w > 0 it is the plain view of a screen w
// cells wide: each command broken only where the shell joins it back (a
// value too long goes on a line of its own, a quoted list is cut after its
// commas), a role's command under a comment line naming the role, and
// after a blank line the why of each flag with its source, then the
// command's notes (the release it is written for and what was not checked
// there, what must be added). It is "" when the decision has no launch
// command.
func LaunchCommand(ec *decide.EngineConfig, w int) string {
	if ec == nil || !ec.Covered || len(ec.Command) == 0 {
		return ""
	}
	fit := w > 0
	cmd, model := ec.Program()
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	command := func(role string) {
		var flags []decide.LaunchFlag
		for _, l := range ec.Command {
			if l.Role == "" || l.Role == role {
				flags = append(flags, l)
			}
		}
		cont := func(last bool) string {
			if last {
				return ""
			}
			return " \\"
		}
		head := cmd
		if model != "" {
			head += " " + model
		}
		switch {
		case !fit || len(head)+len(cont(len(flags) == 0)) <= w || model == "":
			add(head + cont(len(flags) == 0))
		default:
			indent := "  "
			if len(indent)+len(model)+2 > w {
				indent = "" // a narrow screen: the model id whole beats the indent
			}
			add(cmd+" \\", indent+model+cont(len(flags) == 0))
		}
		for k, l := range flags {
			tail := cont(k == len(flags)-1)
			text := l.Flag
			if l.Value != "" {
				text += " " + l.Value
			}
			if !fit || 2+len(text)+len(tail) <= w || l.Value == "" {
				add("  " + text + tail)
				continue
			}
			// The value on continuation lines of its own, never broken
			// inside a word, so the shell reads the same command.
			add("  " + l.Flag + " \\")
			for _, piece := range shellPieces(l.Value, w-4-len(tail)) {
				add(piece.text + piece.tail + tail)
			}
		}
	}
	if len(ec.Roles) == 0 {
		command("")
	}
	for i, rc := range ec.Roles {
		if i > 0 {
			add("")
		}
		if fit {
			label := "# " + Capitalize(rc.Role) + " instances"
			if rc.Split != "" {
				label += ": " + rc.Split
			}
			for j, l := range Wrap(label, w, 0, 2) {
				if j > 0 {
					l = "#" + l[1:] // a wrapped label stays a comment
				}
				add(l)
			}
		}
		command(rc.Role)
	}
	if fit {
		add("", "Why each flag:")
		seen := map[string]bool{}
		for _, l := range ec.Command {
			if id := l.Flag + " " + l.Defense; !seen[id] {
				seen[id] = true
				add(Wrap(l.Flag+": "+l.Defense, w, 2, 2)...)
				if l.Source != "" {
					add(Wrap("source: "+l.Source, w, 4, 2)...)
				}
			}
		}
		// What was and was not checked at the release, and what the
		// command leaves to the reader, stay with the command people copy.
		if len(ec.Notes) > 0 {
			add("", "Notes:")
			for _, n := range ec.Notes {
				add(Wrap("- "+n, w, 0, 2)...)
			}
		}
	}
	return strings.Join(out, "\n")
}
