package drills

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// drillEntry is one line of the drills menu.
type drillEntry struct {
	name, label, letter, hint string
}

var drillEntries = []drillEntry{
	{drill.Taxonomy, "Taxonomy", "t", "place 9 products: engine, model server or orchestrator"},
	{drill.Scenario, "Scenario", "s", "choose and defend a stack for a scenario"},
	{drill.Flags, "Flags", "f", "the top 12 vLLM flags: defaults, effects, names"},
	{drill.Explain, "Explain", "e", "Dynamo vs Dynamo-Triton in 90 seconds"},
	{drill.Mock, "Mock exit test", "m", "all four in a row, pass or fail against the bar"},
	{"stats", "Progress", "p", "scores over time and the items you miss most"},
}

// menuScreen is the drills menu: the four exit-test drills, the mock
// exit test and the progress so far.
type menuScreen struct {
	c      *shared
	cursor int
	w, h   int
}

func newMenuScreen(c *shared) *menuScreen {
	c.drills.load(c.KB)
	return &menuScreen{c: c}
}

func (s *menuScreen) Title() string { return "Drills" }

func (s *menuScreen) SetSize(w, h int) { s.w, s.h = w, h }

func (s *menuScreen) open(i int) tea.Cmd {
	s.cursor = i
	if sc := s.c.screenFor(drillEntries[i].name); sc != nil {
		s.c.Push(sc)
		return screen.Begin(sc)
	}
	return nil
}

func (s *menuScreen) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	keys := s.c.Keys
	n := len(drillEntries)
	switch {
	case key.Matches(k, keys.Back):
		s.c.Pop()
	case key.Matches(k, keys.Up):
		s.cursor = (s.cursor + n - 1) % n
	case key.Matches(k, keys.Down), k.String() == "tab":
		s.cursor = (s.cursor + 1) % n
	case key.Matches(k, keys.Enter):
		return s.open(s.cursor)
	default:
		for i, e := range drillEntries {
			if k.String() == e.letter || k.String() == fmt.Sprint(i+1) {
				return s.open(i)
			}
		}
	}
	return nil
}

// lastScores is "last 89% · best 100% · 3×" per drill, from the history.
func lastScores(sum store.Summary) map[string]string {
	out := map[string]string{}
	for _, d := range sum.Drills {
		t := fmt.Sprintf("last %.0f%% · best %.0f%% · %d×", 100*d.Last, 100*d.Best, d.Attempts)
		if d.Drill == drill.Mock {
			t = fmt.Sprintf("%d of %d passed · last %.0f%%", d.Passes, d.Attempts, 100*d.Last)
		}
		out[d.Drill] = t
	}
	return out
}

func (s *menuScreen) View() string {
	c := s.c
	st := c.Styles
	w := s.w
	d := c.drills
	var out []string
	tall := s.h >= 16
	if tall {
		out = append(out, "")
	}
	out = append(out, " "+st.Heading.Render("Exit-test drills"))
	if s.h >= 14 {
		out = append(out, report.WrapStyled("Practise until you can do it unaided at a whiteboard. What you miss comes back first.", w, 1, 0, st.Muted)...)
		out = append(out, "")
	}
	scores := lastScores(store.Summarize(d.records))
	labelW := 0
	for _, e := range drillEntries {
		labelW = max(labelW, len(e.label))
	}
	for i, e := range drillEntries {
		label := report.PadRight(e.label, labelW)
		if i == s.cursor {
			label = st.Selected.Render("› " + label + " ")
		} else {
			label = "  " + st.Key.Render(label[:1]) + st.Text.Render(label[1:]) + " "
		}
		line := " " + label
		if w >= 60 {
			line += "  " + st.Muted.Render(e.hint)
		}
		if sc := scores[e.name]; sc != "" && w >= 60+len(e.hint)+len(sc) {
			line = report.PadRight(line, w-len(sc)-2) + st.Muted.Render(sc)
		}
		out = append(out, report.Truncate(line, w))
	}
	var foot []string
	if w < 60 {
		// No room for the hints beside the entries: the chosen one's below.
		foot = append(foot, report.WrapStyled(drillEntries[s.cursor].hint, w, 1, 0, st.Muted)...)
	}
	if n := d.notice; n != "" {
		foot = append(foot, report.WrapStyled("⚠ "+n, w, 1, 2, st.Warn)...)
	}
	if p := d.problem; p != "" {
		foot = append(foot, report.WrapStyled("⚠ Drill history: "+p, w, 1, 2, st.Warn)...)
	}
	if tall && d.content != nil {
		b := d.content.Bar
		foot = append(foot, report.WrapStyled(fmt.Sprintf("The bar: every product placed, every layer of the stack right, %.0f%% of the flag points, %.0f%% of the key points in %d seconds.",
			100*b.Flags, 100*b.Explain, d.content.Topic().Seconds), w, 1, 0, st.Muted)...)
	}
	room := s.h - len(out) - 1
	if tall && d.path != "" && d.problem == "" {
		kept := report.WrapStyled("Results are kept in "+d.path, w, 1, 0, st.Muted)
		if len(foot)+len(kept) > room {
			kept = keptIn(d.path, w, st.Muted)
		}
		foot = append(foot, kept...)
	}
	if len(foot) > 0 {
		if len(foot) > room {
			foot = foot[:max(room, 0)]
			if room > 0 {
				// One "…" says more follows: the line is cut without one.
				foot[room-1] = strings.TrimRight(ansi.Truncate(foot[room-1], w-11, ""), " …") + st.Muted.Render("… p: more")
			}
		}
		if len(foot) > 0 {
			out = append(out, "")
			out = append(out, foot...)
		}
	}
	return strings.Join(out, "\n")
}

// keptIn says where the history is kept in as few lines of w cells as it
// can: the path beside the words when it fits there, else on a line of its
// own, cut in the middle when it is wider than that line; the file name is
// kept whole (the progress screen, p, shows the whole path).
func keptIn(path string, w int, st lipgloss.Style) []string {
	const words = "Results are kept in "
	if n := w - 1 - len(words); ansi.StringWidth(path) <= n || n >= ansi.StringWidth(filepath.Base(path))+8 {
		return []string{" " + st.Render(words+cutMiddle(path, n))}
	}
	return []string{" " + st.Render(strings.TrimSpace(words)), " " + st.Render(cutMiddle(path, w-1))}
}

// cutMiddle fits path into n cells: whole when it fits, else its start
// and its file name with "…" between them, or the end of the file name
// when not even that fits.
func cutMiddle(path string, n int) string {
	pw := ansi.StringWidth(path)
	if pw <= n {
		return path
	}
	if n <= 1 {
		return ansi.Truncate(path, n, "…")
	}
	tail := string(filepath.Separator) + filepath.Base(path)
	tw := ansi.StringWidth(tail)
	if tw+2 > n || !strings.ContainsRune(path, filepath.Separator) {
		return "…" + ansi.TruncateLeft(path, pw-(n-1), "")
	}
	return ansi.Truncate(path, n-tw, "…") + tail
}

func (s *menuScreen) Help() screen.KeyHelp {
	k := s.c.Keys
	enter := screen.WithHelp(k.Enter, "start")
	letters := key.NewBinding(key.WithKeys("t", "s", "f", "e", "m", "p"), key.WithHelp("t/s/f/e/m/p", "start that drill, or progress"))
	numbers := key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "the same, by number"))
	back := k.Back
	if len(s.c.Stack) > 0 && s.c.Stack[0] == screen.Screen(s) {
		back = screen.WithHelp(back, "quit") // opened by 'stackpick drill NAME'
	}
	return screen.KeyHelp{
		Short: []key.Binding{enter, screen.UpDown(), back},
		Full:  [][]key.Binding{{k.Up, k.Down, enter, letters, numbers, back}},
	}
}
