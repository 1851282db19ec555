// Package report words a decision, for every surface: the layer and engine
// cards the app and the command line both paint, plain text, JSON, the
// Markdown memo and its preview, the questions, rules and scenarios lists.
// Renderers read a Decision; they never compute one. It owns the one
// palette and the one word-wrapper. It must not import ui/tui or ui/cli.
// Colour is applied through semantic styles and removed by the writer when
// the output is not a colour terminal.
package report

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

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
	// Button is the action a key press would take now (a form's focused
	// button): bold text on a filled accent block, so it stands out from
	// the other choices by weight and fill, not by hue alone.
	Button lipgloss.Style

	// Dark says which background the colours were chosen for, so a
	// surface laid out once knows when to lay out again.
	Dark bool
}

// palette is the colour of each role; the styles are built from one.
type palette struct {
	accent, green, red, amber, blue, muted, key, border color.Color
	// onAccent is text drawn on an accent fill (nil: reverse video).
	onAccent color.Color
}

// NewStyles builds the styles for a dark or light background.
func NewStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	return build(palette{
		accent: ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#9D87F5")),
		green:  ld(lipgloss.Color("#027A4D"), lipgloss.Color("#04D98B")),
		red:    ld(lipgloss.Color("#B3261E"), lipgloss.Color("#F2777F")),
		amber:  ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#F0B45A")),
		blue:   ld(lipgloss.Color("#1F5FA8"), lipgloss.Color("#7FB2F0")),
		muted:  ld(lipgloss.Color("#5F5F5F"), lipgloss.Color("#9A9A9A")),
		key:    ld(lipgloss.Color("#8A2BA8"), lipgloss.Color("#D7A2F0")),
		border: ld(lipgloss.Color("#9A9A9A"), lipgloss.Color("#5F5F5F")),
		// 7:1 on either accent (WCAG AAA for text).
		onAccent: ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#000000")),
	}, isDark)
}

// DefaultStyles are the styles for output whose background is not known:
// the command line's text, which never asks the terminal (a reply that
// comes after stackpick has exited would land in the shell's input). They
// use the terminal's own sixteen colours, which every terminal theme makes
// readable on its background.
func DefaultStyles() Styles {
	return build(palette{
		accent: lipgloss.Magenta,
		green:  lipgloss.Green,
		red:    lipgloss.Red,
		amber:  lipgloss.Yellow,
		blue:   lipgloss.Blue,
		// The theme's dim text (bright black) reads on light and dark
		// backgrounds alike; plain text keeps the theme's foreground.
		muted:  lipgloss.BrightBlack,
		key:    lipgloss.Magenta,
		border: lipgloss.BrightBlack,
	}, true)
}

func build(p palette, isDark bool) Styles {
	return Styles{
		App:      lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		Title:    lipgloss.NewStyle().Bold(true),
		Heading:  lipgloss.NewStyle().Bold(true),
		Layer:    lipgloss.NewStyle().Bold(true).Foreground(p.accent),
		Pick:     lipgloss.NewStyle().Bold(true).Foreground(p.green),
		Selected: lipgloss.NewStyle().Bold(true).Reverse(true),
		Marked:   lipgloss.NewStyle().Bold(true).Underline(true).Foreground(p.amber),
		Muted:    lipgloss.NewStyle().Foreground(p.muted),
		Text:     lipgloss.NewStyle(),
		Good:     lipgloss.NewStyle().Foreground(p.green),
		Bad:      lipgloss.NewStyle().Foreground(p.red),
		Warn:     lipgloss.NewStyle().Foreground(p.amber),
		Key:      lipgloss.NewStyle().Foreground(p.key),
		RuleID:   lipgloss.NewStyle().Foreground(p.blue),
		Border:   lipgloss.NewStyle().Foreground(p.border),
		Changed:  lipgloss.NewStyle().Bold(true).Foreground(p.amber),
		Status:   lipgloss.NewStyle().Foreground(p.green),
		Error:    lipgloss.NewStyle().Bold(true).Foreground(p.red),
		Button:   button(p),
		Dark:     isDark,
	}
}

func button(p palette) lipgloss.Style {
	b := lipgloss.NewStyle().Bold(true)
	if p.onAccent == nil {
		// The terminal's own colours swapped: readable on any theme.
		return b.Reverse(true)
	}
	return b.Foreground(p.onAccent).Background(p.accent)
}
