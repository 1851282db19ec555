package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stackpick/stackpick/knowledge"
)

// invalidFlagRE is compiled when a flag error needs it, not at every start.
var invalidFlagRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: (?:strconv\.)?Parse(\w+)`)
})

// flagError adds the nearest flag name to cobra's "unknown flag" errors and
// says what a flag's value should look like instead of Go's parse error.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if m := invalidFlagRE().FindStringSubmatch(msg); m != nil {
		want := map[string]string{"Float": "a number", "Int": "a whole number", "Uint": "a whole number", "Bool": "true or false"}[m[3]]
		if want == "" {
			want = "a " + strings.ToLower(m[3])
		}
		flagName := m[2]
		if i := strings.LastIndex(flagName, "--"); i >= 0 {
			flagName = flagName[i:]
		}
		return badInput(&knowledge.Error{File: flagName, Problem: fmt.Sprintf("%q is not %s", m[1], want)})
	}
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if n := knowledge.Nearest(name, names); n != "" {
			return badInput(fmt.Errorf("%s; did you mean --%s?", msg, n))
		}
	}
	return badInput(err)
}

func isFlagError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown flag", "unknown shorthand flag", "flag needs an argument", "bad flag syntax", "invalid argument", "unknown command", "accepts ", "requires "} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

var errUsageShown = errors.New("usage shown")
