package check

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// tritonFS holds triton-inference-server/common's protobuf/model_config.proto,
// one folder per release branch (the repository has no tags; branch r26.07
// is the one of Triton 2.71.0, whose TRITON_VERSION on the server's r26.07
// branch reads "2.71.0").
//
//go:embed schemas/triton
var tritonFS embed.FS

// tritonBranch maps a Triton server release to the branch of common whose
// model_config.proto it builds with, for the releases vendored; a version
// given as the branch itself is taken as it is.
var tritonBranch = map[string]string{"2.71.0": "r26.07"}

// TritonConfig parses a Triton model's config.pbtxt as protobuf text
// against the vendored model_config.proto (message inference.ModelConfig)
// at the version v names for "triton" (a branch such as "r26.07" or the
// server release it ships, "2.71.0"; the newest vendored when none). The
// proto is compiled at first use with bufbuild/protocompile, so the
// vendored file is the only copy of the schema. Protobuf text stops at its
// first error, so a file gets at most one problem, at line:col.
func TritonConfig(name string, body []byte, v Versions) []Problem {
	want := v["triton"]
	if b, ok := tritonBranch[strings.TrimPrefix(want, "v")]; ok {
		want = b
	}
	version, err := vendoredVersion(tritonFS, "schemas/triton", want)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: "triton"}}
	}
	label := "triton@" + version + " model_config.proto inference.ModelConfig"
	md, err := tritonModelConfig(version)
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: label}}
	}
	msg := dynamicpb.NewMessage(md)
	if err := (prototext.UnmarshalOptions{}).Unmarshal(body, msg); err != nil {
		return []Problem{textProblem(name, label, err)}
	}
	return nil
}

var tritonDescs sync.Map // version -> *tritonDesc

type tritonDesc struct {
	once sync.Once
	md   protoreflect.MessageDescriptor
	err  error
}

// tritonModelConfig compiles the vendored model_config.proto of a version
// once and returns its ModelConfig message.
func tritonModelConfig(version string) (protoreflect.MessageDescriptor, error) {
	d, _ := tritonDescs.LoadOrStore(version, &tritonDesc{})
	td := d.(*tritonDesc)
	td.once.Do(func() {
		src, err := readVendored(tritonFS, "schemas/triton/"+version+"/model_config.proto.gz")
		if err != nil {
			td.err = err
			return
		}
		c := protocompile.Compiler{Resolver: &protocompile.SourceResolver{Accessor: func(path string) (io.ReadCloser, error) {
			if path != "model_config.proto" {
				return nil, fmt.Errorf("model_config.proto imports %s, which is not vendored", path)
			}
			return io.NopCloser(bytes.NewReader(src)), nil
		}}}
		files, err := c.Compile(context.Background(), "model_config.proto")
		if err != nil {
			td.err = fmt.Errorf("compiling model_config.proto: %w", err)
			return
		}
		md := files[0].Messages().ByName("ModelConfig")
		if md == nil {
			td.err = errors.New("model_config.proto has no message ModelConfig")
			return
		}
		td.md = md
	})
	return td.md, td.err
}

// textPos finds "(line 2:35)" in a protobuf text error.
var textPos = regexp.MustCompile(`\(line (\d+):(\d+)\):\s*`)

// textProblem turns a prototext error into a Problem at line:col.
func textProblem(name, label string, err error) Problem {
	// protobuf-go writes "proto:" and then a space or, at random, a
	// non-breaking one.
	msg := strings.TrimSpace(strings.TrimPrefix(err.Error(), "proto:"))
	p := Problem{File: name, Message: msg, Schema: label}
	if m := textPos.FindStringSubmatchIndex(msg); m != nil {
		p.Path = msg[m[2]:m[3]] + ":" + msg[m[4]:m[5]]
		p.Message = strings.TrimSpace(msg[:m[0]] + msg[m[1]:])
	}
	return p
}

// tritonBackendOwnKeys are the keys of model.json that are not engine
// arguments: none. vllm_backend's src/model.py (8de0c14) loads the file
// whole, "self.vllm_engine_config = json.load(file)", and passes it whole,
// "self._aync_engine_args = AsyncEngineArgs(**self.vllm_engine_config)";
// the keys it also reads itself (enable_lora, tensor_parallel_size,
// pipeline_parallel_size) are engine arguments too. So every key must be
// an AsyncEngineArgs field.
//
// engineArgsPositional are the AsyncEngineArgs fields that vllm serve takes
// as a positional argument, not a flag, so the knowledge base has no flag
// record of them: "model", as the vllm_backend sample's model.json
// (samples/model_repository/vllm_model/1/model.json, 8de0c14) writes it:
// "model":"facebook/opt-125m".
var engineArgsPositional = []string{"model"}

// TritonModelJSON checks the vLLM backend's model.json: a JSON object whose
// keys are vLLM engine arguments, each checked against the knowledge
// base's vLLM flags (argument name = flag name without "--", dashes as
// underscores) at the vLLM release v names for "vllm" (the knowledge
// base's when none), and its value against the flag's record (a switch
// takes a boolean, a whole number an integer, a fraction a number in its
// range, a listed choice one of the list). The knowledge base is the
// embedded one.
func TritonModelJSON(name string, body []byte, v Versions) []Problem {
	kb, err := embeddedKB()
	if err != nil {
		return []Problem{{File: name, Message: err.Error(), Schema: "vllm flags (knowledge base)"}}
	}
	return ModelJSON(kb, name, body, vllmRelease(kb, v))
}

// embeddedKB is the embedded knowledge base, loaded once.
var embeddedKB = sync.OnceValues(func() (*knowledge.KB, error) { return knowledge.Load("") })

// vllmRelease is the vLLM release engine arguments are checked at.
func vllmRelease(kb *knowledge.KB, v Versions) string {
	if r := v["vllm"]; r != "" {
		return r
	}
	return decide.EngineRelease(kb, knowledge.EngineVLLM)
}

// ModelJSON is TritonModelJSON with the knowledge base and vLLM release
// given.
func ModelJSON(kb *knowledge.KB, name string, body []byte, release string) []Problem {
	label := "vllm@" + release + " engine arguments (knowledge base)"
	obj, dups, err := decodeObject(body)
	if err != nil {
		return []Problem{{File: name, Path: "/", Message: err.Error(), Schema: label}}
	}
	var out []Problem
	for _, k := range dups {
		out = append(out, Problem{File: name, Path: jsonPointer([]string{k}), Message: fmt.Sprintf("key %q given twice", k), Schema: label})
	}
	for _, p := range engineKwargs(kb, release, obj, nil) {
		p.File, p.Schema = name, label
		out = append(out, p)
	}
	return out
}

// decodeObject decodes a JSON object, keeping numbers exact, and names
// the keys of it given more than once (which encoding/json would let the
// last win silently).
func decodeObject(body []byte) (map[string]any, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("not a JSON object (starts with %v)", tok)
	}
	obj := map[string]any{}
	var dups []string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("not JSON: %v", err)
		}
		k, _ := kt.(string)
		var val any
		if err := dec.Decode(&val); err != nil {
			return nil, nil, fmt.Errorf("not JSON at key %q: %v", k, err)
		}
		if _, seen := obj[k]; seen {
			dups = append(dups, k)
		}
		obj[k] = val
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("not JSON: text after the object")
	}
	return obj, dups, nil
}

// engineKwargs checks a map of vLLM engine arguments (model.json, a Ray
// LLMConfig's engine_kwargs) against the knowledge base's vLLM flags at a
// release; paths are under at (the map's own location).
func engineKwargs(kb *knowledge.KB, release string, obj map[string]any, at []string) []Problem {
	byArg := map[string]*knowledge.Flag{}
	var names []string
	for _, f := range kb.FlagsOf(knowledge.EngineVLLM) {
		if strings.HasPrefix(f.Name, "--") {
			a := strings.ReplaceAll(strings.TrimPrefix(f.Name, "--"), "-", "_")
			byArg[a] = f
			names = append(names, a)
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Problem
	for _, k := range keys {
		path := jsonPointer(append(append([]string{}, at...), k))
		add := func(format string, a ...any) {
			out = append(out, Problem{Path: path, Message: fmt.Sprintf(format, a...)})
		}
		if contains(engineArgsPositional, k) {
			if s, ok := obj[k].(string); !ok || s == "" {
				add("engine argument %s: got %s, want a model id or path (a non-empty string)", k, jsonKind(obj[k]))
			}
			continue
		}
		f := byArg[k]
		if f == nil {
			msg := fmt.Sprintf("unknown engine argument %q: the knowledge base has no vLLM flag --%s", k, strings.ReplaceAll(k, "_", "-"))
			if near := knowledge.Nearest(k, names); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			add("%s", msg)
			continue
		}
		if msg := lifecycle(f, release); msg != "" {
			add("engine argument %s (%s) %s", k, f.Name, msg)
		}
		if msg := jsonValueProblem(f, obj[k]); msg != "" {
			add("engine argument %s (%s): %s", k, f.Name, msg)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// choiceList is a flag record's values when they are a plain list of
// choices ("mp, ray, uni, external_launcher").
var choiceList = regexp.MustCompile(`^[a-z0-9_]+(, [a-z0-9_]+)+$`)

// wholeAtLeast reads "a whole number ≥ 1".
var wholeAtLeast = regexp.MustCompile(`^a whole number ≥ (\d+)`)

// fractionRange reads "a fraction in (0, 1]" and the like.
var fractionRange = regexp.MustCompile(`^a fraction (?:in|from) ([(\[]?)(\d+(?:\.\d+)?)(?:,| to) (\d+(?:\.\d+)?)([)\]]?)`)

// jsonValueProblem says what is wrong with v as the value of f, judged by
// the flag's record, or "". Only what the record states plainly is
// checked: a switch, a whole number (with its "≥ N" bound), a fraction's
// range, a list of choices.
func jsonValueProblem(f *knowledge.Flag, v any) string {
	vals := f.Values
	switch {
	case isSwitch(f):
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("got %s, want a boolean (the flag is a switch)", jsonKind(v))
		}
	case strings.HasPrefix(vals, "a whole number"):
		n, ok := v.(json.Number)
		i, err := strconv.ParseInt(string(n), 10, 64)
		if !ok || err != nil {
			return fmt.Sprintf("got %s %v, want a whole number (%s)", jsonKind(v), v, vals)
		}
		if m := wholeAtLeast.FindStringSubmatch(vals); m != nil {
			if lo, _ := strconv.ParseInt(m[1], 10, 64); i < lo {
				return fmt.Sprintf("%d is out of range (%s)", i, vals)
			}
		}
	case fractionRange.MatchString(vals):
		m := fractionRange.FindStringSubmatch(vals)
		n, ok := v.(json.Number)
		x, err := strconv.ParseFloat(string(n), 64)
		if !ok || err != nil || math.IsNaN(x) {
			return fmt.Sprintf("got %s, want a number (%s)", jsonKind(v), vals)
		}
		lo, _ := strconv.ParseFloat(m[2], 64)
		hi, _ := strconv.ParseFloat(m[3], 64)
		if x < lo || x > hi || x == lo && m[1] == "(" || x == hi && m[4] == ")" {
			return fmt.Sprintf("%v is out of range (%s)", x, vals)
		}
	case choiceList.MatchString(vals):
		s, ok := v.(string)
		if !ok || !contains(strings.Split(vals, ", "), s) {
			return fmt.Sprintf("got %v, want one of %s", v, vals)
		}
	}
	return ""
}

// TritonVLLMModel checks a vLLM-backend model's config.pbtxt and model.json
// together, as vllm_backend's src/model.py (8de0c14) does when it loads
// them: each passes its own check (TritonConfig, TritonModelJSON), and a
// model.json with tensor_parallel_size × pipeline_parallel_size above 1
// may not run under an instance_group of KIND_GPU (_validate_device_config:
// "KIND_GPU is currently for single-GPU models, please specify KIND_MODEL
// in the model's config.pbtxt for multi-GPU models").
func TritonVLLMModel(configName string, config []byte, jsonName string, modelJSON []byte, v Versions) []Problem {
	out := append(TritonConfig(configName, config, v), TritonModelJSON(jsonName, modelJSON, v)...)
	if len(out) > 0 {
		return out
	}
	want := v["triton"]
	if b, ok := tritonBranch[strings.TrimPrefix(want, "v")]; ok {
		want = b
	}
	version, err := vendoredVersion(tritonFS, "schemas/triton", want)
	if err != nil {
		return []Problem{{File: configName, Message: err.Error(), Schema: "triton"}}
	}
	md, err := tritonModelConfig(version)
	if err != nil {
		return []Problem{{File: configName, Message: err.Error(), Schema: "triton"}}
	}
	msg := dynamicpb.NewMessage(md)
	if err := prototext.Unmarshal(config, msg); err != nil {
		return nil // reported above
	}
	if msg.Get(md.Fields().ByName("backend")).String() != "vllm" {
		return nil
	}
	obj, _, err := decodeObject(modelJSON)
	if err != nil {
		return nil // reported above
	}
	gpus := int64(1)
	for _, k := range []string{"tensor_parallel_size", "pipeline_parallel_size"} {
		if n, ok := obj[k].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				gpus *= i
			}
		}
	}
	if gpus <= 1 {
		return nil
	}
	groups := msg.Get(md.Fields().ByName("instance_group")).List()
	for i := 0; i < groups.Len(); i++ {
		g := groups.Get(i).Message()
		kind := g.Get(g.Descriptor().Fields().ByName("kind")).Enum()
		if name := g.Descriptor().Fields().ByName("kind").Enum().Values().ByNumber(kind); name != nil && name.Name() == "KIND_GPU" {
			out = append(out, Problem{File: configName, Path: fmt.Sprintf("instance_group[%d].kind", i),
				Message: fmt.Sprintf("KIND_GPU with a model.json of tensor_parallel_size × pipeline_parallel_size = %d: vllm_backend refuses it (\"KIND_GPU is currently for single-GPU models, please specify KIND_MODEL in the model's config.pbtxt for multi-GPU models\")", gpus),
				Schema:  "triton vllm_backend@8de0c14 src/model.py _validate_device_config"})
		}
	}
	return out
}
