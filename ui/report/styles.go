// Package report renders knowledge and decisions as text for the command
// line (and, later, the TUI's static panes): decision cards, the questions
// list, the rules table, the scenarios list. Renderers read a Decision; they
// never compute one. Colour is applied through semantic styles and removed
// by the writer when the output is not a colour terminal.
package report

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Styles are the semantic styles every renderer uses; no renderer picks a
// colour inline.
type Styles struct {
	Title   lipgloss.Style
	Layer   lipgloss.Style
	Pick    lipgloss.Style
	Heading lipgloss.Style
	RuleID  lipgloss.Style
	Good    lipgloss.Style
	Bad     lipgloss.Style
	Warn    lipgloss.Style
	Muted   lipgloss.Style
	Key     lipgloss.Style
}

// DefaultStyles are tuned for dark and light terminals alike.
func DefaultStyles() Styles {
	return Styles{
		Title:   lipgloss.NewStyle().Bold(true),
		Layer:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#7D56F4")),
		Pick:    lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#04B575")),
		Heading: lipgloss.NewStyle().Bold(true),
		RuleID:  lipgloss.NewStyle().Foreground(lipgloss.Color("#5A9BD5")),
		Good:    lipgloss.NewStyle().Foreground(lipgloss.Color("#04B575")),
		Bad:     lipgloss.NewStyle().Foreground(lipgloss.Color("#E05561")),
		Warn:    lipgloss.NewStyle().Foreground(lipgloss.Color("#E5A03B")),
		Muted:   lipgloss.NewStyle().Foreground(lipgloss.Color("#8A8A8A")),
		Key:     lipgloss.NewStyle().Foreground(lipgloss.Color("#C792EA")),
	}
}

// wrapIndent word-wraps s (plain text) to width, indenting the first line
// by indent and continuation lines by indent+hang, and renders each line
// with style (if given) so colour never bleeds into the indentation. Words
// are never split, hyphenated flags included: a long word gets its own line.
func wrapIndent(s string, width, indent, hang int, style ...lipgloss.Style) string {
	if width < 60 { // narrow terminal: hanging indents cost too much room
		hang = min(hang, 2)
		indent = min(indent, 4)
	}
	avail := max(width-indent-hang, 10)
	var words []string
	for _, word := range strings.Fields(s) {
		// A word wider than the line (a long URL) is cut, not left to overflow.
		for ansi.StringWidth(word) > avail {
			words = append(words, ansi.Truncate(word, avail, ""))
			word = ansi.TruncateLeft(word, avail, "")
		}
		words = append(words, word)
	}
	var lines []string
	var cur strings.Builder
	curW := 0
	for _, word := range words {
		w := ansi.StringWidth(word)
		if curW > 0 && curW+1+w > avail {
			lines = append(lines, cur.String())
			cur.Reset()
			curW = 0
		}
		if curW > 0 {
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(word)
		curW += w
	}
	lines = append(lines, cur.String())
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n")
			b.WriteString(strings.Repeat(" ", indent+hang))
		} else {
			b.WriteString(strings.Repeat(" ", indent))
		}
		for _, st := range style {
			l = st.Render(l)
		}
		b.WriteString(l)
	}
	return b.String()
}
