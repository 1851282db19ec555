package tui

import (
	"fmt"
	"strings"
	"testing"
)

// In a real terminal, at 80x24 and 40x12 and without colour: tab walks a
// page's questions and goes on to the next page from the last one, and
// the confirmation's focused button is drawn in reverse video (the one
// thing that marks it when there is no colour) while the other is not.
func TestTerminalFormTabAndButtons(t *testing.T) {
	bin := stackpickBinary(t)
	kb, _ := loadKB(t)
	fleet := len(questionPages(kb)[0].questions)
	for _, sz := range []struct{ w, h int }{{80, 24}, {40, 12}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			tm := newTmux(t, sz.w, sz.h, "NO_COLOR=1")
			tm.keys(bin, "Enter")
			tm.waitFor("the home screen", contains("New decision"))
			tm.keys("n")
			tm.waitFor("the questionnaire", contains("Fleet (1/5)"))
			tm.keys("BSpace", "3") // an unsaved answer, so quitting asks
			for range fleet {
				tm.keys("Tab")
			}
			tm.waitFor("the second page after tab on the last question", contains("Models (2/5)"))
			tm.keys("Escape")
			tm.waitFor("the home screen", contains("Resume"))
			tm.keys("q")
			tm.waitFor("the quit confirmation", contains("Quit stackpick?"))
			screen := tm.run("capture-pane", "-p", "-e", "-t", "e2e")
			var buttons string
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, "Yes") && strings.Contains(l, "No") {
					buttons = l
				}
			}
			yes, no := strings.Index(buttons, "Yes"), strings.Index(buttons, "No")
			rev := strings.LastIndex(buttons[:no], "\x1b[7m")
			if buttons == "" || rev < yes || strings.Contains(buttons[:yes], "\x1b[7m") {
				t.Errorf("the focused No should be in reverse video and Yes not: %q", buttons)
			}
			tm.keys("y")
		})
	}
}
