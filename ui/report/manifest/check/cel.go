package check

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
)

// The CEL pass: every x-kubernetes-validations rule is evaluated at its
// place in the object, with self bound to the node there, as the API
// server does after defaulting. kubeconform skips these rules; KServe's
// scaling rules and the LWS replicas rule live only here.
//
// What it cannot do, and so does not: rules that compare with oldSelf
// (transition rules) need the object before an update, so they are
// skipped. Rules on nodes the object does not have are not evaluated, as
// on a cluster. The API server's cost budget is not applied.

// celEnv is the environment every rule compiles in: self is dynamic, and
// the extension libraries Kubernetes adds (strings, lists, sets) are there.
var celEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("self", cel.DynType),
		ext.Strings(), ext.Lists(), ext.Sets(),
		cel.CrossTypeNumericComparisons(true),
	)
})

type celRule struct {
	prg cel.Program
	err error
}

var celPrograms sync.Map // rule text -> *celRule

// program compiles a rule once.
func program(rule string) (cel.Program, error) {
	if v, ok := celPrograms.Load(rule); ok {
		r := v.(*celRule)
		return r.prg, r.err
	}
	r := &celRule{}
	env, err := celEnv()
	if err != nil {
		r.err = err
	} else if ast, iss := env.Compile(rule); iss.Err() != nil {
		r.err = iss.Err()
	} else {
		r.prg, r.err = env.Program(ast)
	}
	celPrograms.Store(rule, r)
	return r.prg, r.err
}

// usesOldSelf says a rule is a transition rule.
var usesOldSelf = regexp.MustCompile(`\boldSelf\b`)

// celProblems walks the schema and the value together and evaluates the
// rules it meets. loc is the value's place in the object.
func celProblems(schema map[string]any, value any, loc []string) []Problem {
	if schema == nil || value == nil {
		return nil
	}
	var out []Problem
	// Defaults first: the API server defaults an object before any rule,
	// its own included, sees it.
	if obj, ok := value.(map[string]any); ok {
		props, _ := schema["properties"].(map[string]any)
		applyDefaults(props, obj)
	}
	if rules, ok := schema["x-kubernetes-validations"].([]any); ok {
		for _, r := range rules {
			if p := evalRule(r, value, loc); p != nil {
				out = append(out, *p)
			}
		}
	}
	for _, key := range []string{"allOf"} {
		if subs, ok := schema[key].([]any); ok {
			for _, s := range subs {
				if sm, ok := s.(map[string]any); ok {
					out = append(out, celProblems(sm, value, loc)...)
				}
			}
		}
	}
	switch n := value.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for k, pv := range props {
			ps, _ := pv.(map[string]any)
			if child, ok := n[k]; ok {
				out = append(out, celProblems(ps, child, append(loc[:len(loc):len(loc)], k))...)
			}
		}
		if ap, ok := schema["additionalProperties"].(map[string]any); ok {
			for k, child := range n {
				if _, named := props[k]; !named {
					out = append(out, celProblems(ap, child, append(loc[:len(loc):len(loc)], k))...)
				}
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, child := range n {
				out = append(out, celProblems(items, child, append(loc[:len(loc):len(loc)], strconv.Itoa(i)))...)
			}
		}
	}
	return out
}

// applyDefaults fills the properties the object leaves out with the
// schema's defaults, as the API server does before it runs the rules
// (rules such as "size(self.group) == 0" rely on group defaulting to "").
func applyDefaults(props map[string]any, obj map[string]any) {
	for k, pv := range props {
		ps, _ := pv.(map[string]any)
		if d, ok := ps["default"]; ok {
			if _, set := obj[k]; !set {
				obj[k] = celValue(deepCopy(d))
			}
		}
	}
}

// evalRule evaluates one x-kubernetes-validations entry on value.
func evalRule(r any, value any, loc []string) *Problem {
	rm, ok := r.(map[string]any)
	if !ok {
		return nil
	}
	rule, _ := rm["rule"].(string)
	if rule == "" || usesOldSelf.MatchString(rule) {
		return nil
	}
	where := pointer(loc)
	if fp, ok := rm["fieldPath"].(string); ok {
		where += fieldPathPointer(fp)
	}
	prg, err := program(rule)
	if err != nil {
		return &Problem{Path: where, Message: fmt.Sprintf("rule %q does not compile here, so it was not checked: %v", rule, err)}
	}
	res, _, err := prg.Eval(map[string]any{"self": value})
	if err != nil {
		return &Problem{Path: where, Message: fmt.Sprintf("rule %q could not be evaluated: %v", rule, err)}
	}
	if ok, isBool := res.Value().(bool); isBool && ok {
		return nil
	} else if !isBool {
		return &Problem{Path: where, Message: fmt.Sprintf("rule %q gave %v, not a boolean", rule, res.Value())}
	}
	msg, _ := rm["message"].(string)
	if me, ok := rm["messageExpression"].(string); ok {
		if mprg, err := program(me); err == nil {
			if mv, _, err := mprg.Eval(map[string]any{"self": value}); err == nil {
				if s, ok := mv.Value().(string); ok && s != "" {
					msg = s
				}
			}
		}
	}
	if msg == "" {
		msg = "failed rule: " + rule
	}
	return &Problem{Path: where, Message: msg}
}

// fieldPathPointer turns a rule's fieldPath (".spec.replicas") into a
// pointer suffix; what it cannot read (list indexes by key) it leaves off.
func fieldPathPointer(fp string) string {
	if strings.ContainsAny(fp, "[]'") {
		return ""
	}
	return strings.ReplaceAll(fp, ".", "/")
}

// celValue makes a decoded JSON value CEL's kind of value: whole numbers
// become int (Kubernetes' integer fields are int64 in CEL), the rest stay
// double.
func celValue(v any) any {
	switch n := v.(type) {
	case map[string]any:
		for k, x := range n {
			n[k] = celValue(x)
		}
		return n
	case []any:
		for i, x := range n {
			n[i] = celValue(x)
		}
		return n
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n)
		}
		return n
	}
	return v
}
