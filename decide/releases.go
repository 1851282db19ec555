package decide

import (
	"slices"

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
