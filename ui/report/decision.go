package report

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Header is what the reader is told before the cards.
type Header struct {
	Title string // scenario title or answers file
	Story string
	// Source names the answers in the deployable files' headers, and
	// Manifest is the command that writes those files ("" when the
	// answers are in no file): the last section lists them.
	Source, Manifest string
}

// Decision renders the decision as text for the command line: the header,
// the summary, then every detail section under a rule, at the given width
// (100 when the output is not a terminal), worded for a reader (no rule ids
// or scores; DecisionText with Trace adds them).
func Decision(kb *knowledge.KB, d decide.Decision, h Header, st Styles, width int) string {
	return DecisionText(kb, d, h, st, width, CardOptions{})
}

// DecisionText is Decision with the details' options: the trace view adds
// rule ids, weights, scores and every rule's outcome.
func DecisionText(kb *knowledge.KB, d decide.Decision, h Header, st Styles, width int, opt CardOptions) string {
	var b strings.Builder
	if h.Title != "" {
		b.WriteString(st.Title.Render(h.Title))
		b.WriteString("\n")
	}
	if h.Story != "" {
		b.WriteString(wrapIndent(h.Story, width, 0, 0))
		b.WriteString("\n")
	}
	if h.Title != "" || h.Story != "" {
		b.WriteString("\n")
	}
	// The whole summary: the command line's reader scrolls, so it keeps
	// every line the app's screen may have to give up.
	for _, l := range SummaryWith(kb, d, st, width, whole, SummaryOptions{NotesHint: CLINotesHint(kb, d), Whole: true, Trace: opt.Trace}) {
		b.WriteString(l + "\n")
	}
	for _, sec := range append(Sections(kb, d, st, width, opt), manifestSection(kb, d, h, st, width)) {
		b.WriteString("\n" + SectionRule(sec.Title, st, width) + "\n")
		for _, l := range sec.Lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// SectionRule is a section's title as a rule across the width: "── Engine
// · why vLLM ──────".
func SectionRule(title string, st Styles, width int) string {
	title = Truncate(title, max(width-4, 1))
	rule := strings.Repeat("─", max(0, width-ansi.StringWidth(title)-4))
	return st.Layer.Render("── "+title) + " " + st.Muted.Render(rule)
}
