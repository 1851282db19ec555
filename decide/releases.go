package decide

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// CommandReleases is, per engine, the releases its launch commands are
// written for (EngineConfig.Release) over the answer sets given, for every
// engine of the knowledge base that gets a command for them, not only the
// picked one: kb verify checks those releases' flags against the engines'
// argument parsers.
func CommandReleases(kb *knowledge.KB, answers []knowledge.Answers) map[string][]string {
	c := Compile(kb)
	out := map[string][]string{}
	for _, a := range answers {
		for _, e := range kb.ProductsOn(knowledge.LayerEngine) {
			ec := engineConfig(c, a, e.ID)
			if !ec.Covered || ec.Release == "" || slices.Contains(out[e.ID], ec.Release) {
				continue
			}
			out[e.ID] = append(out[e.ID], ec.Release)
		}
	}
	return out
}

// EngineRelease is the release of an engine the knowledge base names as
// its newest ([product.release] tag): the release its launch command is
// written for. It is "" when no release could be established.
func EngineRelease(kb *knowledge.KB, engine string) string {
	if p := kb.Product(engine); p != nil {
		return p.Release.Tag
	}
	return ""
}

// UnreadAtRelease lists the flags of the command that have no repository
// source read at the command's release: their record at that release is
// marked not available, so what the command says of them was read at
// another commit.
func UnreadAtRelease(kb *knowledge.KB, ec *EngineConfig) []string {
	var out []string
	for _, l := range ec.Command {
		f := kb.Flag(l.FlagID)
		if f == nil || slices.Contains(out, l.Flag) {
			continue
		}
		read := false
		for _, s := range f.Sources.OfRepo() {
			if s.Ref == ec.Release && ec.Release != "" && !s.Unavailable() {
				read = true
			}
		}
		if !read {
			out = append(out, l.Flag)
		}
	}
	return out
}

// noteRelease says, in the command's notes, what its release rests on:
// the release it is written for, and the flags that could not be read in
// that release's own code (each flag's sources say why and where they
// were read instead). A command is never presented as checked at a
// release it was not read at.
func noteRelease(kb *knowledge.KB, ec *EngineConfig) {
	if !ec.Covered || len(ec.Command) == 0 {
		return
	}
	name := kb.ProductName(ec.Engine)
	program, _ := ec.Program()
	unread := UnreadAtRelease(kb, ec)
	switch {
	case ec.Release == "":
		ec.Notes = append(ec.Notes, fmt.Sprintf("no release of %s could be established from the sources read (see its release record in the knowledge base), so this command names the commit its flags were read at, not a release: check every flag with %s --help on the build you deploy", name, program))
	case len(unread) == len(ec.Command):
		ec.Notes = append(ec.Notes, fmt.Sprintf("written for %s %s, the newest release the knowledge base names; %s's own code at that tag could not be read, so every flag was read at a development commit whose distance from that tag is not known (each flag's sources name it): check them with %s --help on %s before you deploy", name, ec.Release, ec.Release, program, ec.Release))
	case len(unread) > 0:
		ec.Notes = append(ec.Notes, fmt.Sprintf("written for %s %s; %s could not be read in that release's own code, only at a development commit whose distance from that tag is not known (each flag's sources name it): check them with %s --help on %s", name, ec.Release, strings.Join(unread, ", "), program, ec.Release))
	}
}
