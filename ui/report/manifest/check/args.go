package check

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// EngineArgs checks a container's argument list against the knowledge
// base's flags of an engine at a release: every word that starts with "-"
// must name one of the engine's flags (or an alias, or --no-NAME where the
// flag's record names that spelling), at most once; a switch takes no value
// and every other flag one; a flag the record says was removed by the
// release, or introduced after it, is reported. Words before the first flag
// are the program and its positional arguments (vllm serve MODEL) and are
// not checked. Path is the word's index in args as a JSON pointer ("/3").
//
// The knowledge base is stackpick's schema of an engine's command line: a
// flag it has no record of is unknown here even when the engine has it,
// since stackpick writes no flag it cannot defend.
func EngineArgs(kb *knowledge.KB, engine, release string, args []string) []Problem {
	label := engine + "@" + release + " flags (knowledge base)"
	if kb == nil {
		return []Problem{{Message: "no knowledge base given", Schema: label}}
	}
	flags := kb.FlagsOf(engine)
	if len(flags) == 0 {
		return []Problem{{Message: fmt.Sprintf("the knowledge base has no flags of engine %q", engine), Schema: label}}
	}
	byName := map[string]*knowledge.Flag{}
	negated := map[string]bool{}
	var names []string
	for _, f := range flags {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if n != "" {
				byName[n] = f
				names = append(names, n)
			}
		}
		if neg := negation(f); neg != "" {
			byName[neg] = f
			negated[neg] = true
			names = append(names, neg)
		}
	}
	var out []Problem
	add := func(i int, format string, a ...any) {
		out = append(out, Problem{Path: "/" + strconv.Itoa(i), Message: fmt.Sprintf(format, a...), Schema: label})
	}
	seen := map[*knowledge.Flag]string{}
	started := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !isFlagWord(w) {
			if started {
				add(i, "%q follows no flag that takes a value", w)
			}
			continue
		}
		started = true
		word, value, inline := strings.Cut(w, "=")
		f := byName[word]
		if f == nil {
			msg := fmt.Sprintf("unknown flag %s: the knowledge base has no flag of %s by that name", word, engine)
			if near := knowledge.Nearest(word, names); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			add(i, "%s", msg)
			if !inline && i+1 < len(args) && !isFlagWord(args[i+1]) {
				i++ // its value, if it has one, is not a second problem
			}
			continue
		}
		if prev, dup := seen[f]; dup {
			add(i, "flag %s given twice (first as %s)", word, prev)
		}
		seen[f] = word
		if msg := lifecycle(f, release); msg != "" {
			add(i, "flag %s %s", word, msg)
		}
		switch {
		case isSwitch(f) || negated[word]:
			if inline {
				add(i, "flag %s is a switch and takes no value (got %q)", word, value)
			} else if i+1 < len(args) && !isFlagWord(args[i+1]) {
				add(i+1, "flag %s is a switch and takes no value (got %q)", word, args[i+1])
				i++
			}
		case inline:
			if value == "" {
				add(i, "flag %s is missing its value (%s)", word, f.Values)
			}
		case i+1 >= len(args) || isFlagWord(args[i+1]):
			add(i, "flag %s is missing its value (%s)", word, f.Values)
		default:
			i++
		}
	}
	return out
}

// isFlagWord says whether an argument is a flag rather than a value: it
// starts with "-" and is not a number ("-1" is a value).
func isFlagWord(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(w, 64)
	return err != nil
}

// isSwitch says whether the flag's record describes it as taking no value.
func isSwitch(f *knowledge.Flag) bool {
	v := strings.ToLower(f.Values)
	return v == "boolean flag" || v == "a switch" || strings.Contains(v, " to enable, ") && strings.Contains(v, " to disable")
}

// negation is the --no-NAME spelling of a switch when its record names it
// (vLLM's BooleanOptionalAction flags: "--no-enable-prefix-caching turns it
// off"), else "".
func negation(f *knowledge.Flag) string {
	if !isSwitch(f) || !strings.HasPrefix(f.Name, "--") {
		return ""
	}
	neg := "--no-" + strings.TrimPrefix(f.Name, "--")
	for _, text := range []string{f.Default, f.Values, f.Effect} {
		if strings.Contains(text, neg) {
			return neg
		}
	}
	return ""
}

// versionAtStart reads the release a lifecycle text begins with ("v0.11.0
// (PR #25543)" is v0.11.0); texts that begin otherwise ("≤ v0.5.3", "early
// (not pinned)", "PR #15466 …") name no release.
var versionAtStart = regexp.MustCompile(`^v?(\d+)\.(\d+)(?:\.(\d+))?\b`)

// lifecycle says what is wrong with using f at release, or "": removed
// (at a release not after the one given, or at a release the record does
// not pin, which the record says to treat as gone) or introduced after it.
func lifecycle(f *knowledge.Flag, release string) string {
	if f.Status == knowledge.FlagRemoved {
		if at := versionAtStart.FindString(f.Removed); at != "" && release != "" && releaseLess(release, at) {
			return ""
		}
		msg := "is removed (" + f.Removed + ")"
		if f.ReplacedBy != "" {
			msg += "; replaced by " + f.ReplacedBy
		}
		return msg
	}
	if at := versionAtStart.FindString(f.Introduced); at != "" && release != "" && releaseLess(release, at) {
		return fmt.Sprintf("was introduced in %s, after %s", at, release)
	}
	return ""
}
