package decide

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// Every flag a launch command emits must have a repository source, read
// (not marked not available), at the release the command is written for
// (EngineConfig.Release): for every preset scenario and every engine that
// has a command. kb verify then checks those sources' quotes and that the
// flag is in the engine's argument parser at that release.
func TestEveryEmittedFlagHasASourceAtTheCommandsRelease(t *testing.T) {
	kb := knowledge.MustDefault()
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	c := Compile(kb)
	// engine and release → flag → the first scenario that emits it.
	missing := map[string]map[string]string{}
	noRelease := map[string]string{}
	commands := 0
	for _, s := range list {
		for _, e := range kb.ProductsOn(knowledge.LayerEngine) {
			ec := engineConfig(c, s.Answers, e.ID)
			if !ec.Covered || len(ec.Command) == 0 {
				continue
			}
			commands++
			if ec.Release == "" {
				if _, ok := noRelease[e.ID]; !ok {
					noRelease[e.ID] = s.Name
				}
				continue
			}
			for _, l := range ec.Command {
				f := kb.Flag(l.FlagID)
				if f == nil {
					t.Errorf("scenario %s, %s: %s has no flag row %q", s.Name, e.ID, l.Flag, l.FlagID)
					continue
				}
				if hasSourceAt(f, ec.Release) {
					continue
				}
				key := e.ID + " " + ec.Release
				if missing[key] == nil {
					missing[key] = map[string]string{}
				}
				if _, ok := missing[key][f.ID]; !ok {
					missing[key][f.ID] = fmt.Sprintf("%s (%s:%d; first emitted for scenario %s)", l.Flag, f.Pos.File, f.Pos.Line, s.Name)
				}
			}
		}
	}
	if commands == 0 {
		t.Fatal("no preset scenario got a launch command: the test checks nothing")
	}
	for _, e := range sortedKeys(noRelease) {
		t.Errorf("%s's launch command names no release (EngineConfig.Release is empty; first seen for scenario %s): set it to the tag the command is written for", e, noRelease[e])
	}
	for _, key := range sortedKeys(missing) {
		var lines []string
		for _, id := range sortedKeys(missing[key]) {
			lines = append(lines, "  "+missing[key][id])
		}
		t.Errorf("%s: %d emitted flags have no repository source with ref = %q that was read (add a [[flag.source]] kind = \"repo\" at that tag, with commit and quote):\n%s",
			key, len(lines), key[strings.Index(key, " ")+1:], strings.Join(lines, "\n"))
	}
}

// hasSourceAt reports whether the flag has a repository source that was
// read at the release.
func hasSourceAt(f *knowledge.Flag, release string) bool {
	for _, s := range f.Sources.OfRepo() {
		if s.Ref == release && !s.Unavailable() {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// kb verify checks flags at the releases the commands name, for every
// engine with a command, not only the picked one.
func TestCommandReleasesNameEveryEngineWithACommand(t *testing.T) {
	kb := knowledge.MustDefault()
	got := CommandReleases(kb, []knowledge.Answers{scenarioAnswers(t, kb, "exit-test")})
	c := Compile(kb)
	for _, e := range kb.ProductsOn(knowledge.LayerEngine) {
		ec := engineConfig(c, scenarioAnswers(t, kb, "exit-test"), e.ID)
		want := []string(nil)
		if ec.Covered && ec.Release != "" {
			want = []string{ec.Release}
		}
		if fmt.Sprint(got[e.ID]) != fmt.Sprint(want) {
			t.Errorf("%s: releases %v, want %v", e.ID, got[e.ID], want)
		}
	}
	if len(got[knowledge.EngineVLLM]) != 1 {
		t.Errorf("vLLM's command names its release: %v", got)
	}
}
