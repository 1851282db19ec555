package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// The launch command off the result screen: c puts it on the clipboard,
// l shows it plain, with nothing a mouse selection would carry into the
// shell that the shell does not take (no borders, no colour, no comment
// after a continuation line).

// launchKey handles the result screen's launch-command keys; it reports
// whether k was one of them.
func launchKey(c *shared, k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, c.Keys.Copy):
		return copyLaunch(c), true
	case key.Matches(k, c.Keys.LaunchView):
		if why := noLaunchCommand(c); why != "" {
			c.Status = why
			return nil, true
		}
		c.Push(newLaunchScreen(c))
		return nil, true
	}
	return nil, false
}

// copyLaunch puts the launch command on the clipboard with OSC 52, the
// terminal's own clipboard sequence (through ssh and tmux too), and says
// so on the status line.
func copyLaunch(c *shared) tea.Cmd {
	if why := noLaunchCommand(c); why != "" {
		c.Status = why
		return nil
	}
	text := report.LaunchCommand(c.session.decision.EngineConfig, 0)
	n := strings.Count(text, "\n") + 1
	c.Status = fmt.Sprintf("Copied the launch command (%d lines)", n)
	if n == 1 {
		c.Status = "Copied the launch command (1 line)"
	}
	return tea.SetClipboard(text)
}

// noLaunchCommand says why the decision has no launch command to copy or
// show, or "" when it has one.
func noLaunchCommand(c *shared) string {
	ec := c.session.decision.EngineConfig
	switch {
	case ec == nil:
		return "No launch command: the decision picks no engine to launch."
	case !ec.Covered:
		return "No launch command: " + ec.Note
	case len(ec.Command) == 0:
		return "No launch command: the decision has no engine flags to write."
	}
	return ""
}

// launchScreen is the launch command alone, plain: each command broken only
// where the shell joins it back, the why of each flag below it after a
// blank line. It lays out when it is given a size. It scrolls by itself
// rather than in a viewport, which pads every line to the width: spaces
// after a trailing backslash would end the command where it is pasted.
type launchScreen struct {
	c     *shared
	lines []string
	top   int
	w, h  int
}

func newLaunchScreen(c *shared) *launchScreen { return &launchScreen{c: c} }

// Title says which lines are shown when the text is longer than the
// screen: the view itself carries nothing but the text.
func (s *launchScreen) Title() string {
	if len(s.lines) > s.h {
		return fmt.Sprintf("Launch command %d–%d of %d · %s", s.top+1, min(s.top+s.h, len(s.lines)), len(s.lines), s.c.session.origin)
	}
	return "Launch command · " + s.c.session.origin
}

func (s *launchScreen) SetSize(w, h int) {
	s.w, s.h = w, max(h, 1)
	s.lines = strings.Split(report.LaunchCommand(s.c.session.decision.EngineConfig, w), "\n")
	s.scroll(0)
}

// scroll moves the view by n lines, within the text.
func (s *launchScreen) scroll(n int) { s.top = max(0, min(s.top+n, len(s.lines)-s.h)) }

func (s *launchScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	c := s.c
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Copy):
		return copyLaunch(c)
	case key.Matches(k, keys.Back):
		c.Pop()
	case key.Matches(k, keys.Up):
		s.scroll(-1)
	case key.Matches(k, keys.Down):
		s.scroll(1)
	case key.Matches(k, keys.PageUp):
		s.scroll(-s.h)
	case key.Matches(k, keys.PageDown):
		s.scroll(s.h)
	case key.Matches(k, keys.Top):
		s.scroll(-len(s.lines))
	case key.Matches(k, keys.Bottom):
		s.scroll(len(s.lines))
	}
	return nil
}

// View is the text as it is, unstyled and unpadded, so a selection copies
// exactly it.
func (s *launchScreen) View() string {
	return strings.Join(s.lines[s.top:min(s.top+s.h, len(s.lines))], "\n")
}

func (s *launchScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	copyKey := screen.WithHelp(k.Copy, "copy")
	return screen.KeyHelp{
		Short: []key.Binding{copyKey, k.Back, scroll},
		Full:  [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {copyKey, k.Back}},
	}
}
