package knowledge

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

//go:embed data/*.toml
var embedded embed.FS

// EnvKB names the environment variable that points at an overlay folder.
const EnvKB = "STACKPICK_KB"

// SourceFile is one TOML file to load: a display name and its bytes.
type SourceFile struct {
	Name string
	Data []byte
}

// Embedded returns the built-in knowledge files in name order.
func Embedded() []SourceFile {
	entries, _ := fs.ReadDir(embedded, "data")
	var out []SourceFile
	for _, e := range entries {
		data, _ := embedded.ReadFile("data/" + e.Name())
		out = append(out, SourceFile{Name: "knowledge/data/" + e.Name(), Data: data})
	}
	return out
}

// ReadOverlay reads every *.toml file of dir in name order. A missing or
// unreadable folder is an Error that says so.
func ReadOverlay(dir string) ([]SourceFile, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, &Error{File: dir, Problem: "cannot read the knowledge overlay folder: " + plainIOError(err), Hint: "pass --kb a folder of .toml files (or unset " + EnvKB + ")"}
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() || !strings.EqualFold(filepath.Ext(dir), ".toml") {
			// A device or a pipe is in no folder of knowledge files:
			// suggesting its parent (--kb /dev) would be wrong.
			kind := "a file"
			if e := notRegular(dir, KnowledgeFile, info); e != nil {
				kind = strings.TrimSuffix(strings.TrimPrefix(e.Problem, "is "), ", not a knowledge file")
			}
			return nil, &Error{File: dir, Problem: "--kb must name a folder of .toml files, not " + kind, Hint: "pass --kb (or " + EnvKB + ") a folder that holds your .toml overlay files, such as --kb ./kb"}
		}
		return nil, &Error{File: dir, Problem: "--kb must name a folder of .toml files, not a file", Hint: "pass the folder that holds it: --kb " + filepath.Dir(dir)}
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, &Error{File: dir, Problem: err.Error()}
	}
	sort.Strings(names)
	var out []SourceFile
	for _, n := range names {
		data, err := ReadInput(n, KnowledgeFile)
		if err != nil {
			return nil, err
		}
		out = append(out, SourceFile{Name: n, Data: data})
	}
	if len(out) == 0 {
		return nil, &Error{File: dir, Problem: "the overlay folder has no .toml files", Hint: "add files such as rules.toml with [[rule]] tables, or drop --kb"}
	}
	return out, nil
}

func plainIOError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

//go:generate go run ./internal/gen

// builtin returns the embedded knowledge base as go generate decoded and
// validated it (builtin_gen.go sets it), so a run without an overlay does
// not decode the TOML again. It is nil only while builtin_gen.go is being
// rewritten; Load then decodes the TOML.
var builtin func() *KB

// Load reads the embedded knowledge base, overlays the files of dir (if dir
// is not empty) and validates the result. Without an overlay it is the
// build-time copy of the embedded files; with one, the embedded files are
// decoded again, so an overlay's errors name the same files and lines as
// ever, the built-in items' included.
func Load(dir string) (*KB, error) {
	if dir == "" && builtin != nil {
		return builtin(), nil
	}
	var overlay []SourceFile
	if dir != "" {
		var err error
		if overlay, err = ReadOverlay(dir); err != nil {
			return nil, err
		}
	}
	return Build(Embedded(), overlay)
}

// MustDefault loads the embedded knowledge base and panics if it is broken;
// for tests and benchmarks, where a broken embedded KB is a programming error.
func MustDefault() *KB {
	kb, err := Load("")
	if err != nil {
		panic(err)
	}
	return kb
}

// copy returns fileData with every item copied, so validation (which fills
// in compiled fields) never touches a shared Base.
func (fd fileData) copy() fileData {
	out := fileData{
		Layer:    copyItems(fd.Layer),
		Product:  copyItems(fd.Product),
		Question: copyItems(fd.Question),
		Rule:     copyItems(fd.Rule),
		GPU:      copyItems(fd.GPU),
		Model:    copyItems(fd.Model),
		Flag:     copyItems(fd.Flag),
		Cap:      copyItems(fd.Cap),
		Need:     copyItems(fd.Need),
		Tie:      copyItems(fd.Tie),
		Claim:    copyItems(fd.Claim),
		Target:   copyItems(fd.Target),
		Margin:   fd.Margin,
	}
	for _, p := range out.Product {
		p.Landmines = slices.Clone(p.Landmines) // validation compiles their conditions
	}
	return out
}

func copyItems[T any](xs []*T) []*T {
	out := make([]*T, len(xs))
	for i, x := range xs {
		c := *x
		out[i] = &c
	}
	return out
}

// fileData is the shape of one knowledge TOML file.
type fileData struct {
	Layer    []*Layer      `toml:"layer"`
	Product  []*Product    `toml:"product"`
	Question []*Question   `toml:"question"`
	Rule     []*Rule       `toml:"rule"`
	GPU      []*GPU        `toml:"gpu"`
	Model    []*Model      `toml:"model"`
	Flag     []*Flag       `toml:"flag"`
	Cap      []*Capability `toml:"capability"`
	Need     []*Need       `toml:"need"`
	Tie      []*TieBreak   `toml:"tiebreak"`
	Claim    []*Claim      `toml:"claim"`
	// Target is the deployment APIs of targets.toml: see deploy.go.
	Target []*Target `toml:"target"`
	// Margin is close_call_margin; the last file that sets it wins.
	Margin *int `toml:"close_call_margin"`
}

// Base is a decoded set of base files, reusable across builds: decoding the
// embedded TOML is most of a load's cost.
type Base struct {
	data fileData
	locs map[string]*locator
	errs Errors
}

// DecodeBase decodes the base files once.
func DecodeBase(files []SourceFile) *Base {
	b := &Base{locs: map[string]*locator{}}
	b.data = decodeAll(files, b.locs, &b.errs)
	return b
}

// Build decodes base then overlay files, merges them by id (an overlay id
// replaces the base item in place; a new id is appended) and validates.
func Build(base, overlay []SourceFile) (*KB, error) {
	return DecodeBase(base).Build(overlay)
}

// Build merges overlay files onto the decoded base and validates. The base
// is not modified: each build works on copies of its items.
func (b *Base) Build(overlay []SourceFile) (*KB, error) {
	errs := slices.Clone(b.errs)
	locs := maps.Clone(b.locs)
	baseData := b.data.copy()
	overData := decodeAll(overlay, locs, &errs)
	if len(errs) > 0 {
		return nil, errs.orNil()
	}
	kb := &KB{}
	kb.Layers = mergeByID(baseData.Layer, overData.Layer, func(l *Layer) (string, Pos) { return l.ID, l.Pos }, "layer", &errs)
	kb.Products = mergeByID(baseData.Product, overData.Product, func(p *Product) (string, Pos) { return p.ID, p.Pos }, "product", &errs)
	kb.Questions = mergeByID(baseData.Question, overData.Question, func(q *Question) (string, Pos) { return q.Key, q.Pos }, "question", &errs)
	kb.Rules = mergeByID(baseData.Rule, overData.Rule, func(r *Rule) (string, Pos) { return r.ID, r.Pos }, "rule", &errs)
	kb.GPUs = mergeByID(baseData.GPU, overData.GPU, func(g *GPU) (string, Pos) { return g.ID, g.Pos }, "gpu", &errs)
	kb.Models = mergeByID(baseData.Model, overData.Model, func(m *Model) (string, Pos) { return m.ID, m.Pos }, "model", &errs)
	kb.Flags = mergeByID(baseData.Flag, overData.Flag, func(f *Flag) (string, Pos) { return f.ID, f.Pos }, "flag", &errs)
	kb.Capabilities = mergeByID(baseData.Cap, overData.Cap, func(c *Capability) (string, Pos) { return c.Product + "/" + c.What, c.Pos }, "capability", &errs)
	kb.Needs = mergeByID(baseData.Need, overData.Need, func(n *Need) (string, Pos) { return n.ID, n.Pos }, "need", &errs)
	kb.TieBreaks = mergeByID(baseData.Tie, overData.Tie, func(t *TieBreak) (string, Pos) { return t.ID, t.Pos }, "tiebreak", &errs)
	kb.Claims = mergeByID(baseData.Claim, overData.Claim, func(c *Claim) (string, Pos) {
		if c.ID != "" {
			return c.ID, c.Pos
		}
		return c.Phrase, c.Pos
	}, "claim", &errs)
	kb.Targets = mergeByID(baseData.Target, overData.Target, func(t *Target) (string, Pos) { return t.ID, t.Pos }, "target", &errs)
	kb.closeMargin = DefaultCloseMargin
	for _, m := range []*int{baseData.Margin, overData.Margin} {
		if m != nil {
			kb.closeMargin = *m
		}
	}
	if len(errs) > 0 {
		return nil, errs.orNil()
	}
	validate(kb, locs, &errs)
	if err := errs.orNil(); err != nil {
		return nil, err
	}
	return kb, nil
}

var (
	lastKeyLineRE  = lazyRE(`line (\d+)`)
	lastKeyRE      = lazyRE(`last key "([^"]+)"`)
	typeMismatchRE = lazyRE(`(?:incompatible types: TOML value has type ([\w\[\]]+); destination has type ([\w\[\]]+))|(?:type mismatch for [\w.]+: expected (\w+) but found (\w+))`)
)

func decodeAll(files []SourceFile, locs map[string]*locator, errs *Errors) fileData {
	var all fileData
	for _, f := range files {
		if e := checkNesting(f.Name, f.Data); e != nil {
			*errs = append(*errs, e)
			continue
		}
		var fd fileData
		md, err := toml.Decode(string(f.Data), &fd)
		if err != nil {
			*errs = append(*errs, tomlError(f.Name, err))
			continue
		}
		loc := newLocator(f.Data)
		for _, k := range md.Undecoded() {
			*errs = append(*errs, unknownKeyError(f.Name, loc, k))
		}
		for i, x := range fd.Layer {
			x.Pos = Pos{f.Name, loc.element("layer", i)}
		}
		for i, x := range fd.Product {
			x.Pos = Pos{f.Name, loc.element("product", i)}
		}
		for i, x := range fd.Question {
			x.Pos = Pos{f.Name, loc.element("question", i)}
		}
		for i, x := range fd.Rule {
			x.Pos = Pos{f.Name, loc.element("rule", i)}
		}
		for i, x := range fd.GPU {
			x.Pos = Pos{f.Name, loc.element("gpu", i)}
		}
		for i, x := range fd.Model {
			x.Pos = Pos{f.Name, loc.element("model", i)}
		}
		for i, x := range fd.Flag {
			x.Pos = Pos{f.Name, loc.element("flag", i)}
		}
		for i, x := range fd.Cap {
			x.Pos = Pos{f.Name, loc.element("capability", i)}
		}
		for i, x := range fd.Need {
			x.Pos = Pos{f.Name, loc.element("need", i)}
		}
		for i, x := range fd.Tie {
			x.Pos = Pos{f.Name, loc.element("tiebreak", i)}
		}
		for i, x := range fd.Claim {
			x.Pos = Pos{f.Name, loc.element("claim", i)}
		}
		for i, x := range fd.Target {
			x.Pos = Pos{f.Name, loc.element("target", i)}
		}
		if fd.Margin != nil {
			all.Margin = fd.Margin
		}
		all.Layer = append(all.Layer, fd.Layer...)
		all.Product = append(all.Product, fd.Product...)
		all.Question = append(all.Question, fd.Question...)
		all.Rule = append(all.Rule, fd.Rule...)
		all.GPU = append(all.GPU, fd.GPU...)
		all.Model = append(all.Model, fd.Model...)
		all.Flag = append(all.Flag, fd.Flag...)
		all.Cap = append(all.Cap, fd.Cap...)
		all.Need = append(all.Need, fd.Need...)
		all.Tie = append(all.Tie, fd.Tie...)
		all.Claim = append(all.Claim, fd.Claim...)
		all.Target = append(all.Target, fd.Target...)
		locs[f.Name] = loc
	}
	return all
}

// tomlError turns a decoder error into an Error with file:line.
func tomlError(file string, err error) *Error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		// The decoder's words can echo a value whole: cut, as Quote cuts.
		pe.Message = cutWords(pe.Message)
		e := &Error{File: file, Line: pe.Position.Line, Problem: "TOML syntax: " + pe.Message}
		if pe.LastKey != "" {
			e.Key = pe.LastKey
		}
		if got, want, ok := typeMismatch(pe.Message); ok {
			e.Problem = fmt.Sprintf("wrong type: %s where %s goes", got, want)
			freeTextSource(e, got)
		} else if strings.Contains(pe.Message, "incompatible types") || strings.Contains(pe.Message, "cannot decode") || strings.Contains(pe.Message, "cannot load") {
			e.Problem = "wrong type: " + pe.Message
		}
		return e
	}
	msg := cutWords(err.Error())
	e := &Error{File: file, Problem: strings.TrimPrefix(msg, "toml: ")}
	if m := lastKeyLineRE.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &e.Line)
	}
	if got, want, ok := typeMismatch(msg); ok {
		e.Problem = fmt.Sprintf("wrong type: %s where %s goes", got, want)
		if k := lastKeyRE.FindStringSubmatch(msg); k != nil {
			e.Key = k[1]
		}
		freeTextSource(e, got)
	}
	return e
}

// typeMismatch reads the decoder's wrong-type message as the words a
// knowledge file's author uses: what was written, and what goes there.
func typeMismatch(msg string) (got, want string, ok bool) {
	m := typeMismatchRE.FindStringSubmatch(msg)
	switch {
	case m == nil:
		return "", "", false
	case m[1] != "":
		return tomlTypeName(m[1]), tomlTypeName(m[2]), true
	}
	// "expected table but found string": the destination comes first.
	return tomlTypeName(m[4]), tomlTypeName(m[3]), true
}

// tomlTypeName names a TOML or Go type in words: "a quoted string", "a table".
func tomlTypeName(t string) string {
	switch {
	case t == "string":
		return "a quoted string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), t == "integer":
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "map"), t == "struct", t == "table":
		return "a table"
	case strings.HasPrefix(t, "[]"), t == "slice", t == "array":
		return "a list"
	}
	return t
}

// freeTextSource explains a source written the wrong way: as free text
// (sources are structured records now), as one table where a list of them
// goes, or a line range written as a list.
func freeTextSource(e *Error, got string) {
	k := e.Key
	if i := strings.LastIndex(k, "."); i >= 0 {
		k = k[i+1:]
	}
	switch {
	case k == "lines":
		e.Hint = `write the range as a string: lines = "120-134"`
	case k != "source" && k != "non_torch_source":
	case got == "a quoted string":
		e.Problem = "a source is a table of checkable fields, not free text"
		e.Hint = "write " + SourceHint(e.Key)
	case got == "a table":
		e.Problem = "a fact's sources are a list of tables: this is one table"
		e.Hint = "write it as [[" + e.Key + "]] (a table per source), or " + k + " = [{ … }]"
	}
}

// sourceKeys are the keys of every [[….source]] table.
var sourceKeys = []string{"kind", "repo", "ref", "commit", "path", "symbol", "lines", "url", "title", "number", "first_release", "section", "quote", "source_date", "checked_on", "checked"}

var knownKeys = map[string][]string{
	"":                              {"layer", "product", "question", "rule", "gpu", "model", "flag", "capability", "need", "tiebreak", "claim", "target", "close_call_margin"},
	"layer":                         {"id", "name", "what", "examples", "optional"},
	"product":                       {"id", "name", "layer", "role", "strengths", "pick_when", "avoid_when", "key_points", "landmine", "course_notes_outdated", "source", "licence", "governance", "release", "image"},
	"product.image":                 {"id", "ref", "release", "runs", "entrypoint", "port", "health", "probe", "model_cache", "not_found", "source"},
	"product.landmine":              {"id", "text", "watch", "source", "when"},
	"product.course_notes_outdated": {"claim", "current", "since", "source"},
	"product.licence":               {"spdx", "source"},
	"product.governance":            {"kind", "text", "not_found", "source"},
	"product.release":               {"tag", "date", "checked_on", "not_found", "source"},
	"question":                      {"key", "page", "type", "prompt", "why", "values", "catalog", "min", "max", "default", "derived", "labels"},
	"rule":                          {"id", "layer", "effect", "product", "weight", "with", "reason", "source", "when", "stack", "tag"},
	"gpu":                           {"id", "name", "vendor", "memory_gib", "bandwidth_tbs", "fp8", "non_torch_gib", "non_torch_multi_gib", "non_torch_source", "source"},
	"model": {"id", "name", "hf_id", "params_b", "active_params_b", "layers", "attention_heads", "kv_heads", "head_dim", "hidden_size", "intermediate_size", "vocab_size", "tied_embeddings",
		"experts", "experts_per_token", "moe_intermediate_size", "kv_lora_rank", "qk_rope_head_dim", "sliding_window", "sliding_window_layers", "native_context", "native_dtype", "native_weights_gib", "source", "notes"},
	"flag":           {"id", "engine", "name", "aliases", "default", "default_depends_on", "values", "effect", "status", "introduced", "deprecated", "removed", "replaced_by", "in_course_notes", "source"},
	"capability":     {"product", "what", "values", "source"},
	"need":           {"id", "layer", "feature", "text", "source", "when"},
	"tiebreak":       {"id", "criterion", "layer", "order", "argument", "source"},
	"target":         {"id", "name", "repo", "versions", "feature", "source"},
	"target.feature": {"id", "what", "since", "source"},
	"condition":      {OpEquals, OpOneOf, OpAtLeast, OpAtMost},
}

func unknownKeyError(file string, loc *locator, k toml.Key) *Error {
	path := []string(k)
	parent := strings.Join(path[:len(path)-1], ".")
	allowedFor := parent
	// Conditions sit under ….when.<answer key>.<operator>.
	if len(path) >= 3 && path[len(path)-3] == "when" {
		allowedFor = "condition"
	}
	allowed := knownKeys[allowedFor]
	if len(path) >= 2 && (path[len(path)-2] == "source" || path[len(path)-2] == "non_torch_source") {
		allowed = sourceKeys
	}
	line := 0
	if len(path) > 1 {
		line = loc.lineOfKey(path)
	} else {
		line = loc.keyLine(0, path...)
	}
	e := &Error{File: file, Line: line, Key: k.String(), Problem: "unknown key"}
	if allowed != nil {
		e.Allowed = strings.Join(allowed, ", ")
		e.Hint = didYouMean(path[len(path)-1], allowed)
	}
	if last := path[len(path)-1]; last == "as_of" && slices.Contains(allowed, "source") {
		e.Hint = "a fact's dates live in its source now: checked_on (the day it was read) and source_date (the source's own date) in [[" + parent + ".source]]"
	}
	return e
}

func mergeByID[T any](base, over []T, id func(T) (string, Pos), kind string, errs *Errors) []T {
	out := make([]T, 0, len(base)+len(over))
	index := map[string]int{}
	add := func(items []T, replace bool) {
		seen := map[string]Pos{}
		for _, it := range items {
			key, pos := id(it)
			if key == "" {
				*errs = append(*errs, &Error{File: pos.File, Line: pos.Line, Key: kind, Problem: "missing id", Hint: idHint(kind)})
				continue
			}
			if first, dup := seen[key]; dup {
				*errs = append(*errs, &Error{File: pos.File, Line: pos.Line, Key: kind, Problem: fmt.Sprintf("duplicate id %q (first defined at %s:%d)", key, first.File, first.Line), Hint: "give each " + kind + " its own id, or delete one"})
				continue
			}
			seen[key] = pos
			if i, ok := index[key]; ok && replace {
				out[i] = it
				continue
			}
			index[key] = len(out)
			out = append(out, it)
		}
	}
	add(base, false)
	add(over, true)
	return out
}

func idHint(kind string) string {
	if kind == "question" {
		return `add key = "…"`
	}
	return `add id = "…"`
}
