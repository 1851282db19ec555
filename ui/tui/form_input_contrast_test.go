package tui

import (
	"image/color"
	"strconv"
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/stackpick/stackpick/ui/tui/screen"
)

// xterm256 is colour n of xterm's 256-colour palette (the sixteen ANSI
// colours as xterm draws them by default).
func xterm256(n int) color.Color {
	ansi := []string{"#000000", "#CD0000", "#00CD00", "#CDCD00", "#0000EE", "#CD00CD", "#00CDCD", "#E5E5E5",
		"#7F7F7F", "#FF0000", "#00FF00", "#FFFF00", "#5C5CFF", "#FF00FF", "#00FFFF", "#FFFFFF"}
	switch {
	case n < 16:
		return hex(ansi[n])
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return color.RGBA{R: level(n / 36), G: level(n / 6 % 6), B: level(n % 6), A: 0xff}
	default:
		v := uint8(8 + 10*(n-232))
		return color.RGBA{R: v, G: v, B: v, A: 0xff}
	}
}

// sgrState is the colours and reverse flag in force at a point of
// rendered text; a nil colour is the terminal's own.
type sgrState struct {
	fg, bg  color.Color
	reverse bool
}

// statesOf reads the SGR escapes of rendered text and returns what each
// byte of the first occurrence of want in its plain text is drawn in; ok
// is false when want is not in the text.
func statesOf(rendered, after, want string) (states []sgrState, ok bool) {
	var plain strings.Builder
	var at []sgrState
	var st sgrState
	for i := 0; i < len(rendered); {
		if !strings.HasPrefix(rendered[i:], "\x1b[") {
			plain.WriteByte(rendered[i])
			at = append(at, st)
			i++
			continue
		}
		end := strings.IndexAny(rendered[i+2:], "ABCDEFGHJKSTfmnsulh")
		if end < 0 {
			break
		}
		if rendered[i+2+end] == 'm' {
			st = applySGR(st, rendered[i+2:i+2+end])
		}
		i += 2 + end + 1
	}
	from := strings.Index(plain.String(), after)
	if from < 0 {
		return nil, false
	}
	k := strings.Index(plain.String()[from:], want)
	if k < 0 {
		return nil, false
	}
	k += from
	return at[k : k+len(want)], true
}

func applySGR(st sgrState, params string) sgrState {
	ps := strings.Split(params, ";")
	num := func(k int) int {
		if k >= len(ps) {
			return 0
		}
		v, _ := strconv.Atoi(ps[k])
		return v
	}
	for k := 0; k < len(ps); k++ {
		switch p := num(k); {
		case p == 0 || ps[k] == "":
			st = sgrState{}
		case p == 7:
			st.reverse = true
		case p == 27:
			st.reverse = false
		case p >= 30 && p <= 37:
			st.fg = xterm256(p - 30)
		case p >= 90 && p <= 97:
			st.fg = xterm256(p - 90 + 8)
		case p >= 40 && p <= 47:
			st.bg = xterm256(p - 40)
		case p >= 100 && p <= 107:
			st.bg = xterm256(p - 100 + 8)
		case p == 39:
			st.fg = nil
		case p == 49:
			st.bg = nil
		case (p == 38 || p == 48) && num(k+1) == 5:
			c := xterm256(num(k + 2))
			if p == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
			k += 2
		case (p == 38 || p == 48) && num(k+1) == 2:
			c := color.RGBA{R: uint8(num(k + 2)), G: uint8(num(k + 3)), B: uint8(num(k + 4)), A: 0xff}
			if p == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
			k += 4
		}
	}
	return st
}

// A text input's value, placeholder and prompt are readable at 4.5:1,
// focused and blurred, on dark and light terminals, as drawn: the review
// found a blurred input's value in ANSI 37 (light grey) on white, because
// huh copies only the focused styles of its theme into the text input.
func TestTextInputsAreReadableFocusedAndBlurred(t *testing.T) {
	for _, term := range terminals {
		c := &shared{Context: &screen.Context{Styles: screen.NewStyles(term.dark)}}
		nodes, note := "8271", ""
		f := newForm(c, 80, 24,
			huh.NewInput().Key("nodes").Title("Nodes").Value(&nodes),
			huh.NewInput().Key("note").Title("Note").Placeholder("placeholder words").Value(&note))
		f.init()
		check := func(field, state, text, what string) {
			view := f.view()
			states, ok := statesOf(view, field, text)
			if !ok {
				t.Fatalf("%s terminal, %s: %q not drawn in\n%q", term.name, state, text, view)
			}
			for k, st := range states {
				if text[k] == ' ' {
					continue
				}
				fg, bg := st.fg, st.bg
				if fg == nil {
					fg = term.fg
				}
				if bg == nil {
					bg = term.bg
				}
				if st.reverse {
					fg, bg = bg, fg
				}
				if r := contrast(fg, bg); r < 4.5 {
					t.Errorf("%s terminal: the %s %s (%q of %q) is %.2f:1 (want ≥ 4.5)", term.name, state, what, text[k], text, r)
					break
				}
			}
		}
		// The first input has focus; the second is blurred, with its
		// placeholder showing.
		check("Nodes", "focused", "> 8271", "value and prompt")
		check("Note", "blurred", "> placeholder words", "placeholder and prompt")
		f.f.NextField()
		if fl := f.f.GetFocusedField(); fl == nil || fl.GetKey() != "note" {
			t.Fatalf("tab did not move to the second input")
		}
		check("Nodes", "blurred", "> 8271", "value and prompt")
		check("Note", "focused", "laceholder words", "placeholder")
	}
}
