package verify

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// Flag states.
const (
	Found    State = "found"
	NotFound State = "not found in the parser"
)

// FlagStates lists the states of a flag's check in summary order.
var FlagStates = []State{Found, NotFound, NotAvailable}

// Parser is where an engine's command-line flags are declared: the files
// that register them (searched for the flag's name in quotes) and, for an
// engine whose flags are generated from config fields, the folders of
// those configs (searched for the field: --max-num-seqs is max_num_seqs).
// Adding an engine is a row of DefaultParsers.
type Parser struct {
	Engine string
	Repo   string
	Files  []string
	// Dirs are folders whose files declare config fields flags are made
	// from; set Fields to match a flag by its field name too.
	Dirs   []string
	Fields bool
}

// DefaultParsers is the argument parser of every engine stackpick writes
// launch commands for.
var DefaultParsers = []Parser{
	{Engine: "vllm", Repo: "vllm-project/vllm", Files: []string{"vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py"}, Dirs: []string{"vllm/config"}, Fields: true},
	// Newer SGLang releases declare the flags as fields of one class per
	// namespace under arg_groups/fields (--mem-fraction-static is
	// mem_fraction_static); ServerArgs composes them.
	{Engine: "sglang", Repo: "sgl-project/sglang", Files: []string{"python/sglang/srt/server_args.py"}, Dirs: []string{"python/sglang/srt/arg_groups/fields"}, Fields: true},
	{Engine: "tensorrt-llm", Repo: "NVIDIA/TensorRT-LLM", Files: []string{"tensorrt_llm/commands/serve.py"}},
	{Engine: "llama-cpp", Repo: "ggml-org/llama.cpp", Files: []string{"common/arg.cpp"}},
}

// FlagResult is one flag checked at one release.
type FlagResult struct {
	Flag    string `json:"flag_id"`
	Name    string `json:"flag"`
	Engine  string `json:"engine"`
	Release string `json:"release"`
	Commit  string `json:"commit,omitempty"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	State   State  `json:"state"`
	// Where is the parser file the flag was found in, and how.
	Where  string `json:"where,omitempty"`
	Detail string `json:"detail,omitempty"`
	Hint   string `json:"hint,omitempty"`
}

// release is one engine release to check flags at.
type release struct {
	ref, commit string
}

// parserText is the parser's files at a release, as read.
type parserText struct {
	files  []string // paths, in search order
	texts  map[string]string
	fields map[string]bool // files searched for fields only
	detail string          // why none could be read
}

// flags checks every flag stackpick can emit (every flag of an engine
// with a parser that is not removed) at the releases its own sources name
// and at the releases asked for (the launch command's).
func (v *verifier) flags(kb *knowledge.KB, parsers []Parser, targets map[string][]string) []FlagResult {
	var out []FlagResult
	texts := map[string]*parserText{}
	for _, p := range parsers {
		c := v.copyOf(p.Repo)
		for _, f := range kb.Flags {
			if f.Engine != p.Engine || f.Status == "removed" {
				continue
			}
			for _, rel := range releasesOf(f, p, targets[p.Engine]) {
				r := FlagResult{Flag: f.ID, Name: f.Name, Engine: f.Engine, Release: rel.ref, Commit: rel.commit, File: f.Pos.File, Line: f.Pos.Line}
				at := rel.ref
				if at == "" {
					r.Release = "commit " + knowledge.Short(rel.commit)
					at = r.Release
				}
				if c == nil {
					r.State, r.Detail, r.Hint = NotAvailable, notInDir+p.Repo+" in the sources folder", "put a clone or mirror of "+p.Repo+" in the sources folder to check its flags"
					out = append(out, r)
					continue
				}
				if r.Commit == "" && c.gitDir != "" {
					r.Commit = v.resolveTag(c.gitDir, rel.ref)
				}
				key := p.Repo + "\x00" + rel.ref + "\x00" + r.Commit
				pt, ok := texts[key]
				if !ok {
					pt = v.parser(p, c, rel.ref, r.Commit)
					texts[key] = pt
				}
				if len(pt.texts) == 0 {
					r.State, r.Detail, r.Hint = NotAvailable, pt.detail, "put "+p.Repo+" at "+at+" in the sources folder (a git copy with it, or a tree folder "+cmp.Or(rel.ref, rel.commit)+")"
					out = append(out, r)
					continue
				}
				if where := pt.find(f, p.Fields); where != "" {
					r.State, r.Where = Found, where
				} else {
					r.State = NotFound
					r.Detail = fmt.Sprintf("%s is not registered in %s's parser at %s (%s)", f.Name, p.Repo, at, strings.Join(pt.files, ", "))
					r.Hint = "the flag may be renamed or removed at this release: check its status, name and source"
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// releasesOf is the releases one flag is checked at: those of its own
// repository sources on the parser's repository (ref and commit), then
// the target releases, each once. When that names no release (llama.cpp's
// sources pin commits, and it has no tagged release in the knowledge
// base), the commits its sources were read at are checked instead.
func releasesOf(f *knowledge.Flag, p Parser, targets []string) []release {
	var out []release
	seen := map[string]bool{}
	for _, s := range f.Sources.OfRepo() {
		if s.Unavailable() || s.Ref == "" || !strings.EqualFold(s.Repo, p.Repo) || seen[s.Ref] {
			continue
		}
		seen[s.Ref] = true
		out = append(out, release{s.Ref, s.Commit})
	}
	for _, t := range targets {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, release{ref: t})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, s := range f.Sources.OfRepo() {
		if s.Unavailable() || !strings.EqualFold(s.Repo, p.Repo) || !isHex40(s.Commit) || seen[s.Commit] {
			continue
		}
		seen[s.Commit] = true
		out = append(out, release{commit: s.Commit})
	}
	return out
}

// parser reads the parser's files at a release.
func (v *verifier) parser(p Parser, c *repoCopy, ref, commit string) *parserText {
	pt := &parserText{texts: map[string]string{}, fields: map[string]bool{}}
	folder := ""
	if c.tree != "" {
		folder = v.treeFolder(c, ref, commit)
		if folder == "" {
			pt.detail = fmt.Sprintf("the tree of %s has no folder %s", p.Repo, cmp.Or(ref, commit))
			return pt
		}
	} else if commit == "" {
		pt.detail = fmt.Sprintf("the copy of %s has no tag %s", p.Repo, ref)
		return pt
	}
	add := func(path string, fieldsOnly bool) {
		f := v.read(p.Repo, c, ref, commit, path)
		if f.state == Verified {
			pt.files = append(pt.files, path)
			pt.texts[path] = f.raw
			pt.fields[path] = fieldsOnly
		}
	}
	for _, path := range p.Files {
		add(path, false)
	}
	for _, d := range p.Dirs {
		files := v.list(p.Repo, c, folder, commit, d)
		sort.Strings(files)
		for _, path := range files {
			if strings.HasSuffix(path, ".py") {
				add(path, true)
			}
		}
	}
	if len(pt.texts) == 0 {
		pt.detail = fmt.Sprintf("%s at %s has none of %s", p.Repo, ref, strings.Join(append(append([]string{}, p.Files...), p.Dirs...), ", "))
	}
	return pt
}

// find says where the flag is registered: its name (or an alias) as a
// quoted string in code (not in a comment) of a parser file, or with
// fields, a declaration of its field at the start of a line
// (max_num_seqs: int = … or max_num_seqs = …). A mention in a comment,
// a print or another string does not count.
func (pt *parserText) find(f *knowledge.Flag, fields bool) string {
	names := append([]string{f.Name}, f.Aliases...)
	for _, path := range pt.files {
		if pt.fields[path] {
			continue
		}
		for _, n := range names {
			if n != "" && quotedInCode(pt.texts[path], n) {
				return path + ": " + n
			}
		}
	}
	if !fields {
		return ""
	}
	field := fieldOf(f.Name)
	if field == "" {
		return ""
	}
	for _, path := range pt.files {
		if declaresField(pt.texts[path], field) {
			return path + ": field " + field
		}
	}
	return ""
}

// quotedInCode reports whether "name" (or 'name') is on a line before any
// comment: not on a # or // comment line, nor after # or // on it.
func quotedInCode(text, name string) bool {
	for _, l := range strings.Split(text, "\n") {
		for _, q := range []string{`"` + name + `"`, `'` + name + `'`} {
			i := strings.Index(l, q)
			if i < 0 {
				continue
			}
			code := l[:i]
			if !strings.Contains(code, "#") && !strings.Contains(code, "//") && !strings.HasPrefix(strings.TrimSpace(code), "*") {
				return true
			}
		}
	}
	return false
}

// declaresField reports whether a line declares the field: the name at
// the line's start (after indentation), then a type annotation or "=".
func declaresField(text, field string) bool {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimLeft(l, " \t")
		if !strings.HasPrefix(t, field) {
			continue
		}
		rest := strings.TrimLeft(t[len(field):], " \t")
		if strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
			return true
		}
	}
	return false
}

// fieldOf is the config field a generated flag comes from: --max-num-seqs
// is max_num_seqs; --no-enable-x is the negation of enable_x.
func fieldOf(name string) string {
	n := strings.TrimPrefix(name, "--")
	if n == name || n == "" {
		return ""
	}
	n = strings.TrimPrefix(n, "no-")
	return strings.ReplaceAll(n, "-", "_")
}
