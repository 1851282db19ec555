package cli

import (
	"bytes"
	"context"
	"image/color"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

func TestTheBackgroundReplyIsReadToTheDeviceAttributes(t *testing.T) {
	white := color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	for _, c := range []struct {
		name  string
		reply string
		bg    color.Color
		done  bool
	}{
		{"nothing yet", "", nil, false},
		{"colour, attributes still to come", "\x1b]11;rgb:ffff/ffff/ffff\a", white, false},
		{"colour then attributes", "\x1b]11;rgb:ffff/ffff/ffff\a\x1b[?62;22c", white, true},
		{"colour ended by ST", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?1;2c", white, true},
		{"no OSC 11, only attributes", "\x1b[?6c", nil, true},
		{"attributes cut short", "\x1b[?62;2", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			bg, done := parseBackgroundReply([]byte(c.reply))
			if done != c.done {
				t.Errorf("done = %v, want %v", done, c.done)
			}
			if (bg == nil) != (c.bg == nil) || bg != nil && !sameRGBA(bg, c.bg) {
				t.Errorf("background = %v, want %v", bg, c.bg)
			}
		})
	}
	if !isDarkColor(color.Black) || isDarkColor(white) {
		t.Error("black must count as dark and white as light")
	}
}

func sameRGBA(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

// Inside tmux each detection runs `tmux info`: one per process is enough,
// however many writers and screens ask.
func TestTheColourProfileIsDetectedOncePerProcess(t *testing.T) {
	var out bytes.Buffer
	a := newApp(IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard, Env: []string{"TERM=xterm-256color"}})
	detections := 0
	a.detect = func(w io.Writer, env []string) colorprofile.Profile {
		detections++
		return colorprofile.Detect(w, env)
	}
	if code := a.run(context.Background(), []string{"decide", "--scenario", "exit-test"}); code != 0 {
		t.Fatalf("decide exited %d", code)
	}
	a.out(a.io.Stdout)
	a.profile(a.io.Stdout)
	if detections != 1 {
		t.Errorf("the colour profile was detected %d times, want once", detections)
	}
}

// fang hands the help palette to errors too; stackpick's errors are plain,
// so building the palette must not ask the terminal anything. Painting a
// pair asks once.
func TestThePaletteAsksTheBackgroundOnlyWhenPainted(t *testing.T) {
	a := newApp(IO{Stdout: io.Discard})
	asked := 0
	a.darkBackground = func() bool { asked++; return true }
	cs := a.helpScheme(nil)
	if asked != 0 {
		t.Fatalf("building the palette asked for the background %d times", asked)
	}
	cs.Base.RGBA()
	cs.Base.RGBA()
	cs.Flag.RGBA()
	cs.Title.RGBA() // one colour for light and dark: nothing to ask
	if asked != 2 {
		t.Errorf("painting two light/dark colours asked %d times, want 2 (once each)", asked)
	}
}

// In a terminal that answers nothing (script, expect), fang asked stdin and
// then stdout for the background before every help page and error, 2 s
// each. Now a help page painted on the terminal asks once (and gives up
// after 100 ms), and errors, piped help and other commands never ask. The
// transcript of the terminal shows every question asked.
func TestNoCommandWaitsOnATerminalThatDoesNotAnswer(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "stackpick")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/stackpick/stackpick").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		command string
		queries int
	}{
		{"--help", 1},
		{"decide --help", 1},
		{"--no-color --help", 0},
		{"decide --bogus", 0},
		{"decide --scenario nope", 0},
		{"--help > " + filepath.Join(dir, "help.txt"), 0},
		{"version", 0},
		{"decide --scenario exit-test", 0},
		{"decide --scenario exit-test --out " + filepath.Join(dir, "d.txt"), 0},
		{"decide --scenario exit-test | cat", 0},
	} {
		t.Run(c.command, func(t *testing.T) {
			transcript := filepath.Join(dir, "transcript")
			cmd := exec.Command(script, "-qec", bin+" "+c.command, transcript)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=", "NO_COLOR=", "TMUX=")
			cmd.Stdin = strings.NewReader("")
			if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(c.command, "bogus") && !strings.Contains(c.command, "nope") {
				t.Fatalf("%v\n%s", err, out)
			}
			got, err := os.ReadFile(transcript)
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(got, []byte("\x1b]11;?")); n != c.queries {
				t.Errorf("asked the terminal for its background %d times, want %d", n, c.queries)
			}
		})
	}
}

func TestColorFGBGSaysTheBackgroundWithoutAsking(t *testing.T) {
	for _, c := range []struct {
		v        string
		dark, ok bool
	}{
		{"15;0", true, true},
		{"0;15", false, true},
		{"0;default;7", false, true},
		{"7;8", true, true},
		{"", false, false},
		{"default;default", false, false},
		{"0;99", false, false},
	} {
		dark, ok := colorFGBG(c.v)
		if dark != c.dark || ok != c.ok {
			t.Errorf("COLORFGBG=%q: dark %v ok %v, want %v %v", c.v, dark, ok, c.dark, c.ok)
		}
	}
}
