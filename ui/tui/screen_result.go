package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/tui/screen"
)

// resultScreen is the defended decision: one card per layer in a scrolling
// view. It lays the cards out when it is given a size (after any screen
// above it changed the answers) and when the palette changes, never while
// drawing, so a key press costs a scroll, not a layout.
type resultScreen struct {
	c        *shared
	vp       viewport.Model
	offsets  []int
	rendered struct {
		version, w int
		dark       bool
	}
	w, h int
}

func newResultScreen(c *shared) *resultScreen {
	return &resultScreen{c: c, vp: viewport.New()}
}

func (s *resultScreen) Title() string { return "Decision · " + s.c.session.origin }

func (s *resultScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h-1, 1))
	s.render()
}

// render lays the cards out again if the decision, width or palette changed.
func (s *resultScreen) render() {
	c := s.c
	if s.rendered.version == c.session.version && s.rendered.w == s.w && s.rendered.dark == c.Styles.Dark && s.offsets != nil {
		return
	}
	content, offsets := decisionCards(c, s.w, s.h >= 30)
	y := s.vp.YOffset()
	s.vp.SetContent(content)
	s.vp.SetYOffset(y)
	s.offsets = offsets
	s.rendered.version, s.rendered.w, s.rendered.dark = c.session.version, s.w, c.Styles.Dark
}

// currentLayer is the index of the card at the top of the view.
func (s *resultScreen) currentLayer() int {
	cur := 0
	for i, off := range s.offsets {
		if off <= s.vp.YOffset() {
			cur = i
		}
	}
	return cur
}

func (s *resultScreen) Update(msg tea.Msg) tea.Cmd {
	c := s.c
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.render() // the root model has just rebuilt the styles
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := c.Keys
	switch {
	case key.Matches(k, keys.NextCard):
		cur := s.currentLayer()
		if len(s.offsets) > 0 && s.vp.YOffset() < s.offsets[0] {
			cur = -1
		}
		if cur+1 < len(s.offsets) {
			s.vp.SetYOffset(s.offsets[cur+1])
		}
	case key.Matches(k, keys.PrevCard):
		cur := s.currentLayer()
		if len(s.offsets) > 0 && s.vp.YOffset() > s.offsets[cur] {
			s.vp.SetYOffset(s.offsets[cur])
		} else if cur > 0 {
			s.vp.SetYOffset(s.offsets[cur-1])
		} else {
			s.vp.GotoTop()
		}
	case key.Matches(k, keys.Edit):
		focus := ""
		if cur := s.currentLayer(); cur < len(c.session.decision.Layers) {
			if fl := c.session.decision.Layers[cur].Flips; len(fl) > 0 {
				focus = fl[0].Answer
			}
		}
		c.Push(newAnswersScreen(c, focus))
	case key.Matches(k, keys.Save):
		c.Push(newSaveScreen(c))
	case key.Matches(k, keys.Export):
		c.Push(newExportScreen(c))
	case key.Matches(k, keys.Pin):
		togglePin(c)
	case key.Matches(k, keys.Diff):
		openDiff(c)
	case key.Matches(k, keys.Form):
		if !c.PopTo(func(s screen.Screen) bool { _, ok := s.(*formScreen); return ok }) {
			c.Push(newFormScreen(c))
		}
	default:
		return scrollKeys(c, &s.vp, k)
	}
	return nil
}

func (s *resultScreen) View() string {
	c := s.c
	st := c.Styles
	right := ""
	if layers := c.session.decision.Layers; len(layers) > 0 && s.vp.YOffset() >= s.offsets[0] {
		cur := s.currentLayer()
		right = fmt.Sprintf("%s %d/%d", c.KB.Layer(layers[cur].Layer).Name, cur+1, len(layers))
	}
	if s.vp.TotalLineCount() > s.vp.Height() {
		if right != "" {
			right += " · "
		}
		right += percent(s.vp.ScrollPercent())
	}
	line := stackLine(c, s.w)
	if right != "" && s.w >= 40 {
		right = st.Muted.Render(" " + right)
		line = padRight(truncate(line, s.w-screen.VisibleWidth(right)), s.w-screen.VisibleWidth(right)) + right
	}
	return line + "\n" + s.vp.View()
}

func percent(p float64) string { return fmt.Sprintf("%d%%", int(p*100+0.5)) }

func (s *resultScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	return screen.KeyHelp{
		Short: []key.Binding{k.Edit, k.Save, screen.WithHelp(k.Export, "export"), k.NextCard, k.Back, scroll},
		Full: [][]key.Binding{
			{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
			{k.NextCard, k.PrevCard, k.Edit, k.Save, k.Export, k.Form, k.Pin, k.Diff, k.Back},
		},
	}
}
