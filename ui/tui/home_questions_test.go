package tui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/ui/report"
)

// The home screen and `stackpick kb check` count the same questions: the
// ones the form asks (derived answers are worked out, never asked, and
// kb check counts them apart).
func TestHomeScreenAndKBCheckCountTheSameQuestions(t *testing.T) {
	kb, _ := loadKB(t)
	asked := 0
	for _, p := range questionPages(kb) {
		asked += len(p.questions)
	}
	derived := len(kb.Questions) - asked
	if derived == 0 {
		t.Fatal("the knowledge base has no derived answers: this test cannot tell the two counts apart")
	}

	check := strings.Join(strings.Fields(report.KBSummary(kb, nil, report.DefaultStyles(), 1000)), " ")
	m := regexp.MustCompile(`(\d+) questions \(and (\d+) derived answers\)`).FindStringSubmatch(check)
	if m == nil {
		t.Fatalf("kb check does not say how many questions and derived answers:\n%s", check)
	}
	if m[1] != strconv.Itoa(asked) || m[2] != strconv.Itoa(derived) {
		t.Errorf("kb check counts %s questions and %s derived answers; the form asks %d, and %d are derived", m[1], m[2], asked, derived)
	}

	d := newDriver(t, 120, 40)
	home := strings.Join(strings.Fields(d.view()), " ")
	for _, want := range []string{"answer " + strconv.Itoa(asked) + " questions on", strconv.Itoa(asked) + " questions."} {
		if !strings.Contains(home, want) {
			t.Errorf("the home screen lacks %q (the form asks %d questions):\n%s", want, asked, home)
		}
	}
}
