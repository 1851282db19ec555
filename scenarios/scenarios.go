// Package scenarios holds the preset answer sets: the seed's exit test and
// one scenario per line of the seed's decision tree. Each is a TOML file
// with a title, a short story, the decision-tree line it illustrates and an
// [answers] table validated against the knowledge base's questions. It
// imports knowledge/ only; it must not import decide/, ui/ or any Charm
// package.
package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/stackpick/stackpick/knowledge"
)

//go:embed data/*.toml
var files embed.FS

// Scenario is one preset.
type Scenario struct {
	Name    string
	Order   int
	Title   string
	Story   string
	Line    string
	Answers knowledge.Answers
}

type scenarioFile struct {
	Order   int            `toml:"order"`
	Title   string         `toml:"title"`
	Story   string         `toml:"story"`
	Line    string         `toml:"line"`
	Answers map[string]any `toml:"answers"`
}

// All parses every preset against kb, in presentation order.
func All(kb *knowledge.KB) ([]Scenario, error) {
	entries, err := fs.ReadDir(files, "data")
	if err != nil {
		return nil, err
	}
	var decoded map[string]scenarioFile
	if builtin != nil {
		decoded = builtin()
	}
	var out []Scenario
	var errs knowledge.Errors
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".toml")
		file := "scenarios/data/" + e.Name()
		data, _ := files.ReadFile("data/" + e.Name())
		var s Scenario
		if sf, ok := decoded[name]; ok {
			s, err = fromFile(kb, file, name, data, sf)
		} else {
			s, err = Parse(kb, file, name, data)
		}
		if err != nil {
			var ke knowledge.Errors
			if asErrors(err, &ke) {
				errs = append(errs, ke...)
				continue
			}
			return nil, err
		}
		out = append(out, s)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	slices.SortStableFunc(out, func(a, b Scenario) int { return a.Order - b.Order })
	return out, nil
}

//go:generate go run ./internal/gen

// builtin returns the embedded presets as go generate decoded them, by
// name (builtin_gen.go sets it), so a run does not decode their TOML
// again; their answers are still checked against the knowledge base, which
// an overlay may change. Nil only while builtin_gen.go is being rewritten.
var builtin func() map[string]scenarioFile

// Parse reads one scenario file.
func Parse(kb *knowledge.KB, file, name string, data []byte) (Scenario, error) {
	sf, err := decodeFile(file, data)
	if err != nil {
		return Scenario{}, err
	}
	return fromFile(kb, file, name, data, sf)
}

// decodeFile decodes a scenario file and checks its keys and header.
func decodeFile(file string, data []byte) (scenarioFile, error) {
	var sf scenarioFile
	md, err := toml.Decode(string(data), &sf)
	if err != nil {
		return sf, knowledge.Errors{{File: file, Problem: "TOML syntax: " + err.Error()}}
	}
	var errs knowledge.Errors
	for _, k := range md.Undecoded() {
		if len(k) > 1 && k[0] == "answers" {
			continue // answers are checked against the questions below
		}
		errs = append(errs, &knowledge.Error{File: file, Key: k.String(), Problem: "unknown key", Allowed: "order, title, story, line, [answers]"})
	}
	if sf.Title == "" || sf.Story == "" {
		errs = append(errs, &knowledge.Error{File: file, Problem: "a scenario needs a title and a story"})
	}
	if len(errs) > 0 {
		return sf, errs
	}
	return sf, nil
}

// fromFile checks a decoded scenario's answers against kb.
func fromFile(kb *knowledge.KB, file, name string, data []byte, sf scenarioFile) (Scenario, error) {
	a, err := kb.AnswersFromTable(file, data, sf.Answers, "answers")
	if err != nil {
		return Scenario{}, err
	}
	return Scenario{Name: name, Order: sf.Order, Title: sf.Title, Story: sf.Story, Line: sf.Line, Answers: a}, nil
}

// Find returns the named preset, or an error that lists the names and
// suggests the nearest.
func Find(all []Scenario, name string) (Scenario, error) {
	names := make([]string, len(all))
	for i, s := range all {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	e := &knowledge.Error{File: "--scenario", Key: name, Problem: "no such scenario", Allowed: strings.Join(names, ", ")}
	if n := knowledge.Nearest(name, names); n != "" {
		e.Hint = fmt.Sprintf("did you mean %q?", n)
	}
	return Scenario{}, e
}

func asErrors(err error, target *knowledge.Errors) bool {
	es, ok := err.(knowledge.Errors)
	if ok {
		*target = es
	}
	return ok
}
