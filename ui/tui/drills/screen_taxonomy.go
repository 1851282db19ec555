package drills

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/scenarios/drill"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
	"github.com/stackpick/stackpick/ui/tui/screen"
)

// taxonomyScreen is the taxonomy drill: every product in a list, placed in
// its layer with one key (e, m, o), the most-missed products first. It is
// graded once all are placed and enter is pressed, with the one-line reason
// for each wrong placement. Wide terminals draw the whiteboard beside it.
type taxonomyScreen struct {
	drillBase
	products []string
	placed   map[string]string // product → layer
	cursor   int
	top      int
	result   drill.TaxonomyResult
}

func newTaxonomyScreen(c *shared, mock *mockScreen) *taxonomyScreen {
	s := &taxonomyScreen{placed: map[string]string{}}
	s.start(c, drill.Taxonomy, mock)
	s.products = c.drills.content.TaxonomyQuiz(s.seed, c.drills.misses())
	return s
}

func (s *taxonomyScreen) Title() string {
	if s.graded {
		return "Taxonomy · " + drill.Fraction(s.result.Score.Points, s.result.Score.Max) + " right"
	}
	return fmt.Sprintf("Taxonomy · %d/%d placed", len(s.placed), len(s.products))
}

func (s *taxonomyScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.graded {
		s.layoutResult()
	}
}

// layerKeys are the keys that place a product: the first letter of each
// layer's name, or its number.
func (s *taxonomyScreen) layerFor(k string) string {
	for i, l := range s.c.KB.Layers {
		if k == strings.ToLower(l.Name[:1]) || k == fmt.Sprint(i+1) {
			return l.ID
		}
	}
	return ""
}

// nextUnplaced is the first product after from (wrapping) not yet placed,
// or -1.
func (s *taxonomyScreen) nextUnplaced(from int) int {
	n := len(s.products)
	for i := 1; i <= n; i++ {
		j := (from + i) % n
		if s.placed[s.products[j]] == "" {
			return j
		}
	}
	return -1
}

func (s *taxonomyScreen) Update(msg tea.Msg) tea.Cmd {
	if s.historyKept(msg) {
		s.layoutResult()
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if s.graded {
		return s.gradedUpdate(k, func() screen.Screen { return newTaxonomyScreen(s.c, nil) })
	}
	keys := s.c.Keys
	n := len(s.products)
	switch {
	case key.Matches(k, keys.Back):
		return s.leave(len(s.placed) > 0)
	case key.Matches(k, keys.Up):
		s.cursor = (s.cursor + n - 1) % n
	case key.Matches(k, keys.Down), k.String() == "tab":
		s.cursor = (s.cursor + 1) % n
	case key.Matches(k, keys.Enter):
		if next := s.nextUnplaced(s.cursor - 1); next >= 0 {
			s.cursor = next
			s.c.Status = fmt.Sprintf("%d still to place: e, m or o places the one under the cursor", n-len(s.placed))
			return nil
		}
		return s.grade()
	default:
		if layer := s.layerFor(k.String()); layer != "" {
			s.placed[s.products[s.cursor]] = layer
			if next := s.nextUnplaced(s.cursor); next >= 0 {
				s.cursor = next
			}
		}
	}
	return nil
}

func (s *taxonomyScreen) grade() tea.Cmd {
	s.result = s.c.drills.content.GradeTaxonomy(s.c.KB, s.products, s.placed)
	if s.mock != nil {
		return s.mock.partDone()
	}
	s.graded = true
	cmd := s.keep(s, store.NewRecord(drill.Taxonomy, s.seed, s.result.Score))
	s.layoutResult()
	return cmd
}

func (s *taxonomyScreen) layoutResult() {
	c := s.c
	st := c.Styles
	w := s.w
	var wrong, right []string
	for _, p := range s.result.Placements {
		name := c.KB.ProductName(p.Product)
		if p.Right {
			right = append(right, markLine(st, true, name+": "+report.PlacedText(c.KB, p.Want), w)...)
			continue
		}
		wrong = append(wrong, markLine(st, false, name+": you said "+report.PlacedText(c.KB, p.Got), w)...)
		wrong = append(wrong, report.WrapStyled(p.Why, w, 5, 0, st.Muted)...)
	}
	lines := []string{""}
	lines = append(lines, wrong...)
	lines = append(lines, right...)
	s.setResult(lines)
}

func (s *taxonomyScreen) View() string {
	if s.graded {
		return s.resultView("Taxonomy: " + s.result.Score.Text())
	}
	c := s.c
	st := c.Styles
	w := s.w
	// The whiteboard beside the list when there is room for both.
	boardW := 0
	if w >= 96 && s.h >= 16 {
		boardW = 34
	}
	lw := w
	if boardW > 0 {
		lw = min(w-boardW-2, 60)
	}
	var left []string
	cur := s.products[s.cursor]
	q := fmt.Sprintf("%d/%d  Where does %s belong?", s.cursor+1, len(s.products), c.KB.ProductName(cur))
	left = append(left, report.Truncate(" "+st.Heading.Render(q), lw))
	left = append(left, report.Truncate(" "+s.keyLine(lw-1), lw))
	if s.h >= 14 {
		left = append(left, "")
	}
	nameW := 0
	for _, id := range s.products {
		nameW = max(nameW, screen.VisibleWidth(c.KB.ProductName(id)))
	}
	var rows []string
	for i, id := range s.products {
		where, styled := "–", st.Muted.Render("–")
		if l := s.placed[id]; l != "" {
			where = strings.ToLower(c.KB.Layer(l).Name)
			styled = where
		}
		name := report.PadRight(c.KB.ProductName(id), nameW)
		if i == s.cursor {
			rows = append(rows, report.Truncate(" "+st.Selected.Render("› "+name+"  "+where+" "), lw))
		} else {
			rows = append(rows, report.Truncate("   "+name+"  "+styled, lw))
		}
	}
	foot := ""
	if len(s.placed) == len(s.products) {
		foot = " " + st.Good.Render("All placed.") + " " + st.Key.Render("enter") + st.Muted.Render(" grades; ↑/↓ and e/m/o change one")
	} else if s.h >= 14 {
		foot = " " + st.Muted.Render("enter grades once all are placed")
	}
	listH := s.h - len(left)
	if foot != "" {
		listH--
	}
	visible, top := screen.Window(rows, listH, s.cursor, s.top)
	s.top = top
	left = append(left, visible...)
	if foot != "" {
		if len(left)+2 <= s.h {
			left = append(left, "")
		}
		left = append(left, report.Truncate(foot, lw))
	}
	if boardW == 0 {
		return strings.Join(left, "\n")
	}
	board := s.board(boardW)
	out := make([]string, max(len(left), len(board)))
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(board) {
			r = board[i]
		}
		out[i] = report.PadRight(l, lw) + "  " + r
	}
	return strings.Join(out, "\n")
}

// keyLine names the placing keys, as long as the width allows.
func (s *taxonomyScreen) keyLine(w int) string {
	st := s.c.Styles
	var long, short []string
	for _, l := range s.c.KB.Layers {
		k := strings.ToLower(l.Name[:1])
		long = append(long, st.Key.Render(k)+" "+st.Muted.Render(strings.ToLower(l.Name)))
		short = append(short, st.Key.Render(k)+st.Muted.Render("="+strings.ToLower(strings.Fields(l.Name)[len(strings.Fields(l.Name))-1])))
	}
	line := strings.Join(long, st.Muted.Render(" · "))
	if screen.VisibleWidth(line) > w {
		line = strings.Join(short, " ")
	}
	return line
}

// board is the whiteboard: one box per layer with what was placed in it.
func (s *taxonomyScreen) board(w int) []string {
	c := s.c
	st := c.Styles
	var out []string
	for _, l := range c.KB.Layers {
		var body []string
		for _, id := range s.products {
			if s.placed[id] == l.ID {
				body = append(body, c.KB.ProductName(id))
			}
		}
		if len(body) == 0 {
			body = []string{st.Muted.Render("…")}
		}
		out = append(out, screen.Box(st, st.Layer.Render(strings.ToUpper(l.Name)), body, w, 0)...)
	}
	return out
}

func (s *taxonomyScreen) Help() screen.KeyHelp {
	if s.graded {
		return s.gradedHelp()
	}
	k := s.c.Keys
	place := key.NewBinding(key.WithKeys("e", "m", "o"), key.WithHelp("e/m/o", "engine, server, orchestrator"))
	nums := key.NewBinding(key.WithKeys("1", "2", "3"), key.WithHelp("1/2/3", "the same, by number"))
	grade := screen.WithHelp(k.Enter, "grade (once all are placed)")
	back := screen.WithHelp(k.Back, "leave (asks first)")
	return screen.KeyHelp{
		Short: []key.Binding{screen.WithHelp(place, "place"), screen.UpDown(), screen.WithHelp(k.Enter, "grade"), back},
		Full:  [][]key.Binding{{place, nums, k.Up, k.Down, grade, back}},
	}
}
