package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stackpick/stackpick/knowledge"
)

// invalidFlagRE is compiled when a flag error needs it, not at every start.
var invalidFlagRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: (?:strconv\.)?Parse(\w+)`)
})

// flagError is every command's flag error function: a flag that does not
// parse is a usage error. It adds the nearest flag name to an unknown flag
// and says what a value should look like instead of Go's parse error (that
// one names the flag, so it needs no pointer to --help).
func flagError(cmd *cobra.Command, err error) error {
	for _, e := range []error{errEmptyOut, errBadOut} {
		if errors.Is(err, e) {
			return badInput(e)
		}
	}
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
			return usage(fmt.Errorf("%s; did you mean --%s?", msg, n))
		}
	}
	return usage(err)
}

// errUsageShown ends a command that has already said what to do instead.
var errUsageShown = errors.New("usage shown")

// errEmptyOut is an --out given an empty name: a script's unset variable
// (--out "$OUTFILE") must not write to stdout and report success.
var errEmptyOut = errors.New("--out needs a name (a file, or manifest's folder); use --out - for stdout")

// errBadOut is an --out name that is only spaces, holds a control
// character, or starts with '-' (a flag's value typed as a flag): writing
// there makes a file no one meant.
var errBadOut = errors.New("--out names no file or folder one would type: a name that is only spaces, holds a line break or a control character, or starts with '-' (write ./-name for one that does); use --out - for stdout")

// outValue is --out's value: any name but the empty one.
type outValue struct{ p *string }

func (v outValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v outValue) Set(s string) error {
	if s == "" {
		return errEmptyOut
	}
	if s != "-" && (strings.TrimSpace(s) == "" || strings.HasPrefix(s, "-") || strings.ContainsFunc(s, unicode.IsControl)) {
		return errBadOut
	}
	*v.p = s
	return nil
}

func (outValue) Type() string { return "string" }

// outFlag defines every command's --out (-o).
func outFlag(flags *pflag.FlagSet, p *string) {
	flags.VarP(outValue{p}, "out", "o", "write to FILE instead of stdout ('-' for stdout); never overwrites without --force")
}
