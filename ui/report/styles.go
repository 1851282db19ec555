// Package report words a decision, for every surface: the layer and engine
// cards the app and the command line both paint, plain text, JSON, the
// Markdown memo and its preview, the questions, rules and scenarios lists.
// Renderers read a Decision; they never compute one. It owns the one
// palette and the one word-wrapper. It must not import ui/tui or ui/cli.
// Colour is applied through semantic styles and removed by the writer when
// the output is not a colour terminal.
package report

import "charm.land/lipgloss/v2"

// Styles are the semantic styles every surface uses, built in one place
// from the terminal's background; no renderer or screen picks a colour
// inline. Selection is always shown by a marker or reverse video as well
// as colour, so the app reads the same with NO_COLOR and on a washed-out
// projector.
type Styles struct {
	App      lipgloss.Style // the app name in the header, a memo's title
	Title    lipgloss.Style // screen title in the header, bold text
	Heading  lipgloss.Style // section headings
	Layer    lipgloss.Style // layer names
	Pick     lipgloss.Style // a picked product
	Selected lipgloss.Style // the item under the cursor
	Marked   lipgloss.Style // an item marked for comparison
	Muted    lipgloss.Style // secondary text: sources, dates, hints
	Text     lipgloss.Style
	Good     lipgloss.Style
	Bad      lipgloss.Style
	Warn     lipgloss.Style
	Key      lipgloss.Style // answer keys, flags and key names
	RuleID   lipgloss.Style
	Border   lipgloss.Style // box-drawing characters
	Changed  lipgloss.Style // a pick that just changed
	Status   lipgloss.Style // the one-line status message
	Error    lipgloss.Style

	// Dark says which background the colours were chosen for, so a
	// surface laid out once knows when to lay out again.
	Dark bool
}

// NewStyles builds the styles for a dark or light background.
func NewStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	var (
		accent = ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#9D87F5"))
		green  = ld(lipgloss.Color("#027A4D"), lipgloss.Color("#04D98B"))
		red    = ld(lipgloss.Color("#B3261E"), lipgloss.Color("#F2777F"))
		amber  = ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#F0B45A"))
		blue   = ld(lipgloss.Color("#1F5FA8"), lipgloss.Color("#7FB2F0"))
		muted  = ld(lipgloss.Color("#5F5F5F"), lipgloss.Color("#9A9A9A"))
		key    = ld(lipgloss.Color("#8A2BA8"), lipgloss.Color("#D7A2F0"))
		border = ld(lipgloss.Color("#9A9A9A"), lipgloss.Color("#5F5F5F"))
	)
	return Styles{
		App:      lipgloss.NewStyle().Bold(true).Foreground(accent),
		Title:    lipgloss.NewStyle().Bold(true),
		Heading:  lipgloss.NewStyle().Bold(true),
		Layer:    lipgloss.NewStyle().Bold(true).Foreground(accent),
		Pick:     lipgloss.NewStyle().Bold(true).Foreground(green),
		Selected: lipgloss.NewStyle().Bold(true).Reverse(true),
		Marked:   lipgloss.NewStyle().Bold(true).Underline(true).Foreground(amber),
		Muted:    lipgloss.NewStyle().Foreground(muted),
		Text:     lipgloss.NewStyle(),
		Good:     lipgloss.NewStyle().Foreground(green),
		Bad:      lipgloss.NewStyle().Foreground(red),
		Warn:     lipgloss.NewStyle().Foreground(amber),
		Key:      lipgloss.NewStyle().Foreground(key),
		RuleID:   lipgloss.NewStyle().Foreground(blue),
		Border:   lipgloss.NewStyle().Foreground(border),
		Changed:  lipgloss.NewStyle().Bold(true).Foreground(amber),
		Status:   lipgloss.NewStyle().Foreground(green),
		Error:    lipgloss.NewStyle().Bold(true).Foreground(red),
		Dark:     isDark,
	}
}

// DefaultStyles are the styles for output whose background is not asked
// (the command line never waits on a terminal query): the dark palette,
// which most terminals use.
func DefaultStyles() Styles { return NewStyles(true) }
