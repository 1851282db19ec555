package knowledge

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regexp compiled on first use. The patterns here serve
// validation, TOML error messages and line lookup, which a run with the
// built-in knowledge base never reaches (it was validated when generated);
// compiled at package load they cost every command a fifth of a
// millisecond.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRE(expr string) *lazyRegexp { return &lazyRegexp{expr: expr} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
