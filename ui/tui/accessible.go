package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/store"
)

// runAccessible is the app for screen readers: numbered prompts read line
// by line (huh's accessible mode) on stderr, the same pages and defaults as
// the full-screen questionnaire, then the decision as plain text on stdout
// and an offer to save the answers.
func runAccessible(kb *knowledge.KB, list []scenarios.Scenario, opts Options) error {
	in := opts.Stdin
	if in == nil {
		in = os.Stdin
	}
	// Screen readers read escape codes aloud: strip them all.
	prompts := &colorprofile.Writer{Forward: opts.Stderr, Profile: colorprofile.NoTTY}

	start := ""
	choices := []choice{{"Defaults (a new decision)", ""}}
	for _, sc := range list {
		choices = append(choices, choice{sc.Title, sc.Name})
	}
	if err := askChoice(in, prompts, "Start from", choices, &start); err != nil {
		return err
	}
	answers, origin := kb.Defaults(), "New decision"
	for _, sc := range list {
		if sc.Name == start {
			answers, origin = sc.Answers.Clone(), sc.Title
		}
	}
	for i, p := range questionPages(kb) {
		fmt.Fprintf(prompts, "\nPage %d of %d: %s\n", i+1, len(questionPages(kb)), p.name)
		var bs []*binding
		for _, q := range p.questions {
			bs = append(bs, bindingFor(q, answers))
		}
		if err := askQuestions(in, prompts, kb, bs); err != nil {
			return err
		}
		before := answers
		for _, b := range bs {
			if v, err := b.value(); err == nil {
				answers = answers.With(kb.QuestionIndex(b.q.Key), v)
			}
		}
		var note string
		if answers, note = reconcile(answers, before); note != "" {
			fmt.Fprintln(prompts, note)
		}
	}
	d := decide.Decide(kb, answers)
	out := &colorprofile.Writer{Forward: opts.Stdout, Profile: opts.Profile}
	if out.Profile == colorprofile.Unknown {
		out.Profile = colorprofile.Detect(opts.Stdout, opts.Env)
	}
	if opts.NoColor {
		out.Profile = colorprofile.NoTTY
	}
	fmt.Fprintln(out)
	io.WriteString(out, report.Decision(kb, d, report.Header{Title: origin}, report.DefaultStyles(), 100))
	return offerSave(in, prompts, kb, answers, d, origin, opts.KBDir)
}

// offerSave asks for a file name and writes the answers there, asking
// before it replaces a file.
func offerSave(in io.Reader, w io.Writer, kb *knowledge.KB, a knowledge.Answers, d decide.Decision, origin, kbDir string) error {
	for {
		path := ""
		if err := askText(in, w, "Save the answers to a file? Type a path, or press enter to skip.", &path); err != nil {
			return err
		}
		path = expandHome(strings.TrimSpace(path))
		if path == "" {
			return nil
		}
		header := report.AnswersHeader(kb, d, origin, replayCommand(kbDir, path))
		err := store.WriteFile(path, a.TOML(header), false)
		if errors.Is(err, store.ErrExists) {
			yes := false
			if err := askYesNo(in, w, path+" exists. Replace it?", &yes); err != nil {
				return err
			}
			if !yes {
				continue
			}
			err = store.WriteFile(path, a.TOML(header), true)
		}
		if err != nil {
			fmt.Fprintf(w, "Not saved: %v\n", err)
			continue
		}
		fmt.Fprintf(w, "Saved %s. Replay: %s\n", path, replayCommand(kbDir, path))
		return nil
	}
}
