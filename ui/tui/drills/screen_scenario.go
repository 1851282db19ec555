package drills

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// scenarioScreen is the scenario drill: a story (a preset, or one
// generated from the seed), then for each layer a product to pick and one
// line to defend it. Graded against decide: right or wrong per layer, the
// fired rules' key terms the defense used, and the full rationale.
type scenarioScreen struct {
	drillBase
	prompt  drill.ScenarioPrompt
	layers  []*knowledge.Layer
	options [][]string // product ids per layer; "none" last on optional layers
	lists   []choiceList
	inputs  []textinput.Model
	picks   []int // index into options, -1 while unpicked
	layer   int
	typing  bool // the defense has focus, not the products

	story    bool // the whole story fills the screen
	storyTop int

	decision decide.Decision
	result   drill.ScenarioResult
}

func newScenarioScreen(c *shared, mock *mockScreen) *scenarioScreen {
	s := &scenarioScreen{}
	s.start(c, drill.Scenario, mock)
	s.prompt = c.scenarioPrompt(s.seed)
	s.layers = c.KB.Layers
	for _, l := range s.layers {
		var ids, labels []string
		for _, p := range c.KB.ProductsOn(l.ID) {
			ids = append(ids, p.ID)
			labels = append(labels, p.Name)
		}
		if l.Optional {
			ids = append(ids, knowledge.None)
			labels = append(labels, report.EmptyLayer(c.KB, l.ID))
		}
		s.options = append(s.options, ids)
		s.lists = append(s.lists, choiceList{labels: labels})
		s.inputs = append(s.inputs, newLineInput(c, "one line: why this product here", 80))
		s.picks = append(s.picks, -1)
	}
	return s
}

func (s *scenarioScreen) Title() string {
	if s.graded {
		return "Scenario · " + s.result.Score.Text()
	}
	return fmt.Sprintf("Scenario · layer %d/%d", s.layer+1, len(s.layers))
}

func (s *scenarioScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	for i := range s.inputs {
		s.inputs[i].SetWidth(max(w-4, 4))
	}
	if s.graded {
		s.layoutResult()
	}
}

// takesQuestionMark: a defense already begun may ask a question.
func (s *scenarioScreen) TakesQuestionMark() bool {
	return !s.graded && !s.story && s.typing && s.inputs[s.layer].Value() != ""
}

func (s *scenarioScreen) answered() bool {
	return slices.ContainsFunc(s.picks, func(p int) bool { return p >= 0 })
}

func (s *scenarioScreen) focusDefense() tea.Cmd {
	s.typing = true
	return s.inputs[s.layer].Focus()
}

func (s *scenarioScreen) focusPicks() {
	s.typing = false
	s.inputs[s.layer].Blur()
	if p := s.picks[s.layer]; p >= 0 {
		s.lists[s.layer].cursor = p
	}
}

func (s *scenarioScreen) Update(msg tea.Msg) tea.Cmd {
	if s.historyKept(msg) {
		s.layoutResult()
		return nil
	}
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		for i := range s.inputs {
			s.inputs[i].SetStyles(lineInputStyles(s.c))
		}
	}
	if s.graded {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			return s.gradedUpdate(k, func() screen.Screen { return newScenarioScreen(s.c, nil) })
		}
		return nil
	}
	keys := s.c.Keys
	k, isKey := msg.(tea.KeyPressMsg)
	if isKey && s.story {
		switch {
		case key.Matches(k, keys.Story, keys.Back, keys.Enter):
			s.story = false
		case key.Matches(k, keys.Up):
			s.storyTop--
		case key.Matches(k, keys.Down):
			s.storyTop++
		case key.Matches(k, keys.PageUp):
			s.storyTop -= max(s.h-2, 1)
		case key.Matches(k, keys.PageDown):
			s.storyTop += max(s.h-2, 1)
		}
		return nil
	}
	if isKey {
		switch {
		case key.Matches(k, keys.Story):
			s.story, s.storyTop = true, 0
			return nil
		case k.String() == "esc" || (k.String() == "q" && !s.typing):
			return s.leave(s.answered())
		case key.Matches(k, keys.PrevField):
			if s.typing {
				s.focusPicks()
			} else if s.layer > 0 {
				s.inputs[s.layer].Blur()
				s.layer--
				return s.focusDefense()
			}
			return nil
		}
	}
	if s.typing {
		if isKey && (key.Matches(k, keys.Enter) || k.String() == "tab") {
			s.inputs[s.layer].Blur()
			if s.layer+1 < len(s.layers) {
				s.layer++
				s.focusPicks()
				return nil
			}
			return s.grade()
		}
		var cmd tea.Cmd
		s.inputs[s.layer], cmd = s.inputs[s.layer].Update(msg)
		return cmd
	}
	if !isKey {
		return nil
	}
	if i := s.lists[s.layer].update(k, keys); i >= 0 {
		s.picks[s.layer] = i
		return s.focusDefense()
	}
	return nil
}

// answer is the stack and defenses as given.
func (s *scenarioScreen) answer() drill.StackAnswer {
	ans := drill.StackAnswer{Picks: map[string]string{}, Defense: map[string]string{}}
	for i, l := range s.layers {
		if p := s.picks[i]; p >= 0 {
			ans.Picks[l.ID] = s.options[i][p]
		}
		ans.Defense[l.ID] = strings.TrimSpace(s.inputs[i].Value())
	}
	return ans
}

func (s *scenarioScreen) grade() tea.Cmd {
	c := s.c
	s.decision = c.Decider.Decide(s.prompt.Answers)
	s.result = c.drills.content.GradeScenario(c.KB, s.decision, s.answer())
	if s.mock != nil {
		return s.mock.partDone()
	}
	s.graded = true
	cmd := s.keep(s, store.NewRecord(drill.Scenario, s.seed, s.result.Score))
	s.layoutResult()
	return cmd
}

func (s *scenarioScreen) layoutResult() {
	c := s.c
	st := c.Styles
	w := s.w
	ans := s.answer()
	lines := []string{""}
	for _, g := range s.result.Layers {
		want := report.PickText(c.KB, decide.LayerPick{Layer: g.Layer, Pick: g.Want, Also: g.Also})
		lines = append(lines, markLine(st, g.Right, fmt.Sprintf("%s: you picked %s; stackpick picks %s", c.KB.Layer(g.Layer).Name, report.PickedText(c.KB, g.Layer, g.Got), want), w)...)
		if d := ans.Defense[g.Layer]; d != "" {
			lines = append(lines, report.WrapStyled("Your defense: “"+d+"”", w, 5, 2, st.Text)...)
		} else {
			lines = append(lines, report.WrapStyled("No defense given.", w, 5, 0, st.Muted)...)
		}
		if len(g.Terms) > 0 {
			lines = append(lines, report.WrapStyled("It named: "+strings.Join(g.Terms, ", "), w, 5, 2, st.Good)...)
		}
		if len(g.Rationale) > 0 {
			lines = append(lines, report.WrapStyled(fmt.Sprintf("Why (%d of %d reasons named):", len(g.Mentioned), len(g.Rationale)), w, 5, 0, st.Muted)...)
		}
		for _, r := range g.Rationale {
			mark := st.Muted.Render("·")
			if slices.Contains(g.Mentioned, r.Rule) {
				mark = st.Good.Render("✓")
			}
			// Words only: rule ids live in the trace view and JSON.
			ls := report.Wrap(r.Text, w, 7, 2)
			ls[0] = "     " + mark + " " + strings.TrimLeft(ls[0], " ")
			lines = append(lines, ls...)
		}
		lines = append(lines, "")
	}
	lines = append(lines, " "+st.Heading.Render(report.Truncate(s.prompt.Title, w-1)))
	lines = append(lines, report.WrapStyled(s.prompt.Story, w, 1, 0, st.Muted)...)
	s.setResult(lines)
}

func (s *scenarioScreen) View() string {
	if s.graded {
		return s.resultView("Scenario: " + s.result.Score.Text())
	}
	c := s.c
	st := c.Styles
	w := s.w
	storyLines := report.Wrap(s.prompt.Story, w, 1, 0)
	if s.story {
		s.storyTop = max(0, min(s.storyTop, len(storyLines)-(s.h-1)))
		out := []string{report.Truncate(" "+st.Heading.Render(s.prompt.Title), w)}
		end := min(len(storyLines), s.storyTop+s.h-1)
		return strings.Join(append(out, storyLines[s.storyTop:end]...), "\n")
	}

	// The question: the products (or, while defending, the one picked),
	// then the defense line.
	l := s.layers[s.layer]
	var q []string
	q = append(q, report.Truncate(" "+st.Layer.Render(fmt.Sprintf("%s (%d/%d)", l.Name, s.layer+1, len(s.layers)))+st.Muted.Render(": which product?"), w))
	if s.typing {
		q[0] = report.Truncate(" "+st.Layer.Render(l.Name)+st.Muted.Render(": ")+st.Pick.Render(s.lists[s.layer].labels[s.picks[s.layer]]), w)
	} else {
		opts, _ := s.lists[s.layer].render(st, w-1, true)
		q = append(q, screen.Indent(strings.Join(opts, "\n"), 1))
	}
	label := "Defend it in one line"
	if !s.typing {
		label += " (after the pick)"
	}
	q = append(q, report.Truncate(" "+st.Muted.Render(label+":"), w))
	q = append(q, " "+s.inputs[s.layer].View())
	qh := lineCount(q)

	// What was answered before, when there is room for it, with a neutral
	// mark: right and wrong are for the graded result.
	var done []string
	for i := range s.layer {
		if p := s.picks[i]; p >= 0 {
			d := strings.TrimSpace(s.inputs[i].Value())
			if d != "" {
				d = " — " + d
			}
			done = append(done, report.Truncate(" "+st.Muted.Render("• "+s.layers[i].Name+": ")+c.KB.ChoiceName(s.layers[i].ID, s.options[i][p])+st.Muted.Render(d), w))
		}
	}

	room := s.h - qh - 1 // the title line
	if len(done) > 0 && room-len(done)-1 >= 3 {
		room -= len(done)
	} else {
		done = nil
	}
	gap := room-1 >= 3
	if gap {
		room--
	}
	title := " " + st.Heading.Render(s.prompt.Title)
	var story []string
	switch {
	case room <= 0:
		title += st.Muted.Render(" · ctrl+o: the story")
	case len(storyLines) <= room:
		story = storyLines
	default:
		story = append(story, storyLines[:room-1]...)
		story = append(story, ansi.Truncate(storyLines[room-1], w-22, "")+st.Muted.Render(" … ctrl+o: whole story"))
	}
	out := []string{report.Truncate(title, w)}
	out = append(out, story...)
	if gap {
		out = append(out, "")
	}
	out = append(out, done...)
	out = append(out, q...)
	return strings.Join(out, "\n")
}

func lineCount(parts []string) int {
	n := 0
	for _, p := range parts {
		n += strings.Count(p, "\n") + 1
	}
	return n
}

func (s *scenarioScreen) Help() screen.KeyHelp {
	if s.graded {
		return s.gradedHelp()
	}
	k := s.c.Keys
	if s.story {
		closeStory := key.NewBinding(key.WithKeys("ctrl+o", "esc", "enter"), key.WithHelp("ctrl+o/esc", "back to the question"))
		scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
		return screen.KeyHelp{Short: []key.Binding{closeStory, scroll}, Full: [][]key.Binding{{closeStory, k.Up, k.Down, k.PageUp, k.PageDown}}}
	}
	back := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave (asks first)"))
	prev := screen.WithHelp(k.PrevField, "back a step")
	if s.typing {
		next := key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "next layer (the last grades)"))
		return screen.KeyHelp{
			Short: []key.Binding{screen.WithHelp(next, "next"), prev, k.Story, back},
			Full:  [][]key.Binding{{next, prev, k.Story, back}},
		}
	}
	pick := screen.WithHelp(k.Enter, "pick")
	nums := key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "pick by number"))
	back = key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "leave (asks first)"))
	return screen.KeyHelp{
		Short: []key.Binding{screen.UpDown(), pick, nums, k.Story, back},
		Full:  [][]key.Binding{{k.Up, k.Down, pick, nums, prev, k.Story, back}},
	}
}
