package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// FlipNote says what changing answer key would move, from d's flips: the
// first one, and how many more; "" when nothing would. The app shows it
// under a question.
func FlipNote(kb *knowledge.KB, d decide.Decision, key string) string {
	var out []string
	for _, lp := range d.Layers {
		for _, f := range lp.Flips {
			if f.Answer == key {
				out = append(out, fmt.Sprintf("%s → %s: %s", f.To, kb.Layer(lp.Layer).Name, Outcome(kb, lp, f.Pick, f.Also)))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	if len(out) > 1 {
		return fmt.Sprintf("%s (+%d more)", out[0], len(out)-1)
	}
	return out[0]
}

// EditNote says what one edit changed: answer key from one value to
// another, and every pick that moved between before and after.
func EditNote(kb *knowledge.KB, before, after decide.Decision, key, from, to string) string {
	if from == to {
		return key + " unchanged"
	}
	var moved []string
	for i, lp := range after.Layers {
		old := before.Layers[i]
		if old.Pick != lp.Pick || strings.Join(old.Also, ",") != strings.Join(lp.Also, ",") {
			moved = append(moved, fmt.Sprintf("%s %s → %s", lp.Layer, PickText(kb, old), PickText(kb, lp)))
		}
	}
	if len(moved) == 0 {
		return fmt.Sprintf("%s: %s → %s; no pick moved", key, from, to)
	}
	return fmt.Sprintf("%s: %s → %s; %s", key, from, to, strings.Join(moved, "; "))
}
