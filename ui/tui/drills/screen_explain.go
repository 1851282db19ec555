package drills

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// explainTick is the explanation's countdown ticking: one a second, for
// the screen that set it.
type explainTick struct {
	s    *explainScreen
	host screen.Screen
}

func (t explainTick) Recipient() screen.Screen { return t.host }

// explainScreen is the 90-second explanation: a visible countdown, a free
// text answer, then the key points it covered and missed and the reference
// explanation. The clock is the app's (tests pin it and send the ticks).
// When the countdown runs out before ctrl+d, the answer is graded as it
// stands but over time: it earns no points, as in the exit test.
type explainScreen struct {
	drillBase
	topic   drill.Topic
	started time.Time
	area    textarea.Model
	timeUp  bool
	result  drill.ExplainResult
}

func newExplainScreen(c *shared, mock *mockScreen) *explainScreen {
	s := &explainScreen{}
	s.start(c, drill.Explain, mock)
	s.topic = c.drills.content.Topic()
	s.started = c.drills.now()
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.Placeholder = "Type your explanation here; ctrl+d hands it in."
	ta.CharLimit = 8000
	ta.SetStyles(areaStyles(c))
	ta.Focus()
	s.area = ta
	return s
}

// takesQuestionMark: once the explanation has begun, "?" is part of it.
func (s *explainScreen) TakesQuestionMark() bool {
	return !s.graded && !s.done() && s.area.Value() != ""
}

// areaStyles are the answer's styles for the app's background.
func areaStyles(c *shared) textarea.Styles {
	st := textarea.DefaultStyles(c.Styles.Dark)
	st.Cursor.Blink = false
	st.Focused.CursorLine = lipgloss.NewStyle()
	st.Focused.Prompt = c.Styles.Key
	st.Focused.Placeholder = c.Styles.Muted
	st.Blurred.Placeholder = c.Styles.Muted
	return st
}

func (s *explainScreen) limit() time.Duration { return time.Duration(s.topic.Seconds) * time.Second }

func (s *explainScreen) elapsed() time.Duration { return s.c.drills.now().Sub(s.started) }

// begin starts the countdown's ticks.
func (s *explainScreen) Begin() tea.Cmd {
	if s.graded || s.done() {
		return nil
	}
	e := s.elapsed()
	wait := time.Second - e%time.Second
	return s.c.drills.after(wait, explainTick{s: s, host: s.host(s)})
}

// done is set once the answer is handed in or the time is up.
func (s *explainScreen) done() bool { return s.result.Topic != "" }

func (s *explainScreen) Title() string {
	if s.graded {
		return "Explain · " + s.result.Score.Text()
	}
	return "Explain · " + clock(s.remaining()) + " left"
}

func (s *explainScreen) remaining() time.Duration { return max(s.limit()-s.elapsed(), 0) }

// clock is m:ss, rounded up so it shows 0:00 only when the time is up.
func clock(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", secs/60, secs%60)
}

func (s *explainScreen) headerLines() []string {
	st := s.c.Styles
	w := s.w
	rem := s.remaining()
	cl := clock(rem) + " left"
	style := st.Heading
	switch {
	case rem <= 10*time.Second:
		style = st.Error
	case rem <= 30*time.Second:
		style = st.Warn
	}
	line := " " + style.Render(cl)
	if barW := w - screen.VisibleWidth(cl) - 4; barW >= 8 {
		filled := int(float64(barW) * float64(rem) / float64(s.limit()))
		line += "  " + style.Render(strings.Repeat("█", filled)) + st.Muted.Render(strings.Repeat("░", barW-filled))
	}
	out := []string{report.Truncate(line, w)}
	out = append(out, report.WrapStyled(s.topic.Prompt, w, 1, 0, st.Text)...)
	if s.h >= 16 {
		out = append(out, "")
	}
	return out
}

func (s *explainScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.area.SetWidth(max(w-1, 10))
	s.area.SetHeight(max(h-len(s.headerLines()), 1))
	if s.graded {
		s.layoutResult()
	}
}

func (s *explainScreen) Update(msg tea.Msg) tea.Cmd {
	if s.historyKept(msg) {
		s.layoutResult()
		return nil
	}
	if t, ok := msg.(explainTick); ok {
		if t.s != s || s.done() {
			return nil
		}
		if s.elapsed() > s.limit() {
			s.timeUp = true
			return s.grade()
		}
		return s.Begin()
	}
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.area.SetStyles(areaStyles(s.c))
	}
	if s.graded {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			return s.gradedUpdate(k, func() screen.Screen { return newExplainScreen(s.c, nil) })
		}
		return nil
	}
	keys := s.c.Keys
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case k.String() == "esc":
			return s.leave(strings.TrimSpace(s.area.Value()) != "")
		case key.Matches(k, keys.Done):
			return s.grade()
		}
	}
	var cmd tea.Cmd
	s.area, cmd = s.area.Update(msg)
	return cmd
}

func (s *explainScreen) grade() tea.Cmd {
	s.area.Blur()
	s.result = drill.GradeExplain(s.topic, s.area.Value(), s.elapsed())
	if s.mock != nil {
		return s.mock.partDone()
	}
	s.graded = true
	cmd := s.keep(s, store.NewRecord(drill.Explain, s.seed, s.result.Score))
	s.layoutResult()
	return cmd
}

func (s *explainScreen) scoreLine() string {
	return fmt.Sprintf("Explain: %s in %.0f s", s.result.Score.Text(), s.result.Elapsed)
}

func (s *explainScreen) layoutResult() {
	st := s.c.Styles
	w := s.w
	r := s.result
	var lines []string
	if !r.InTime {
		why := fmt.Sprintf("Over the %d-second limit, so no points: the exit test wants it said in time. What it covered:", s.topic.Seconds)
		if s.timeUp {
			why = fmt.Sprintf("Time's up: not handed in within %d seconds, so no points. What it covered by then:", s.topic.Seconds)
		}
		lines = append(lines, report.WrapStyled(why, w, 1, 0, st.Warn)...)
	}
	for _, f := range r.Feedback {
		lines = append(lines, report.WrapStyled(f, w, 1, 0, st.Warn)...)
	}
	lines = append(lines, "")
	for i, p := range r.Covered {
		text := p.Text
		if i < len(r.Terms) {
			text += " (matched “" + r.Terms[i] + "”)"
		}
		lines = append(lines, markLine(st, true, text, w)...)
	}
	for _, p := range r.Missed {
		lines = append(lines, markLine(st, false, p.Text, w)...)
		if n := r.Note(p.ID); n != "" {
			lines = append(lines, report.WrapStyled(n+".", w, 5, 0, st.Muted)...)
		}
	}
	lines = append(lines, "", " "+st.Heading.Render("Reference explanation"))
	lines = append(lines, report.Wrap(s.topic.Reference, w, 1, 0)...)
	lines = append(lines, "", " "+st.Heading.Render("Your answer"))
	if a := strings.TrimSpace(s.area.Value()); a != "" {
		lines = append(lines, report.WrapStyled(a, w, 1, 0, st.Muted)...)
	} else {
		lines = append(lines, " "+st.Muted.Render("(nothing)"))
	}
	s.setResult(lines)
}

func (s *explainScreen) View() string {
	if s.graded {
		return s.resultView(s.scoreLine())
	}
	head := s.headerLines()
	if h := max(s.h-len(head), 1); h != s.area.Height() {
		s.area.SetHeight(h)
	}
	return strings.Join(head, "\n") + "\n" + s.area.View()
}

func (s *explainScreen) Help() screen.KeyHelp {
	if s.graded {
		return s.gradedHelp()
	}
	k := s.c.Keys
	back := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave (asks first)"))
	newline := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "new line"))
	qmark := key.NewBinding(key.WithKeys("?"), key.WithHelp("? in text", "a question mark, once begun"))
	return screen.KeyHelp{
		Short: []key.Binding{k.Done, back},
		Full:  [][]key.Binding{{k.Done, newline, back, qmark}},
	}
}
