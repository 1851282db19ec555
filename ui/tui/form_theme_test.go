package tui

import (
	"fmt"
	"image/color"
	"math"
	"reflect"
	"testing"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// terminal is a terminal theme the form must read on: its background and
// the foreground its theme pairs with it (what text without a colour of its
// own is drawn in).
type terminal struct {
	name   string
	dark   bool
	bg, fg color.Color
}

var terminals = []terminal{
	{"black", true, hex("#000000"), hex("#C0C0C0")},
	{"dark grey", true, hex("#1E1E1E"), hex("#C0C0C0")},
	{"white", false, hex("#FFFFFF"), hex("#303030")},
	{"off-white", false, hex("#FAFAFA"), hex("#303030")},
}

func hex(s string) color.Color {
	var r, g, b uint8
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b); err != nil {
		panic(err)
	}
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// unset reports whether a style leaves the colour to the terminal.
func unset(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c == nil || none
}

// drawn is the foreground and background a style's text is drawn in on
// the terminal, reverse video included.
func drawn(s lipgloss.Style, term terminal) (fg, bg color.Color) {
	fg, bg = s.GetForeground(), s.GetBackground()
	if unset(fg) {
		fg = term.fg
	}
	if unset(bg) {
		bg = term.bg
	}
	if s.GetReverse() {
		fg, bg = bg, fg
	}
	return fg, bg
}

// themeStyles lists every lipgloss.Style in a huh theme by its field path
// (Focused.UnselectedOption, Help.ShortKey, ...), so a style added to huh's
// theme is checked without this test naming it.
func themeStyles(t *huh.Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	styleType := reflect.TypeFor[lipgloss.Style]()
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		if v.Type() == styleType {
			out[path] = v.Interface().(lipgloss.Style)
			return
		}
		if v.Kind() != reflect.Struct {
			return
		}
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			name := v.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			walk(v.Field(i), name)
		}
	}
	walk(reflect.ValueOf(*t), "")
	return out
}

// Every style of the form theme, focused and blurred, with and without
// colour, draws its text at 4.5:1 or more (WCAG AA) against what it is
// drawn on, on dark and light terminals; its colours are exact ones (the
// sixteen ANSI colours change with the terminal's theme, so no ratio of
// theirs can be promised); a border that shows is held to the same bar.
func TestFormThemeContrast(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, term := range terminals {
			styles := themeStyles(formTheme(noColor, false).Theme(term.dark))
			if len(styles) < 40 {
				t.Fatalf("found only %d styles in the theme; the walk is broken", len(styles))
			}
			for path, s := range styles {
				for _, c := range []color.Color{s.GetForeground(), s.GetBackground(), s.GetBorderLeftForeground()} {
					if _, ansi := c.(lipgloss.ANSIColor); ansi {
						t.Errorf("%s: %s uses ANSI colour %v, whose shade the terminal's theme picks", term.name, path, c)
					}
				}
				fg, bg := drawn(s, term)
				if r := contrast(fg, bg); r < 4.5 {
					t.Errorf("no colour %v, %s terminal: %s is %.2f:1 (want ≥ 4.5)", noColor, term.name, path, r)
				}
				if s.GetBorderLeft() && s.GetBorderStyle() != lipgloss.HiddenBorder() && !unset(s.GetBorderLeftForeground()) {
					if r := contrast(s.GetBorderLeftForeground(), term.bg); r < 4.5 {
						t.Errorf("%s terminal: %s's border is %.2f:1 (want ≥ 4.5)", term.name, path, r)
					}
				}
			}
		}
	}
}

// The focused button outweighs the blurred one: bold on a filled block
// that stands off the terminal's background at 3:1 or more (WCAG's bar for
// a control), while the blurred one is plain text with no fill.
func TestFocusedButtonStandsOut(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		for _, term := range terminals {
			th := formTheme(noColor, false).Theme(term.dark)
			for name, fs := range map[string]huh.FieldStyles{"focused": th.Focused, "blurred": th.Blurred} {
				on, off := fs.FocusedButton, fs.BlurredButton
				_, onFill := drawn(on, term)
				_, offFill := drawn(off, term)
				onLift, offLift := contrast(onFill, term.bg), contrast(offFill, term.bg)
				if onLift < 3 || onLift <= offLift {
					t.Errorf("no colour %v, %s terminal, %s field: the focused button's fill is %.2f:1 off the background, the blurred one's %.2f:1", noColor, term.name, name, onLift, offLift)
				}
				if !on.GetBold() || off.GetBold() {
					t.Errorf("no colour %v, %s field: focused bold %v, blurred bold %v (want the focused one alone bold)", noColor, name, on.GetBold(), off.GetBold())
				}
			}
		}
	}
}

// The swap this theme replaces stays caught: huh's Charm theme draws
// unselected options in colour 235 on a dark terminal, which this test's
// measure rejects.
func TestContrastCatchesHuhCharmTheme(t *testing.T) {
	s := huh.ThemeCharm(true).Focused.UnselectedOption
	fg, bg := drawn(s, terminals[0])
	if r := contrast(fg, bg); r >= 4.5 {
		t.Errorf("huh's Charm theme's unselected option is %.2f:1 on black; the measure would not have caught it", r)
	}
}
