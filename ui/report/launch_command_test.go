package report_test

import (
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

// The clipboard's launch command is the command decide writes, bare: for
// one command exactly its text; with prefill and decode roles each role's
// command, a blank line between, and no comment line at all. A decision
// without a command has none.
func TestLaunchCommandForTheClipboardIsTheBareCommand(t *testing.T) {
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	// Every engine a preset picks has a command; a 70B model on one L4
	// has none.
	tooBig := kb.Defaults()
	for k, v := range map[string]any{"nodes": int64(1), "gpus_per_node": int64(1), "gpu": "l4"} {
		if err := tooBig.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	all = append(all, scenarios.Scenario{Name: "too-big", Answers: tooBig})
	roles, none := 0, 0
	for _, sc := range all {
		ec := decide.Decide(kb, sc.Answers).EngineConfig
		got := report.LaunchCommand(ec, 0)
		switch {
		case ec == nil || !ec.Covered:
			none++
			if got != "" {
				t.Errorf("%s: no launch command, yet %q", sc.Name, got)
			}
			continue
		case len(ec.Roles) == 0:
			if got != ec.CommandText {
				t.Errorf("%s: got\n%s\nwant decide's command\n%s", sc.Name, got, ec.CommandText)
			}
		default:
			roles++
			var want []string
			for _, rc := range ec.Roles {
				want = append(want, rc.CommandText)
			}
			if w := strings.Join(want, "\n\n"); got != w {
				t.Errorf("%s: got\n%s\nwant the roles' commands\n%s", sc.Name, got, w)
			}
		}
		for _, l := range strings.Split(got, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") || strings.Contains(l, "│") || strings.Contains(l, "\x1b") {
				t.Errorf("%s: the clipboard's command carries a comment, a border or colour: %q", sc.Name, l)
			}
		}
	}
	if roles == 0 || none == 0 {
		t.Errorf("the presets should include a prefill/decode split (%d) and a decision without a command (%d)", roles, none)
	}
	if report.LaunchCommand(nil, 0) != "" || report.LaunchCommand(nil, 80) != "" {
		t.Error("no engine config, no command")
	}
}

// The launch view (w > 0) keeps what the command's notes say below it: the
// release it is written for and what was not checked there, and each
// flag's source under its defense. The clipboard (w = 0) gets neither.
func TestTheLaunchViewKeepsTheNotesAndSources(t *testing.T) {
	kb, err := knowledge.Load("")
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		ec := decide.Decide(kb, sc.Answers).EngineConfig
		if ec == nil || !ec.Covered || len(ec.Command) == 0 {
			continue
		}
		view := report.LaunchCommand(ec, 100)
		for _, n := range ec.Notes {
			if words := strings.Fields(n); len(words) > 3 && !strings.Contains(strings.Join(strings.Fields(view), " "), strings.Join(words[:4], " ")) {
				t.Errorf("%s: the launch view drops the note %q", sc.Name, n)
			}
		}
		if !strings.Contains(view, "source: ") {
			t.Errorf("%s: the launch view shows no flag's source", sc.Name)
		}
		if clip := report.LaunchCommand(ec, 0); strings.Contains(clip, "source: ") || strings.Contains(clip, "Notes:") {
			t.Errorf("%s: the clipboard command carries notes or sources", sc.Name)
		}
	}
}
