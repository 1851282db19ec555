package decide

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// Every launch command is written for the newest release the knowledge
// base names for its engine ([product.release] tag), and every flag it
// emits has a repository source at that release (ref = the tag). Where
// that source could not be read (the release's own files were not
// available), the command says so in its notes, naming the flags: it is
// never presented as checked at a release it was not read at. Where no
// release could be established, the command says that instead. For every
// preset scenario and every engine that has a command.
func TestEveryEmittedFlagHasASourceAtTheCommandsRelease(t *testing.T) {
	kb := knowledge.MustDefault()
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	c := Compile(kb)
	// engine and release → flag → the first scenario that emits it.
	missing := map[string]map[string]string{}
	commands := 0
	for _, s := range list {
		for _, e := range kb.ProductsOn(knowledge.LayerEngine) {
			ec := engineConfig(c, s.Answers, e.ID)
			if !ec.Covered || len(ec.Command) == 0 {
				continue
			}
			commands++
			if want := EngineRelease(kb, e.ID); ec.Release != want {
				t.Errorf("scenario %s, %s: the command is written for %q, but the knowledge base's newest release is %q", s.Name, e.ID, ec.Release, want)
			}
			notes := strings.Join(ec.Notes, "\n")
			if ec.Release == "" {
				if !strings.Contains(notes, "no release of "+e.Name+" could be established") {
					t.Errorf("scenario %s, %s: no release, and the notes do not say so:\n%s", s.Name, e.ID, notes)
				}
				continue
			}
			for _, l := range ec.Command {
				f := kb.Flag(l.FlagID)
				if f == nil {
					t.Errorf("scenario %s, %s: %s has no flag row %q", s.Name, e.ID, l.Flag, l.FlagID)
					continue
				}
				if !hasSourceAt(f, ec.Release) {
					key := e.ID + " " + ec.Release
					if missing[key] == nil {
						missing[key] = map[string]string{}
					}
					if _, ok := missing[key][f.ID]; !ok {
						missing[key][f.ID] = fmt.Sprintf("%s (%s:%d; first emitted for scenario %s)", l.Flag, f.Pos.File, f.Pos.Line, s.Name)
					}
				}
			}
			if unread := UnreadAtRelease(kb, ec); len(unread) > 0 && !strings.Contains(notes, "written for "+e.Name+" "+ec.Release) {
				t.Errorf("scenario %s, %s: %v were not read at %s, and the notes do not say so:\n%s", s.Name, e.ID, unread, ec.Release, notes)
			}
		}
	}
	if commands == 0 {
		t.Fatal("no preset scenario got a launch command: the test checks nothing")
	}
	for _, key := range sortedKeys(missing) {
		var lines []string
		for _, id := range sortedKeys(missing[key]) {
			lines = append(lines, "  "+missing[key][id])
		}
		t.Errorf("%s: %d emitted flags have no repository source with ref = %q (add a [[flag.source]] kind = \"repo\" at that tag: with commit and quote when it was read, or checked = \"not available: why\"):\n%s",
			key, len(lines), key[strings.Index(key, " ")+1:], strings.Join(lines, "\n"))
	}
}

// hasSourceAt reports whether the flag has a repository source at the
// release, read or marked not available.
func hasSourceAt(f *knowledge.Flag, release string) bool {
	for _, s := range f.Sources.OfRepo() {
		if s.Ref == release {
			return true
		}
	}
	return false
}

// The test above can fail: a flag without a source at the release, and a
// command whose flags were not read at its release and that does not say
// so, are both caught.
func TestTheReleaseRuleCatchesAnUnsourcedFlag(t *testing.T) {
	kb := knowledge.MustDefault()
	f := &knowledge.Flag{ID: "x", Sources: knowledge.Sources{{Kind: knowledge.SourceRepo, Repo: "o/p", Ref: "v1", Path: "a.py"}}}
	if !hasSourceAt(f, "v1") || hasSourceAt(f, "v2") {
		t.Error("hasSourceAt")
	}
	ec := engineConfig(Compile(kb), scenarioAnswers(t, kb, "exit-test"), knowledge.EngineVLLM)
	if len(UnreadAtRelease(kb, ec)) == 0 {
		t.Skip("every vLLM flag was read at its release: nothing left to catch")
	}
	ec.Notes = nil
	noteRelease(kb, ec)
	if len(ec.Notes) != 1 || !strings.Contains(ec.Notes[0], "written for vLLM "+ec.Release) {
		t.Errorf("notes %q", ec.Notes)
	}
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
