package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/ui/tui/drills"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// homeItem is one entry of the home menu.
type homeItem struct {
	label, hint string
	run         func() tea.Cmd
}

// homeScreen is the start: new decision, resume, scenarios, knowledge,
// drills, quit.
type homeScreen struct {
	c      *shared
	cursor int
	w, h   int
	// resume is the decision's screens as the user left them for home
	// (the form at its page, the result at its scroll), for Resume.
	resume []screen.Screen
}

func newHomeScreen(c *shared) *homeScreen { return &homeScreen{c: c} }

func (s *homeScreen) Title() string { return "Home" }

func (s *homeScreen) SetSize(w, h int) { s.w, s.h = w, h }

func (s *homeScreen) items() []homeItem {
	c := s.c
	var items []homeItem
	if c.session.started {
		hint := "back to " + c.session.origin
		if len(s.resume) > 0 {
			hint = "back to " + s.resume[len(s.resume)-1].Title()
		}
		items = append(items, homeItem{"Resume", hint, func() tea.Cmd {
			if len(s.resume) == 0 {
				c.Push(newResultScreen(c))
				return nil
			}
			for _, sc := range s.resume {
				c.Push(sc)
			}
			return nil
		}})
	}
	pages := len(questionPages(c.KB))
	items = append(items,
		homeItem{"New decision", fmt.Sprintf("answer %d questions on %d pages, defaults preselected", len(c.KB.AnswerKeys()), pages), func() tea.Cmd {
			return s.confirmDiscard("Start a new decision?", func() tea.Cmd {
				c.session.start(c.Decider, c.KB.Defaults(), "New decision", "")
				c.Push(newFormScreen(c))
				return nil
			})
		}},
		homeItem{"Open answers file…", "a saved answers file (TOML), opened at its result", func() tea.Cmd {
			c.Push(newOpenScreen(c))
			return nil
		}},
		homeItem{"Load scenario", fmt.Sprintf("%d presets, from the course notes' exit test to a single node", len(c.Scenarios)), func() tea.Cmd {
			c.Push(newScenarioScreen(c))
			return nil
		}},
		homeItem{"Browse knowledge", fmt.Sprintf("%d products on %d layers, side by side", len(c.KB.Products), len(c.KB.Layers)), func() tea.Cmd {
			c.Push(newBrowserScreen(c))
			return nil
		}},
		homeItem{"Drills", "practise the exit test: taxonomy, scenario, flags, explain", func() tea.Cmd {
			c.Push(drills.Menu(c.Context, c.drills))
			return nil
		}},
		homeItem{"Quit", "", func() tea.Cmd {
			return s.confirmDiscard("Quit stackpick?", func() tea.Cmd {
				c.Quit = true
				return nil
			})
		}},
	)
	return items
}

// confirmDiscard runs then, after asking first if typed answers would be
// lost.
func (s *homeScreen) confirmDiscard(question string, then func() tea.Cmd) tea.Cmd {
	c := s.c
	if !c.session.unsaved() {
		return then()
	}
	return c.Confirm(question,
		fmt.Sprintf("The answers of %q are not saved and will be lost. (Resume, then s, saves them.)", c.session.origin),
		func(yes bool) tea.Cmd {
			c.Pop()
			if yes {
				return then()
			}
			return nil
		})
}

func (s *homeScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	items := s.items()
	keys := s.c.Keys
	switch {
	case key.Matches(k, keys.Up):
		s.cursor = (s.cursor + len(items) - 1) % len(items)
	case key.Matches(k, keys.Down), k.String() == "tab":
		s.cursor = (s.cursor + 1) % len(items)
	case key.Matches(k, keys.Enter):
		return items[min(s.cursor, len(items)-1)].run()
	case key.Matches(k, keys.Back):
		return items[len(items)-1].run()
	default:
		// First letters jump: n, o, r, l, b, d.
		for i, it := range items {
			if strings.EqualFold(k.String(), it.label[:1]) && it.label != "Quit" {
				s.cursor = i
				return it.run()
			}
		}
	}
	return nil
}

func (s *homeScreen) View() string {
	c := s.c
	st := c.Styles
	w := s.w
	var out []string
	tall := s.h >= 16
	if tall {
		out = append(out, "")
	}
	items := s.items()
	out = append(out, " "+st.App.Render("stackpick"))
	// Every item stays on screen: on a short one the line of what the app
	// does goes first.
	if about := wrapStyled("Choose an LLM serving stack (engine, model server, orchestrator) and defend every pick.", w, 1, 0, st.Muted); len(out)+len(about)+1+len(items) <= s.h {
		out = append(out, about...)
	}
	out = append(out, "")
	labelW := 0
	for _, it := range items {
		labelW = max(labelW, screen.VisibleWidth(it.label))
	}
	for i, it := range items {
		label := padRight(it.label, labelW)
		if i == s.cursor {
			label = st.Selected.Render("› " + label + " ")
		} else {
			label = "  " + st.Text.Render(label) + " "
		}
		line := " " + label
		if it.hint != "" && w >= 60 {
			line += "  " + st.Muted.Render(it.hint)
		}
		out = append(out, truncate(line, w))
		if tall && w < 60 && it.hint != "" && i == s.cursor {
			out = append(out, truncate("     "+st.Muted.Render(it.hint), w))
		}
	}
	if s.h >= 14 {
		out = append(out, "")
		out = append(out, wrapStyled(fmt.Sprintf("Knowledge base: %d products, %d rules, %d questions. Every pick comes with its reasons, sources, risks and what would change it.", len(c.KB.Products), len(c.KB.Rules), len(c.KB.AnswerKeys())), w, 1, 0, st.Muted)...)
	}
	return strings.Join(out, "\n")
}

func (s *homeScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	enter := screen.WithHelp(k.Enter, "choose")
	quit := screen.WithHelp(k.Back, "quit")
	letters := key.NewBinding(key.WithKeys("n", "o", "l", "b", "d", "r"), key.WithHelp("n/o/l/b/d/r", "new/open/load/browse/drills/resume"))
	return screen.KeyHelp{
		Short: []key.Binding{enter, screen.UpDown(), quit},
		Full:  [][]key.Binding{{k.Up, k.Down, enter, letters, quit}},
	}
}

// noteLeft keeps the decision's screens when a message has just taken
// the user off them (back to home, or to the preset list under a preset's
// result), so Resume opens where they left (the form at its page and question, the result at its scroll).
// Screens that are not the decision's (the browser, the drills, a file
// prompt) leave what was kept alone.
func noteLeft(c *shared, before []screen.Screen) {
	if len(before) < 2 || len(c.Stack) == 0 || before[0] != c.Stack[0] {
		return
	}
	home, ok := c.Stack[0].(*homeScreen)
	if !ok {
		return
	}
	// The last form or result this message took off the stack is where the
	// user left, with what lay under it (a preset list, say); what lay above
	// it, a question among them, is never where to go back to.
	for i := len(before) - 1; i >= 1; i-- {
		switch before[i].(type) {
		case *formScreen, *resultScreen:
			if i < len(c.Stack) && c.Stack[i] == before[i] {
				break // still on the stack
			}
			home.resume = slices.Clone(before[1 : i+1])
			if len(c.Stack) == 1 && c.session.started {
				home.cursor = 0 // on Resume
			}
			return
		}
	}
	if len(c.Stack) == 1 && c.session.started {
		home.cursor = 0
	}
}
