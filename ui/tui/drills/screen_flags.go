package drills

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// flagsScreen is the flags drill: the top vLLM flags as the knowledge base
// holds them today. Shown a flag, type its default and pick its effect
// from four; shown an effect, name the flag. Each answer is graded at once
// (right or wrong, the right answer and its source), and all of them again
// at the end with the current default, what it depends on, the versions,
// and the corrections of the course notes (whose outdated names and
// defaults earn partial credit). An answer whose grade was shown is kept:
// going back stops at it.
type flagsScreen struct {
	drillBase
	qs      []drill.FlagQuestion
	inputs  []textinput.Model // the default, or the flag's name
	lists   []choiceList      // the four effects, for a default question
	choices []int             // the effect picked, -1 while none
	i       int               // the question shown
	onList  bool              // the effects have focus, not the text field
	// review is set while the grade of question i shows, before the next.
	review bool
	grade  drill.FlagGrade // of question i, while review
	result drill.FlagsResult
}

func newFlagsScreen(c *shared, mock *mockScreen) *flagsScreen {
	s := &flagsScreen{}
	s.start(c, drill.Flags, mock)
	s.qs = c.drills.content.FlagQuiz(c.KB, s.seed, c.drills.misses())
	for _, q := range s.qs {
		ph := "the flag's name"
		if q.Mode == drill.ModeDefault {
			ph = "its default"
		}
		s.inputs = append(s.inputs, newLineInput(c, ph, 80))
		s.lists = append(s.lists, choiceList{labels: q.Choices})
		s.choices = append(s.choices, -1)
	}
	s.inputs[0].Focus()
	return s
}

func (s *flagsScreen) Title() string {
	if s.graded {
		return "Flags · " + s.result.Score.Text()
	}
	if s.review {
		return fmt.Sprintf("Flags · %d/%d graded", s.i+1, len(s.qs))
	}
	return fmt.Sprintf("Flags · %d/%d", s.i+1, len(s.qs))
}

func (s *flagsScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	for i := range s.inputs {
		s.inputs[i].SetWidth(max(w-4, 4))
	}
	if s.graded {
		s.layoutResult()
	}
}

func (s *flagsScreen) answered() bool {
	return s.i > 0 || s.onList || s.inputs[0].Value() != ""
}

// goTo shows question i, focused on its text field or its effects.
func (s *flagsScreen) goTo(i int, onList bool) tea.Cmd {
	s.inputs[s.i].Blur()
	s.i, s.onList = i, onList
	if onList {
		if c := s.choices[i]; c >= 0 {
			s.lists[i].cursor = c
		}
		return nil
	}
	return s.inputs[i].Focus()
}

// answer grades question i and shows the grade before the next question.
func (s *flagsScreen) answer() tea.Cmd {
	s.inputs[s.i].Blur()
	s.grade = s.c.drills.content.GradeFlagAt(s.c.KB, s.qs, s.i, s.answerAt(s.i))
	s.review = true
	return nil
}

func (s *flagsScreen) answerAt(i int) drill.FlagAnswer {
	a := drill.FlagAnswer{Choice: s.choices[i]}
	v := strings.TrimSpace(s.inputs[i].Value())
	if s.qs[i].Mode == drill.ModeDefault {
		a.Default = v
	} else {
		a.Name = v
	}
	return a
}

func (s *flagsScreen) next() tea.Cmd {
	s.review = false
	if s.i+1 < len(s.qs) {
		return s.goTo(s.i+1, false)
	}
	return s.gradeAll()
}

func (s *flagsScreen) Update(msg tea.Msg) tea.Cmd {
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
			return s.gradedUpdate(k, func() screen.Screen { return newFlagsScreen(s.c, nil) })
		}
		return nil
	}
	keys := s.c.Keys
	q := s.qs[s.i]
	k, isKey := msg.(tea.KeyPressMsg)
	if s.review {
		switch {
		case !isKey:
		case k.String() == "esc" || k.String() == "q":
			return s.leave(true)
		case key.Matches(k, keys.Enter) || k.String() == "tab" || k.String() == "space":
			return s.next()
		}
		return nil
	}
	if isKey {
		switch {
		case k.String() == "esc" || (k.String() == "q" && s.onList):
			return s.leave(s.answered())
		case key.Matches(k, keys.PrevField):
			// Back within the question only: the answers before were
			// graded in front of the player.
			if s.onList {
				return s.goTo(s.i, false)
			}
			return nil
		}
	}
	if s.onList {
		if !isKey {
			return nil
		}
		if c := s.lists[s.i].update(k, keys); c >= 0 {
			s.choices[s.i] = c
			return s.answer()
		}
		return nil
	}
	if isKey && (key.Matches(k, keys.Enter) || k.String() == "tab") {
		if q.Mode == drill.ModeDefault {
			return s.goTo(s.i, true)
		}
		return s.answer()
	}
	var cmd tea.Cmd
	s.inputs[s.i], cmd = s.inputs[s.i].Update(msg)
	return cmd
}

func (s *flagsScreen) gradeAll() tea.Cmd {
	c := s.c
	answers := make([]drill.FlagAnswer, len(s.qs))
	for i := range s.qs {
		answers[i] = s.answerAt(i)
	}
	s.result = c.drills.content.GradeFlags(c.KB, s.qs, answers)
	if s.mock != nil {
		return s.mock.partDone()
	}
	s.graded = true
	cmd := s.keep(s, store.NewRecord(drill.Flags, s.seed, s.result.Score))
	s.layoutResult()
	return cmd
}

func (s *flagsScreen) layoutResult() {
	st := s.c.Styles
	w := s.w
	var wrong, right []string
	for i, g := range s.result.Grades {
		q := g.Question
		pts := drill.Fraction(g.Points, g.Max)
		if g.Points >= g.Max {
			what := q.Flag + ": default and effect"
			if q.Mode == drill.ModeName {
				what = "named " + q.Flag
			}
			right = append(right, markLine(st, true, what+" "+pts, w)...)
			continue
		}
		var ls []string
		said := strings.TrimSpace(s.inputs[i].Value())
		if said == "" {
			said = "nothing"
		}
		if q.Mode == drill.ModeDefault {
			ls = append(ls, markLine(st, false, fmt.Sprintf("%s %s: default %s, effect %s", q.Flag, pts, g.DefaultVerdict, g.EffectVerdict), w)...)
			ls = append(ls, report.WrapStyled("You said: "+said, w, 5, 2, st.Muted)...)
			if g.EffectVerdict != "right" {
				ls = append(ls, report.WrapStyled("Its effect: "+q.Effect, w, 5, 2, st.Text)...)
			}
		} else {
			ls = append(ls, markLine(st, false, fmt.Sprintf("%s %s: you named %s (%s)", q.Flag, pts, said, g.NameVerdict), w)...)
			ls = append(ls, report.WrapStyled("The effect shown: "+q.Effect, w, 5, 2, st.Muted)...)
		}
		if g.Correction != "" {
			ls = append(ls, report.WrapStyled("Correction: "+g.Correction, w, 5, 2, st.Warn)...)
		}
		ls = append(ls, report.WrapStyled("Default today: "+g.Default, w, 5, 2, st.Text)...)
		if g.DependsOn != "" {
			ls = append(ls, report.WrapStyled("Depends on: "+g.DependsOn, w, 5, 2, st.Text)...)
		}
		if g.Versions != "" {
			ls = append(ls, report.WrapStyled("Versions: "+g.Versions, w, 5, 2, st.Text)...)
		}
		ls = append(ls, report.WrapStyled("Source: "+g.Source, w, 5, 2, st.Muted)...)
		wrong = append(wrong, ls...)
	}
	lines := []string{""}
	lines = append(lines, wrong...)
	lines = append(lines, right...)
	s.setResult(lines)
}

func (s *flagsScreen) View() string {
	if s.graded {
		return s.resultView("Flags: " + s.result.Score.Text())
	}
	st := s.c.Styles
	w := s.w
	q := s.qs[s.i]
	num := st.Muted.Render(fmt.Sprintf("%d/%d  ", s.i+1, len(s.qs)))
	if s.review {
		return s.reviewView(num)
	}
	var top []string
	if q.Mode == drill.ModeName {
		top = append(top, report.Truncate(" "+num+st.Heading.Render("Which flag does this?"), w))
		top = append(top, report.WrapStyled("“"+q.Effect+"”", w, 1, 1, st.Text)...)
		if s.h >= 14 {
			top = append(top, "")
		}
		top = append(top, report.Truncate(" "+st.Muted.Render("The flag:"), w))
		top = append(top, " "+s.inputs[s.i].View())
		return strings.Join(top, "\n")
	}
	top = append(top, report.Truncate(" "+num+st.Heading.Render(q.Flag), w))
	if s.h >= 14 {
		top = append(top, "")
	}
	top = append(top, report.Truncate(" "+st.Muted.Render("Its default today:"), w))
	top = append(top, " "+s.inputs[s.i].View())
	label := "Its effect (1-4):"
	if !s.onList {
		label = "Then its effect (enter, then 1-4):"
	}
	top = append(top, report.Truncate(" "+st.Muted.Render(label), w))
	opts, at := s.lists[s.i].render(st, w-1, s.onList)
	room := s.h - len(top)
	if len(opts) > room {
		// Keep the entry under the cursor in view, from its first line.
		start := min(at, max(len(opts)-room, 0))
		if !s.onList {
			start = 0
		}
		end := min(len(opts), start+room)
		opts = opts[start:end]
	}
	return strings.Join(append(top, screen.Indent(strings.Join(opts, "\n"), 1)), "\n")
}

// reviewView is the grade of the question just answered: what was asked,
// what the player said, and the feedback, clipped to the screen from the
// top (the verdict and the right answer come first).
func (s *flagsScreen) reviewView(num string) string {
	st := s.c.Styles
	w := s.w
	q := s.qs[s.i]
	asked := q.Flag
	if q.Mode == drill.ModeName {
		asked = "Which flag does this?"
	}
	lines := []string{report.Truncate(" "+num+st.Heading.Render(asked), w)}
	said := strings.TrimSpace(s.inputs[s.i].Value())
	if said == "" {
		said = "nothing"
	}
	if q.Mode == drill.ModeDefault {
		effect := "none"
		if c := s.choices[s.i]; c >= 0 {
			effect = fmt.Sprint(c + 1)
		}
		said = "default " + said + ", effect " + effect
	}
	lines = append(lines, report.WrapStyled("You said: "+said, w, 1, 2, st.Muted)...)
	if s.h >= 14 {
		lines = append(lines, "")
	}
	for i, f := range s.grade.Feedback() {
		switch {
		case i == 0:
			lines = append(lines, markLine(st, s.grade.Points >= s.grade.Max, strings.TrimPrefix(strings.TrimPrefix(f, "✓ "), "✗ "), w)...)
		case strings.HasPrefix(f, "Source: "):
			lines = append(lines, report.WrapStyled(f, w, 3, 2, st.Muted)...)
		case strings.HasPrefix(f, "Correction: ") || strings.HasPrefix(f, "Did you mean "):
			lines = append(lines, report.WrapStyled(f, w, 3, 2, st.Warn)...)
		default:
			lines = append(lines, report.WrapStyled(f, w, 3, 2, st.Text)...)
		}
	}
	if len(lines) > s.h {
		lines = lines[:max(s.h, 1)]
	}
	return strings.Join(lines, "\n")
}

func (s *flagsScreen) Help() screen.KeyHelp {
	if s.graded {
		return s.gradedHelp()
	}
	k := s.c.Keys
	if s.review {
		label := "next question"
		if s.i+1 == len(s.qs) {
			label = "see the result"
		}
		next := key.NewBinding(key.WithKeys("enter", "tab", "space"), key.WithHelp("enter", label))
		back := key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "leave (asks first)"))
		return screen.KeyHelp{Short: []key.Binding{next, back}, Full: [][]key.Binding{{next, back}}}
	}
	prev := screen.WithHelp(k.PrevField, "back a step")
	if s.onList {
		pick := screen.WithHelp(k.Enter, "pick")
		nums := key.NewBinding(key.WithKeys("1", "2", "3", "4"), key.WithHelp("1-4", "pick by number"))
		back := key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("q/esc", "leave (asks first)"))
		return screen.KeyHelp{
			Short: []key.Binding{nums, screen.UpDown(), pick, prev, back},
			Full:  [][]key.Binding{{nums, k.Up, k.Down, pick, prev, back}},
		}
	}
	next := key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "next"))
	if s.qs[s.i].Mode == drill.ModeName {
		next = key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "answer"))
	}
	back := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave (asks first)"))
	return screen.KeyHelp{
		Short: []key.Binding{next, back},
		Full:  [][]key.Binding{{next, back}},
	}
}
