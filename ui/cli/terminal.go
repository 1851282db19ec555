package cli

import (
	"bytes"
	"image/color"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/cancelreader"
)

// What stackpick asks of the terminal, and how often. Two things cost:
//
//   - The colour profile. Inside tmux every detection runs `tmux info`, so
//     the profile is detected once per process (and lipgloss's own
//     detection at load is reused when it answers the same question).
//   - The background colour, for the help page's light or dark palette.
//     fang's Execute asked it before every help page and every error,
//     whatever its options, with lipgloss's 2 s timeout on stdin and again
//     on stdout: a terminal that does not answer (script, expect) held each
//     for 4 s. stackpick runs cobra itself (help.go) and asks it once, with
//     a 100 ms timeout, and only when a help page is painted in colour on a
//     terminal.

// backgroundTimeout is how long stackpick waits for the terminal to say
// its background colour. Terminals answer in well under a millisecond
// locally and within a round trip over ssh; one that says nothing is
// given up on after this.
const backgroundTimeout = 100 * time.Millisecond

// profile is the colour profile for output to w, detected at most once per
// kind of stream (terminal or not): the answer depends only on that and on
// the environment.
func (a *app) profile(w io.Writer) colorprofile.Profile {
	slot := 0
	if isTerminal(w) {
		slot = 1
	}
	if a.profiles[slot] == colorprofile.Unknown {
		a.profiles[slot] = a.detect(w, a.io.Env)
	}
	return a.profiles[slot]
}

// detectProfile is colorprofile.Detect, reusing lipgloss's answer when it
// is the same question: lipgloss detects the profile of os.Stdout in the
// process's environment when it loads (its package Writer), and the answer
// depends only on whether the stream is a terminal and on the environment.
func detectProfile(w io.Writer, env []string) colorprofile.Profile {
	if isTerminal(w) == isTerminal(os.Stdout) && slices.Equal(env, os.Environ()) {
		return lipgloss.Writer.Profile
	}
	return colorprofile.Detect(w, env)
}

// plainStream hides the *os.File behind a stream, so a colour writer made
// for it (fang makes one for root's error stream on every error, detecting
// the profile each time) sees no terminal. stackpick's errors are plain
// text; nothing else cobra writes there is coloured.
type plainStream struct{ io.Writer }

// helpScheme is fang's default palette with each light/dark pair resolved
// when first painted: an error (fang hands it the same palette; stackpick
// prints errors plain) or a help page piped elsewhere never asks the
// terminal anything. Every colour also keeps its RGBA once computed:
// charmtone builds a map on every call, a quarter of a help page's time.
func (a *app) helpScheme(lipgloss.LightDarkFunc) fang.ColorScheme {
	if a.noColor {
		// --no-color: a page with no colours, and nothing to ask.
		return fang.ColorScheme{}
	}
	cs := fang.DefaultColorScheme(func(light, dark color.Color) color.Color {
		return &schemeColor{light: light, dark: dark, isDark: a.darkBackground}
	})
	for _, c := range []*color.Color{&cs.Base, &cs.Title, &cs.Description, &cs.Codeblock, &cs.Program, &cs.DimmedArgument, &cs.Comment, &cs.Flag, &cs.FlagDefault, &cs.Command, &cs.QuotedString, &cs.Argument, &cs.Help, &cs.Dash, &cs.ErrorHeader[0], &cs.ErrorHeader[1], &cs.ErrorDetails} {
		if _, lazy := (*c).(*schemeColor); !lazy && *c != nil {
			*c = &schemeColor{light: *c}
		}
	}
	return cs
}

// schemeColor is a palette colour chosen when first painted: dark if
// isDark says so (and isDark is set), else light.
type schemeColor struct {
	light, dark color.Color
	isDark      func() bool
	once        sync.Once
	r, g, b, al uint32
}

func (c *schemeColor) RGBA() (r, g, b, a uint32) {
	c.once.Do(func() {
		pick := c.light
		if c.isDark != nil && c.isDark() {
			pick = c.dark
		}
		c.r, c.g, c.b, c.al = pick.RGBA()
	})
	return c.r, c.g, c.b, c.al
}

// askBackground decides the help page's palette as fang would (light off
// a terminal, dark when the terminal cannot be asked or does not answer),
// but asks only when stdout is a terminal that shows colour.
func (a *app) askBackground() bool {
	out, ok := a.io.Stdout.(*os.File)
	if !ok || !isTerminal(out) || a.profile(out) <= colorprofile.ASCII {
		return false
	}
	// A terminal that says its colours in the environment is not asked.
	if dark, ok := colorFGBG(a.getenv("COLORFGBG")); ok {
		return dark
	}
	in, ok := a.io.Stdin.(*os.File)
	if !ok || !isTerminal(in) {
		return true
	}
	return askDarkBackground(in, out, backgroundTimeout)
}

// askDarkBackground asks the terminal for its background colour (OSC 11),
// followed by a request for its device attributes (DA1), which every
// terminal answers: one that does not know OSC 11 ends the wait at once,
// and the answers are read to the end so none is left for the shell. No
// answer within timeout counts as dark, as lipgloss counts it.
func askDarkBackground(in, out *os.File, timeout time.Duration) bool {
	state, err := term.MakeRaw(in.Fd())
	if err != nil {
		return true
	}
	defer term.Restore(in.Fd(), state) //nolint:errcheck
	r, err := cancelreader.NewReader(in)
	if err != nil {
		return true
	}
	defer r.Close()
	timer := time.AfterFunc(timeout, func() { r.Cancel() })
	defer timer.Stop()
	if _, err := io.WriteString(out, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes); err != nil {
		return true
	}
	var reply []byte
	var chunk [256]byte
	for {
		n, err := r.Read(chunk[:])
		reply = append(reply, chunk[:n]...)
		if bg, done := parseBackgroundReply(reply); done {
			return bg == nil || isDarkColor(bg)
		}
		if err != nil {
			return true
		}
	}
}

// parseBackgroundReply reads the terminal's answers so far: the background
// colour, if it said one, and whether the device attributes (the last
// answer) have arrived.
func parseBackgroundReply(reply []byte) (bg color.Color, done bool) {
	if i := bytes.Index(reply, []byte("\x1b]11;")); i >= 0 {
		rest := reply[i+len("\x1b]11;"):]
		if end := bytes.IndexAny(rest, "\a\x1b"); end >= 0 {
			bg = ansi.XParseColor(string(rest[:end]))
		}
	}
	for rest := reply; ; {
		i := bytes.Index(rest, []byte("\x1b[?"))
		if i < 0 {
			return bg, false
		}
		rest = rest[i+3:]
		j := 0
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == ';') {
			j++
		}
		if j < len(rest) && rest[j] == 'c' {
			return bg, true
		}
	}
}

// isDarkColor is lipgloss's test: lightness below half.
func isDarkColor(c color.Color) bool {
	col, ok := colorful.MakeColor(c)
	if !ok {
		return true
	}
	l, _, _ := col.Lab()
	return l < 0.5
}

// colorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg", as rxvt, Konsole
// and others set it): the background is dark when it is one of the eight
// dark colours of the sixteen (0–6 and 8).
func colorFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg <= 6 || bg == 8, true
}
