package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Answers is one full set of answers: every question has a value (its
// default unless set). Values are indexed like KB.Questions.
//
// Each answer also records whether the user stated it (an answers file set
// the key, or the user chose it in the app) or it is the question's
// default: a reason that rests on a default is an assumption, never the
// user's fact.
type Answers struct {
	kb     *KB
	vals   []Value
	stated []bool
	// memo is the answers file's [memo] table: it rides along with the
	// answers to the memo and back to the file, and no rule reads it.
	memo Memo
}

// Defaults returns the answers with every question at its default.
func (kb *KB) Defaults() Answers {
	a := Answers{kb: kb, vals: make([]Value, len(kb.Questions)), stated: make([]bool, len(kb.Questions))}
	for i, q := range kb.Questions {
		a.vals[i] = q.def.clone()
	}
	a.derive()
	return a
}

// KB returns the knowledge base the answers were made against.
func (a Answers) KB() *KB { return a.kb }

// Memo is the decision record's metadata the answers carry (an answers
// file's [memo] table, or what the app's About step set).
func (a Answers) Memo() Memo { return a.memo.clone() }

// WithMemo returns a copy of the answers carrying m as their memo metadata.
func (a Answers) WithMemo(m Memo) Answers {
	b := a.Clone()
	b.memo = m.clone()
	return b
}

// Values exposes the answers by question index (read-only by convention);
// the decide package evaluates conditions against it.
func (a Answers) Values() []Value { return a.vals }

// Stated reports whether the answer at question index i was given by the
// user rather than defaulted. A derived answer is stated when every answer
// it is computed from is.
func (a Answers) Stated(i int) bool {
	if i < 0 || i >= len(a.stated) {
		return false
	}
	d := &a.kb.derived
	switch i {
	case d.total:
		return a.stated[d.nodes] && a.stated[d.gpn]
	case d.vendor:
		return a.stated[d.gpu] || (a.stated[d.gpn] && a.vals[d.gpn].Int == 0)
	}
	return a.stated[i]
}

// StatedKey is Stated by answer key.
func (a Answers) StatedKey(key string) bool { return a.Stated(a.kb.QuestionIndex(key)) }

// Get returns the answer for key (the zero Value if key is unknown).
func (a Answers) Get(key string) Value {
	if i := a.kb.QuestionIndex(key); i >= 0 {
		return a.vals[i]
	}
	return Value{}
}

// Clone returns an independent copy.
func (a Answers) Clone() Answers {
	b := Answers{kb: a.kb, vals: make([]Value, len(a.vals)), stated: slices.Clone(a.stated), memo: a.memo.clone()}
	for i, v := range a.vals {
		b.vals[i] = v.clone()
	}
	return b
}

// With returns a copy with one answer replaced (no validation: the caller
// offers only allowed values). A value that differs from the one before is
// marked stated (the user chose it); passing over a question and keeping
// its value leaves its mark as it was. Derived answers are recomputed.
func (a Answers) With(i int, v Value) Answers {
	return a.with(i, v, !v.Equal(a.vals[i], a.kb.Questions[i].Type))
}

// Confirm is With for an answer the user chose on its own, even when it
// keeps the value it had: it is marked stated either way (confirming a
// default turns an assumption into the user's fact).
func (a Answers) Confirm(i int, v Value) Answers { return a.with(i, v, true) }

func (a Answers) with(i int, v Value, stated bool) Answers {
	b := Answers{kb: a.kb, vals: slices.Clone(a.vals), stated: slices.Clone(a.stated), memo: a.memo.clone()}
	b.vals[i] = v
	b.stated[i] = b.stated[i] || stated
	b.derive()
	return b
}

// Put replaces one answer in place (no validation: the caller offers only
// allowed values) and recomputes the derived answers. It leaves the answer's
// stated mark as it was: use With for a choice the user makes.
func (a *Answers) Put(i int, v Value) {
	a.vals[i] = v
	if d := &a.kb.derived; i == d.nodes || i == d.gpn || i == d.gpu || i == d.replicas || i == d.models || i == d.substrate || i == d.kubernetes {
		a.derive()
	}
}

// Set validates raw (a Go value as TOML would decode it: int64, bool,
// string, []any) for key and stores it.
func (a *Answers) Set(key string, raw any) error {
	q := a.kb.Question(key)
	if q == nil || q.Derived {
		return &Error{File: "answers", Key: key, Problem: "unknown answer key", Allowed: strings.Join(a.kb.AnswerKeys(), ", "), Hint: didYouMean(key, a.kb.AnswerKeys())}
	}
	v, p := q.parse(raw)
	if p != nil {
		p.File, p.Key = "answers", key
		return p
	}
	a.vals[a.kb.questionIdx[key]] = v
	a.stated[a.kb.questionIdx[key]] = true
	a.derive()
	return nil
}

func (a *Answers) derive() {
	d := &a.kb.derived
	if d.total >= 0 {
		a.vals[d.total] = Value{Int: a.vals[d.nodes].Int * a.vals[d.gpn].Int}
	}
	if d.vendor >= 0 {
		vendor := "none"
		if gpu := a.kb.gpuByID[a.vals[d.gpu].Str]; gpu != nil && a.vals[d.gpn].Int > 0 {
			vendor = gpu.Vendor
		}
		a.vals[d.vendor] = Value{Str: vendor}
	}
	if d.perModel >= 0 {
		n := a.vals[d.replicas].Int
		if n <= 0 {
			n = max(1, a.vals[d.nodes].Int/max(1, a.vals[d.models].Int))
		}
		a.vals[d.perModel] = Value{Int: n}
	}
	if d.platform >= 0 {
		a.vals[d.platform] = Value{Str: platformOf(a.vals[d.substrate].Str, a.vals[d.kubernetes].Str)}
	}
}

// platformOf is the platform a substrate answer names, auto taking it from
// the kubernetes answer.
func platformOf(substrate, kubernetes string) string {
	if substrate != SubstrateAuto {
		return substrate
	}
	if kubernetes == KubernetesNone {
		return PlatformBareMetal
	}
	return PlatformKubernetes
}

// derivedIndexes caches the positions derive reads and writes.
type derivedIndexes struct {
	nodes, gpn, gpu, total, vendor  int
	replicas, models, perModel      int
	substrate, kubernetes, platform int
}

func (kb *KB) indexDerived() {
	kb.derived = derivedIndexes{
		nodes:      kb.QuestionIndex(KeyNodes),
		gpn:        kb.QuestionIndex(KeyGPUsPerNode),
		gpu:        kb.QuestionIndex(KeyGPU),
		total:      kb.QuestionIndex(DerivedTotalGPUs),
		vendor:     kb.QuestionIndex(DerivedGPUVendor),
		replicas:   kb.QuestionIndex(KeyReplicas),
		models:     kb.QuestionIndex(KeyBaseModels),
		perModel:   kb.QuestionIndex(DerivedReplicasPerModel),
		substrate:  kb.QuestionIndex(KeySubstrate),
		kubernetes: kb.QuestionIndex(KeyKubernetes),
		platform:   kb.QuestionIndex(DerivedPlatform),
	}
}

// SubstrateConflicts reports whether a substrate answer contradicts a
// kubernetes answer: a Kubernetes substrate without Kubernetes, or a
// Slurm or bare-metal one where Kubernetes is required.
func SubstrateConflicts(substrate, kubernetes string) bool {
	switch substrate {
	case PlatformKubernetes, PlatformOpenShift, PlatformManagedCloud:
		return kubernetes == KubernetesNone
	case PlatformSlurm, PlatformBareMetal:
		return kubernetes == KubernetesRequired
	}
	return false
}

// ConsistentValues lists the values of key (substrate or kubernetes) that
// do not contradict the other of the two answers, in question order; for
// any other key, every value the question allows. The app offers only
// these, so a contradictory pair cannot be chosen.
func (a Answers) ConsistentValues(key string) []string {
	q := a.kb.Question(key)
	if q == nil {
		return nil
	}
	var out []string
	for _, v := range q.Values {
		switch key {
		case KeySubstrate:
			if SubstrateConflicts(v, a.Get(KeyKubernetes).Str) {
				continue
			}
		case KeyKubernetes:
			if SubstrateConflicts(a.Get(KeySubstrate).Str, v) {
				continue
			}
		}
		out = append(out, v)
	}
	return out
}

// conflict explains a contradiction between answers, or returns nil. line
// finds a key's line in the answers file (nil: no file).
func (a Answers) conflict(file string, line func(string) int) *Error {
	d := &a.kb.derived
	if d.gpn >= 0 && d.gpu >= 0 && a.vals[d.gpn].Int == 0 && a.vals[d.gpu].Str != GPUCPU && a.stated[d.gpn] && a.stated[d.gpu] {
		e := &Error{File: file, Key: KeyGPUsPerNode,
			Problem: fmt.Sprintf("gpus_per_node = 0 means the nodes have no accelerator, but gpu = %q names one", a.vals[d.gpu].Str),
			Hint:    `write gpu = "cpu" for a CPU-only fleet, or gpus_per_node = 1 or more`}
		if line != nil {
			e.Line = line(KeyGPUsPerNode)
		}
		return e
	}
	if d.substrate < 0 || d.kubernetes < 0 {
		return nil
	}
	sub, k8s := a.vals[d.substrate].Str, a.vals[d.kubernetes].Str
	if !SubstrateConflicts(sub, k8s) {
		return nil
	}
	e := &Error{File: file, Key: KeySubstrate}
	if line != nil {
		e.Line = line(KeySubstrate)
		if e.Line == 0 {
			e.Line = line(KeyKubernetes)
		}
	}
	if k8s == KubernetesNone {
		e.Problem = fmt.Sprintf("substrate = %q runs on Kubernetes, but kubernetes = %q says the platform has none", sub, k8s)
		e.Hint = `write kubernetes = "available" (or "required"), or substrate = "bare-metal" (or "slurm", or "auto")`
	} else {
		e.Problem = fmt.Sprintf("substrate = %q has no Kubernetes, but kubernetes = %q says Kubernetes is a requirement", sub, k8s)
		e.Hint = `write kubernetes = "none" (or "available"), or substrate = "kubernetes" (or "openshift", "managed-cloud", "auto")`
	}
	return e
}

// AnswerKeys lists the keys a user may set, in question order.
func (kb *KB) AnswerKeys() []string {
	var keys []string
	for _, q := range kb.Questions {
		if !q.Derived {
			keys = append(keys, q.Key)
		}
	}
	return keys
}

// ParseAnswers reads an answers TOML file. Missing keys keep their defaults;
// every problem found is reported with file:line. A [memo] table, if any,
// is the decision record's metadata (see Memo), not answers.
func (kb *KB) ParseAnswers(file string, data []byte) (Answers, error) {
	if e := checkNesting(file, data); e != nil {
		return Answers{}, Errors{e}
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return Answers{}, Errors{tomlError(file, err)}
	}
	var memo Memo
	var errs Errors
	if t, ok := raw[memoTable]; ok {
		raw = maps.Clone(raw)
		delete(raw, memoTable)
		table, isTable := t.(map[string]any)
		if !isTable {
			loc := newLocator(data)
			errs = append(errs, &Error{File: file, Line: loc.keyLine(0, memoTable), Key: memoTable, Problem: "is a table of the memo's title, status, deciders, date and problem",
				Hint: `write it as a [memo] table after the answers, e.g. [memo] then title = "…" on the next line`})
		} else {
			var loc *locator // read once, for the first problem
			from := 0        // the [memo] header's line
			m, es := parseMemo(file, table, func(k string) int {
				if loc == nil {
					loc = newLocator(data)
					if i := slices.Index(loc.headers, memoTable); i >= 0 {
						from = i + 1
					}
				}
				if from == 0 {
					return 0
				}
				return loc.keyLine(from, k)
			})
			memo, errs = m, es
		}
	}
	a, err := kb.AnswersFromTable(file, data, raw, "")
	if err != nil {
		var more Errors
		if !errors.As(err, &more) {
			return Answers{}, err
		}
		errs = append(errs, more...)
	}
	if err := errs.orNil(); err != nil {
		return Answers{}, err
	}
	a.memo = memo
	return a, nil
}

// memoTable is the answers file's table of memo metadata.
const memoTable = "memo"

// AnswersFromTable validates an already decoded table of answers. src is
// the file's text (for line numbers) and table the name of the TOML table
// that holds the answers ("" for top level, "answers" in scenario files).
func (kb *KB) AnswersFromTable(file string, src []byte, raw map[string]any, table string) (Answers, error) {
	// Lines are found by scanning src, which only an error needs: answers
	// that are fine (every preset, on every run) skip it.
	var loc *locator
	from := 0
	lineOf := func(k string) int {
		if loc == nil {
			loc = newLocator(src)
			for i, h := range loc.headers {
				if table != "" && h == table {
					from = i + 1 // keys are looked for below the table's header
					break
				}
			}
		}
		return loc.keyLine(from, k)
	}
	a := kb.Defaults()
	var errs Errors
	keys := kb.AnswerKeys()
	allowed := strings.Join(keys, ", ")
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		q := kb.Question(k)
		if q == nil || q.Derived {
			e := &Error{File: file, Line: lineOf(k), Key: k, Problem: "unknown answer key", Allowed: allowed, Hint: didYouMean(k, keys)}
			if _, isTable := raw[k].(map[string]any); isTable && q == nil && e.Hint == "" {
				e.Problem = "answers are plain keys, not tables"
				e.Hint = fmt.Sprintf("remove the [%s] header and keep its keys at the top level", k)
			}
			if q == nil && table == "" && slices.Contains(memoKeys, k) && e.Hint == "" {
				e.Hint = fmt.Sprintf("%s belongs to the memo: put it under a [memo] table after the answers", k)
			}
			if q != nil {
				e.Problem = "is computed from other answers and cannot be set"
				e.Hint = "remove it"
			}
			errs = append(errs, e)
			continue
		}
		v, p := q.parse(raw[k])
		if p != nil {
			p.File, p.Line, p.Key = file, lineOf(k), k
			errs = append(errs, p)
			continue
		}
		a.vals[kb.questionIdx[k]] = v
		a.stated[kb.questionIdx[k]] = true
	}
	if err := errs.orNil(); err != nil {
		return Answers{}, err
	}
	a.derive()
	a.yieldDefault()
	if e := a.conflict(file, lineOf); e != nil {
		return Answers{}, Errors{e}
	}
	return a, nil
}

// yieldUnifiedMemory: an Apple silicon machine is one GPU with unified
// memory, so a defaulted gpus_per_node (8) yields to 1 under it; a stated
// count stays as the user wrote it. It reports whether it moved.
func (a *Answers) yieldUnifiedMemory() bool {
	d := &a.kb.derived
	if d.gpu < 0 || d.gpn < 0 || a.stated[d.gpn] {
		return false
	}
	g := a.kb.gpuByID[a.vals[d.gpu].Str]
	if g == nil || g.Vendor != VendorApple || a.vals[d.gpn].Int == 1 {
		return false
	}
	a.vals[d.gpn] = Value{Int: 1}
	a.derive()
	return true
}

// yieldDefault settles a substrate × kubernetes contradiction in favour of
// the answer the user stated: a defaulted kubernetes moves to the nearest
// value that agrees with a stated substrate ("available" under a
// Kubernetes substrate, "none" under Slurm or bare metal) and stays a
// default, so the decision shows it as an assumption. Two stated answers
// that contradict each other stay an error.
func (a *Answers) yieldDefault() {
	a.yieldUnifiedMemory()
	// A CPU fleet: a defaulted gpus_per_node (8) yields to 0 under gpu = cpu.
	if d := &a.kb.derived; d.gpn >= 0 && d.gpu >= 0 && a.stated[d.gpu] && !a.stated[d.gpn] && a.vals[d.gpu].Str == GPUCPU && a.vals[d.gpn].Int != 0 {
		a.vals[d.gpn] = Value{Int: 0}
		a.derive()
	}
	// No accelerator per node: a defaulted gpu yields to the CPU entry.
	if d := &a.kb.derived; d.gpn >= 0 && d.gpu >= 0 && a.stated[d.gpn] && !a.stated[d.gpu] && a.vals[d.gpn].Int == 0 && a.vals[d.gpu].Str != GPUCPU && a.kb.gpuByID[GPUCPU] != nil {
		a.vals[d.gpu] = Value{Str: GPUCPU}
		a.derive()
	}
	d := &a.kb.derived
	if d.substrate < 0 || d.kubernetes < 0 || a.stated[d.kubernetes] || !a.stated[d.substrate] {
		return
	}
	sub, k8s := a.vals[d.substrate].Str, a.vals[d.kubernetes].Str
	if !SubstrateConflicts(sub, k8s) {
		return
	}
	to := KubernetesAvailable
	if k8s == KubernetesRequired {
		to = KubernetesNone
	}
	a.vals[d.kubernetes] = Value{Str: to}
	a.derive()
}

// AllowedText describes the values q accepts, for errors and help.
func (q *Question) AllowedText() string {
	switch q.Type {
	case TypeInt:
		switch {
		case q.Min != nil && q.Max != nil:
			return fmt.Sprintf("a whole number from %d to %d", *q.Min, *q.Max)
		case q.Min != nil:
			return fmt.Sprintf("a whole number ≥ %d", *q.Min)
		case q.Max != nil:
			return fmt.Sprintf("a whole number ≤ %d", *q.Max)
		}
		return "a whole number"
	case TypeBool:
		return "true or false"
	case TypeList:
		return "a list of " + strings.Join(q.Values, ", ")
	default:
		return strings.Join(q.Values, ", ")
	}
}

// parse turns a decoded TOML value into a Value for q, or explains why not.
func (q *Question) parse(raw any) (Value, *Error) {
	bad := func(problem, hint string) (Value, *Error) {
		return Value{}, &Error{Problem: problem, Allowed: q.AllowedText(), Hint: hint}
	}
	switch q.Type {
	case TypeInt:
		var n int64
		switch x := raw.(type) {
		case int64:
			n = x
		case float64:
			if x == math.Trunc(x) && !math.IsInf(x, 0) {
				return bad(fmt.Sprintf("%v is a decimal number", x), fmt.Sprintf("write %s = %d", q.Key, int64(x)))
			}
			return bad(fmt.Sprintf("%v is not a whole number", x), "")
		case string:
			if _, err := strconv.Atoi(x); err == nil {
				return bad(fmt.Sprintf("%q is a string, not a number", x), fmt.Sprintf("write %s = %s without quotes", q.Key, x))
			}
			return bad(fmt.Sprintf("%q is not a number", x), "")
		default:
			return bad(fmt.Sprintf("expected a whole number, got %s", tomlKind(raw)), "")
		}
		if q.Min != nil && n < int64(*q.Min) {
			return bad(fmt.Sprintf("%d is too small", n), fmt.Sprintf("use %d or more", *q.Min))
		}
		if q.Max != nil && n > int64(*q.Max) {
			return bad(fmt.Sprintf("%d is too large", n), fmt.Sprintf("use %d or less", *q.Max))
		}
		if n > math.MaxInt32 || n < math.MinInt32 {
			return bad(fmt.Sprintf("%d is out of range", n), "")
		}
		return Value{Int: int(n)}, nil
	case TypeBool:
		switch x := raw.(type) {
		case bool:
			return Value{Bool: x}, nil
		case string:
			lx := strings.ToLower(x)
			if lx == "true" || lx == "yes" || lx == "false" || lx == "no" {
				return bad(fmt.Sprintf("%q is a string, not a boolean", x), fmt.Sprintf("write %s = %t without quotes", q.Key, lx == "true" || lx == "yes"))
			}
		}
		return bad(fmt.Sprintf("expected true or false, got %s", tomlKind(raw)), "")
	case TypeEnum:
		s, ok := raw.(string)
		if !ok {
			return bad(fmt.Sprintf("expected one of the listed words in quotes, got %s", tomlKind(raw)), "")
		}
		if !slices.Contains(q.Values, s) {
			return bad(fmt.Sprintf("%q is not an allowed value", s), didYouMean(s, q.Values))
		}
		return Value{Str: s}, nil
	case TypeList:
		items, ok := raw.([]any)
		if !ok {
			if s, isStr := raw.(string); isStr {
				return bad(fmt.Sprintf("expected a list, got the string %q", s), fmt.Sprintf("write %s = [%q]", q.Key, s))
			}
			return bad(fmt.Sprintf("expected a list, got %s", tomlKind(raw)), "")
		}
		set := map[string]bool{}
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return bad(fmt.Sprintf("list items must be quoted words, got %s", tomlKind(it)), "")
			}
			if !slices.Contains(q.Values, s) {
				return bad(fmt.Sprintf("%q is not an allowed value", s), didYouMean(s, q.Values))
			}
			if set[s] {
				return bad(fmt.Sprintf("%q is listed twice", s), "list each value once")
			}
			set[s] = true
		}
		// Canonical order (the question's) so equal sets are equal lists.
		var list []string
		for _, v := range q.Values {
			if set[v] {
				list = append(list, v)
			}
		}
		return Value{List: list}, nil
	}
	return bad("question has an unknown type", "")
}

func tomlKind(v any) string {
	switch x := v.(type) {
	case int64:
		return fmt.Sprintf("the number %d", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	case bool:
		return fmt.Sprintf("the boolean %t", x)
	case string:
		return fmt.Sprintf("the string %q", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	default:
		return fmt.Sprintf("a %T", v)
	}
}

// TOML renders the answers as an answers file, every key with a comment
// from its question, in question order. A defaulted answer is written
// commented out, so the file keeps what the user stated apart from what
// was assumed; ParseAnswers reads it back to the same answers and marks.
func (a Answers) TOML(header string) []byte {
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "# %s\n", line)
		}
	}
	if header != "" {
		b.WriteString("\n")
	}
	page := ""
	for i, q := range a.kb.Questions {
		if q.Derived {
			continue
		}
		if q.Page != page {
			if page != "" {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "# --- %s ---\n", q.Page)
			page = q.Page
		}
		if a.stated[i] {
			fmt.Fprintf(&b, "%s = %s  # %s\n", q.Key, a.vals[i].Format(q.Type), q.AllowedText())
		} else {
			fmt.Fprintf(&b, "# %s = %s  # default; %s\n", q.Key, a.vals[i].Format(q.Type), q.AllowedText())
		}
	}
	if m := a.memo.toml(); m != "" {
		b.WriteString("\n" + m)
	}
	return b.Bytes()
}

// MarshalJSON writes the answers as an object in question order (derived
// answers included, since rules test them).
func (a Answers) MarshalJSON() ([]byte, error) { return a.appendJSON(false), nil }

// MarshalStatedJSON writes each answer as {"value": …, "stated": true|false}.
func (a Answers) MarshalStatedJSON() ([]byte, error) { return a.appendJSON(true), nil }

func (a Answers) appendJSON(withStated bool) []byte {
	b := make([]byte, 0, 64*len(a.vals))
	b = append(b, '{')
	for i, q := range a.kb.Questions {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, q.Key)
		b = append(b, ':')
		if withStated {
			b = append(b, `{"value":`...)
		}
		v := a.vals[i]
		switch q.Type {
		case TypeInt:
			b = strconv.AppendInt(b, int64(v.Int), 10)
		case TypeBool:
			b = strconv.AppendBool(b, v.Bool)
		case TypeList:
			b = append(b, '[')
			for j, s := range v.List {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, s)
			}
			b = append(b, ']')
		default:
			b = appendJSONString(b, v.Str)
		}
		if withStated {
			// A derived answer is computed, never given: it says so.
			b = append(b, `,"stated":`...)
			b = strconv.AppendBool(b, !q.Derived && a.Stated(i))
			if q.Derived {
				b = append(b, `,"derived":true`...)
			}
			b = append(b, '}')
		}
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			js, _ := json.Marshal(s) // rare: let encoding/json escape it
			return append(b, js...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Reconcile settles a substrate × kubernetes contradiction that answers
// changed from prev have made: the answer just given wins, and the other
// moves to the nearest value that agrees with it (kubernetes to
// "available" under a Kubernetes substrate, to "none" under Slurm or bare
// metal; substrate back to "auto" when kubernetes was the one changed). It
// returns the answers and the change it made (nil when there was no
// contradiction). The app calls it on every change, so it never decides on
// a contradictory pair; answer files get an error instead.
func (a Answers) Reconcile(prev Answers) (Answers, *AnswerChange) {
	b, ch := a.reconcileSubstrate(prev)
	if d := &a.kb.derived; ch == nil && d.gpn >= 0 && d.gpu >= 0 && b.vals[d.gpn].Int == 0 && b.vals[d.gpu].Str != GPUCPU && b.kb.gpuByID[GPUCPU] != nil {
		// gpus_per_node = 0 against an accelerator: the answer just given
		// wins, and the other goes back to a default that agrees.
		i, to := d.gpu, Value{Str: GPUCPU}
		if len(prev.vals) == len(b.vals) && prev.vals[d.gpn].Int == 0 {
			i, to = d.gpn, b.kb.Questions[d.gpn].def.clone()
		}
		ch = &AnswerChange{Q: b.kb.Questions[i], From: b.vals[i], To: to}
		b = b.with(i, to, false)
		b.stated[i] = false
	}
	n := b.normalized()
	if ch == nil {
		// Say the first answer normalizing moved (to agree with one given).
		for i, q := range a.kb.Questions {
			if !q.Derived && !n.vals[i].Equal(b.vals[i], q.Type) {
				ch = &AnswerChange{Q: q, From: b.vals[i], To: n.vals[i]}
				break
			}
		}
	}
	return n, ch
}

// normalized puts every answer the user has not stated back to what an
// answers file without it would read: the question's default, after the
// defaults yield to the stated answers (a Kubernetes substrate, Apple
// silicon). So a value moved to agree with an answer the user later
// changed does not outlive its reason, and saving and replaying the
// answers gives the same decision.
func (a Answers) normalized() Answers {
	b := a.Clone()
	for i, q := range a.kb.Questions {
		if !q.Derived && !b.stated[i] {
			b.vals[i] = q.def.clone()
		}
	}
	b.derive()
	b.yieldDefault()
	return b
}

// reconcileSubstrate is Reconcile's substrate × kubernetes part.
func (a Answers) reconcileSubstrate(prev Answers) (Answers, *AnswerChange) {
	d := &a.kb.derived
	if d.substrate < 0 || d.kubernetes < 0 {
		return a, nil
	}
	sub, k8s := a.vals[d.substrate].Str, a.vals[d.kubernetes].Str
	if !SubstrateConflicts(sub, k8s) {
		return a, nil
	}
	kubernetesChanged := len(prev.vals) == len(a.vals) && prev.vals[d.kubernetes].Str != k8s && prev.vals[d.substrate].Str == sub
	i, to := d.kubernetes, Value{Str: KubernetesAvailable}
	switch {
	case kubernetesChanged:
		i, to = d.substrate, Value{Str: SubstrateAuto}
	case k8s == KubernetesRequired:
		to = Value{Str: KubernetesNone}
	}
	ch := &AnswerChange{Q: a.kb.Questions[i], From: a.vals[i], To: to}
	// The answer moved to agree is not the user's: it becomes a default
	// again, shown as an assumption, until the user states it.
	b := a.with(i, to, false)
	b.stated[i] = false
	return b, ch
}
