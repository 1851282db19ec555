package manifest

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// placeholderUse finds ${NAME} in a file's text.
var placeholderUse = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Z][A-Z0-9_]*)\}`) })

// finish completes a file: it finds the placeholders left in body, writes
// the header (comment lines starting with prefix; none when prefix is ""
// because the format has no comments, and the index says it instead) and
// adds the file to the set.
func (g *gen) finish(f File, prefix string, body []byte) {
	for _, m := range placeholderUse().FindAllSubmatch(body, -1) {
		name := string(m[1])
		if slices.Contains(g.used, name) && !slices.Contains(f.Placeholders, name) {
			f.Placeholders = append(f.Placeholders, name)
		}
	}
	if f.Targets == nil {
		f.Targets = map[string]string{}
	}
	f.Checked, f.Unchecked = checksOf(f.Format)
	if prefix != "" {
		var b strings.Builder
		for _, l := range g.header(f) {
			for _, w := range wrapComment(l, 100-len(prefix)-1) {
				if w == "" {
					b.WriteString(prefix + "\n")
					continue
				}
				b.WriteString(prefix + " " + w + "\n")
			}
		}
		head := []byte(b.String())
		// A script's #! line must stay first.
		if bytes.HasPrefix(body, []byte("#!")) {
			nl := bytes.IndexByte(body, '\n') + 1
			body = append(append(slices.Clip(body[:nl]), head...), body[nl:]...)
		} else {
			body = append(head, body...)
		}
	}
	f.Body = body
	g.add(f)
}

// header is a file's opening comment: the decision it deploys, what it
// deploys, what it was written for, what is checked and what is not, and
// the placeholders still to fill.
func (g *gen) header(f File) []string {
	version := g.req.Version
	if version == "" {
		version = "dev"
	}
	lines := []string{
		fmt.Sprintf("%s, written by stackpick %s for the stack %s.", f.Kind, version, g.stackName()),
		"Decision: " + g.origin() + g.engineLine() + ".",
		"Deploys: " + f.Deploys,
	}
	if t := g.targetLine(f); t != "" {
		lines = append(lines, "Written for: "+t+".")
	}
	for _, o := range g.omits {
		lines = append(lines, "Not in these files: "+o+".")
	}
	lines = append(lines, "Checked: "+f.Checked+".", "Not checked: "+f.Unchecked+".")
	if len(f.Placeholders) > 0 {
		lines = append(lines, "Placeholders to fill (stackpick manifest ... --set NAME=VALUE writes them in; or edit, or envsubst):")
		for _, name := range f.Placeholders {
			lines = append(lines, "  ${"+name+"}: "+g.explains[name])
		}
	}
	if g.req.Command != "" {
		// The command as it pastes: continuations between words.
		lines = append(lines, "Written again by:")
		for _, l := range strings.Split(strings.TrimSuffix(ShellWrap(ShellWords(g.req.Command), 98, 2, 2), "\n"), "\n") {
			lines = append(lines, verbatim+l)
		}
	}
	return lines
}

func (g *gen) origin() string {
	if g.req.Origin == "" {
		return "the answers given"
	}
	return g.req.Origin
}

func (g *gen) engineLine() string {
	if g.ec == nil {
		return ""
	}
	s := "; engine " + g.kb.ProductName(g.ec.Engine)
	if g.ec.Release != "" {
		s += " " + g.ec.Release
	}
	if g.ec.Model != "" {
		s += ", " + g.ec.Model
	}
	if g.ec.GPU != "" {
		s += " on " + g.ec.GPU
	}
	return s
}

func (g *gen) targetLine(f File) string {
	var ids []string
	for id := range f.Targets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var parts []string
	for _, id := range ids {
		name := id
		if t := g.kb.Target(id); t != nil {
			name = t.Name
		}
		parts = append(parts, name+" "+f.Targets[id])
	}
	s := strings.Join(parts, ", ")
	if f.APIVersion != "" {
		s += " (" + f.APIVersion + " " + f.Kind + ")"
	}
	return s
}
