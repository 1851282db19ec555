package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// engineKwarg is one vLLM engine argument as a keyword: the flag's name
// the way vLLM's EngineArgs spells its field (dashes to underscores), and
// its value typed the way the command line's parser would type it. Ray
// Serve LLM's engine_kwargs and the Triton vLLM backend's model.json both
// hand these to vLLM's AsyncEngineArgs as keywords.
type engineKwarg struct {
	Key string
	// Raw is the value as JSON text: a number, true/false, a JSON object,
	// or a quoted string.
	Raw  string
	Flag decide.LaunchFlag
}

var (
	intText   = regexp.MustCompile(`^-?[0-9]+$`)
	floatText = regexp.MustCompile(`^-?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?$`)
)

// engineKwargs turns the launch command for role into keywords, in the
// command's order: the model first (the command names it as serve's
// positional argument; EngineArgs calls it model), then one keyword per
// flag. It fails when a flag is not "--name" or "--name value" (the forms
// vLLM's parser maps to a field), so nothing is silently dropped.
func (g *gen) engineKwargs(role string) ([]engineKwarg, error) {
	var out []engineKwarg
	if _, model := g.ec.Program(); model != "" {
		out = append(out, engineKwarg{Key: "model", Raw: jsonString(model)})
	}
	for _, l := range g.ec.Command {
		if l.Role != "" && l.Role != role {
			continue
		}
		name, ok := strings.CutPrefix(l.Flag, "--")
		if !ok || name == "" || strings.ContainsAny(name, " =") {
			return nil, fmt.Errorf("manifest: the launch flag %q has no engine-argument keyword form", l.Flag)
		}
		k := engineKwarg{Key: strings.ReplaceAll(name, "-", "_"), Flag: l}
		v := shellValue(l.Value)
		switch {
		case l.Value == "" && strings.HasPrefix(name, "no-"):
			// vLLM's negatable booleans: --no-enable-prefix-caching is
			// enable_prefix_caching = false.
			k.Key, k.Raw = strings.ReplaceAll(strings.TrimPrefix(name, "no-"), "-", "_"), "false"
		case l.Value == "":
			k.Raw = "true"
		case intText.MatchString(v), floatText.MatchString(v):
			k.Raw = v
		case strings.HasPrefix(v, "{") && json.Valid([]byte(v)):
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(v)); err != nil {
				return nil, err
			}
			k.Raw = b.String()
		default:
			k.Raw = jsonString(v)
		}
		out = append(out, k)
	}
	return out, nil
}

// shellValue is a flag's value as the program receives it (the command
// text quotes a JSON object in single quotes).
func shellValue(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' && !strings.Contains(v[1:len(v)-1], "'") {
		return v[1 : len(v)-1]
	}
	return v
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// yamlNode is the keyword's value as YAML: JSON is YAML's flow style, so
// numbers, booleans and objects are written as they are; strings go
// through Str so YAML reads them as strings.
func (k engineKwarg) yamlNode() *Node {
	if strings.HasPrefix(k.Raw, `"`) {
		var s string
		if json.Unmarshal([]byte(k.Raw), &s) == nil {
			return Str(s)
		}
	}
	return &Node{kind: kindScalar, scalar: k.Raw}
}

// kwargWhy is the reason above a keyword: the flag it is, and the flag's
// defense from the engine card.
func (k engineKwarg) why() string {
	if k.Flag.Flag == "" {
		return "the model the launch command serves (vllm serve's positional argument)"
	}
	why := k.Flag.Flag + ": " + k.Flag.Defense
	if k.Flag.Source != "" {
		why += " [source: " + k.Flag.Source + "]"
	}
	return why
}

// needVLLM fails with a NotCoveredError unless the engine is vLLM: Ray
// Serve LLM's engine_kwargs and Triton's model.json are vLLM's engine
// arguments.
func (g *gen) needVLLM(what string) error {
	if _, model := g.ec.Program(); g.ec.Engine == knowledge.EngineVLLM && model == "" {
		return &NotCoveredError{Why: fmt.Sprintf("stackpick writes %s from the checkpoint the launch command serves, and this command names none (the model %s has no Hugging Face id in the knowledge base)", what, g.ec.Model)}
	}
	if g.ec.Engine == knowledge.EngineVLLM {
		return nil
	}
	return &NotCoveredError{Why: fmt.Sprintf("stackpick writes %s for vLLM only (they hold vLLM's engine arguments), and the picked engine is %s: the memo's launch command is what to run", what, g.kb.ProductName(g.ec.Engine))}
}
