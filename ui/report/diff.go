package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// Two decisions side by side: the model of what differs between decision A
// and decision B, read from their two traces and the answers' own diff,
// never from a third decision. The text, JSON and Markdown renderers, and
// the memo's pinned alternative, all read this one model.

// DiffSchema names the JSON shape of a DecisionDiff.
const DiffSchema = "stackpick.diff/v1"

// DecisionDiff is what differs between two decisions.
type DecisionDiff struct {
	Schema string `json:"schema"`
	// Identical: the same answers, the same stack, the same engine
	// settings. SameStack: no layer moved (the answers may still differ).
	Identical bool     `json:"identical"`
	SameStack bool     `json:"same_stack"`
	A         DiffSide `json:"a"`
	B         DiffSide `json:"b"`
	// Answers are the answers that differ, in question order.
	Answers []AnswerDiff `json:"answers"`
	// Layers holds every layer, moved or not, in the knowledge base's order.
	Layers []LayerDiff `json:"layers"`
	// Engine lists the engine settings that differ.
	Engine []SettingDiff `json:"engine"`
}

// DiffSide is one of the two decisions: its label and its stack.
type DiffSide struct {
	Label  string          `json:"label"`
	Stack  string          `json:"stack"`
	Layers []decide.Placed `json:"layers"`
}

// AnswerDiff is one answer that differs, with whether each side stated it
// or took the default.
type AnswerDiff struct {
	Key      string `json:"key"`
	Question string `json:"question"`
	A        string `json:"a"`
	B        string `json:"b"`
	AStated  bool   `json:"a_stated"`
	BStated  bool   `json:"b_stated"`
}

// Layer changes a LayerDiff names in Moved.
const (
	MovedPick        = "pick"
	MovedComplements = "complements"
	MovedState       = "state"
)

// LayerDiff is one layer in both decisions and, when it moved, why.
type LayerDiff struct {
	Layer string `json:"layer"`
	Name  string `json:"name"`
	// A and B are the layer's outcome in words ("llm-d", "no model
	// server · not needed").
	A string `json:"a"`
	B string `json:"b"`
	// Moved names what changed: pick, complements, state; empty when the
	// layer is the same in both.
	Moved []string `json:"moved"`
	// AInB is how A's pick fared in B ("excluded", "close call"), and BInA
	// how B's pick fared in A; empty when the pick did not move.
	AInB string `json:"a_in_b,omitempty"`
	BInA string `json:"b_in_a,omitempty"`
	// OnlyA and OnlyB are the arguments about the products that moved (and
	// the layer's close calls and conflicts) that hold in one decision's
	// trace and not in the other's.
	OnlyA []WhyItem `json:"only_in_a"`
	OnlyB []WhyItem `json:"only_in_b"`
}

// Why-item kinds.
const (
	WhyFor       = "for"        // a reason or argument for the product
	WhyAgainst   = "against"    // an argument that counts against it
	WhyExcluded  = "excluded"   // an exclusion rule or a capability fact rules it out
	WhyUnfit     = "unfit"      // no feasible stack places it
	WhyTrade     = "trade"      // it would win the layer alone and loses as a whole
	WhyCloseCall = "close-call" // the layer was a close call or a tie
	WhyTieBreak  = "tie-break"  // a declared tie-break settled it
	WhyConflict  = "conflict"   // a need goes unmet and nothing fits
)

// WhyItem is one argument that holds in one decision and not the other.
type WhyItem struct {
	Kind        string `json:"kind"`
	Product     string `json:"product,omitempty"`
	ProductName string `json:"product_name,omitempty"`
	// Rule is the rule, need or capability record it comes from, for the
	// trace and scripts; the text and Markdown never show it.
	Rule string `json:"rule,omitempty"`
	Text string `json:"text"`
	// When is the conditions as they held, for a rule or a need.
	When string `json:"when,omitempty"`
	// Other says why it does not hold in the other decision, from that
	// decision's trace: the first condition of the rule that failed there,
	// with the answer it had.
	Other string `json:"other,omitempty"`
}

// SettingDiff is one engine setting that differs.
type SettingDiff struct {
	// Setting is what the setting does ("max running requests"), the same
	// across engines; a flag only one engine knows is named by its flag.
	Setting string `json:"setting"`
	A       string `json:"a"`
	B       string `json:"b"`
	// AFlag and BFlag are the flags each side's engine spells it with
	// ("" when that side's command does not carry it).
	AFlag string `json:"a_flag,omitempty"`
	BFlag string `json:"b_flag,omitempty"`
}

// Moved lists the layers that moved.
func (dd DecisionDiff) Moved() []LayerDiff {
	var out []LayerDiff
	for _, l := range dd.Layers {
		if len(l.Moved) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// DiffDecisions compares decision a (labelled aLabel) with decision b. Both
// must be made with kb.
func DiffDecisions(kb *knowledge.KB, a, b decide.Decision, aLabel, bLabel string) DecisionDiff {
	dd := DecisionDiff{Schema: DiffSchema, A: diffSide(kb, a, aLabel), B: diffSide(kb, b, bLabel)}
	for _, ch := range kb.Diff(a.Answers.Answers, b.Answers.Answers) {
		dd.Answers = append(dd.Answers, AnswerDiff{Key: ch.Q.Key, Question: ch.Q.Prompt, A: ch.FromText(), B: ch.ToText(),
			AStated: a.Answers.StatedKey(ch.Q.Key), BStated: b.Answers.StatedKey(ch.Q.Key)})
	}
	dd.SameStack = true
	for _, la := range a.Layers {
		lb, ok := layerIn(b, la.Layer)
		if !ok {
			continue
		}
		ld := layerDiff(kb, a, b, la, lb)
		if len(ld.Moved) > 0 {
			dd.SameStack = false
		}
		dd.Layers = append(dd.Layers, ld)
	}
	dd.Engine = engineDiff(kb, a.EngineConfig, b.EngineConfig)
	dd.Identical = dd.SameStack && len(dd.Answers) == 0 && len(dd.Engine) == 0
	// Lists are [] in JSON, never null, so a script can range over them.
	dd.Answers, dd.Engine = nonNil(dd.Answers), nonNil(dd.Engine)
	for i := range dd.Layers {
		l := &dd.Layers[i]
		l.Moved, l.OnlyA, l.OnlyB = nonNil(l.Moved), nonNil(l.OnlyA), nonNil(l.OnlyB)
	}
	for _, s := range []*DiffSide{&dd.A, &dd.B} {
		for i := range s.Layers {
			s.Layers[i].Also = nonNil(s.Layers[i].Also)
		}
	}
	return dd
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func diffSide(kb *knowledge.KB, d decide.Decision, label string) DiffSide {
	s := DiffSide{Label: label, Stack: StackLine(kb, d)}
	for _, lp := range d.Layers {
		s.Layers = append(s.Layers, decide.Placed{Layer: lp.Layer, Pick: lp.Pick, Also: lp.Also, State: lp.State})
	}
	return s
}

func layerIn(d decide.Decision, layer string) (decide.LayerPick, bool) {
	for _, lp := range d.Layers {
		if lp.Layer == layer {
			return lp, true
		}
	}
	return decide.LayerPick{}, false
}

func layerDiff(kb *knowledge.KB, a, b decide.Decision, la, lb decide.LayerPick) LayerDiff {
	ld := LayerDiff{Layer: la.Layer, Name: kb.Layer(la.Layer).Name, A: StateText(kb, la), B: StateText(kb, lb)}
	if la.Pick != lb.Pick {
		ld.Moved = append(ld.Moved, MovedPick)
	}
	if !slices.Equal(la.Also, lb.Also) {
		ld.Moved = append(ld.Moved, MovedComplements)
	}
	if la.State != lb.State {
		ld.Moved = append(ld.Moved, MovedState)
	}
	if len(ld.Moved) == 0 {
		return ld
	}
	if la.Pick != lb.Pick {
		ld.AInB = statusIn(lb, la.Pick)
		ld.BInA = statusIn(la, lb.Pick)
	}
	// The products that moved, on either side, and a close call's
	// runner-up: what is said about them (and about the layer as a whole)
	// in one trace and not the other is why the layer moved.
	involved := map[string]bool{la.Pick: true, lb.Pick: true}
	for _, p := range slices.Concat(la.Also, lb.Also) {
		involved[p] = true
	}
	for _, lp := range []decide.LayerPick{la, lb} {
		if lp.CloseCall != nil {
			involved[lp.CloseCall.Other] = true
		}
	}
	fa, fb := layerFacts(kb, la, involved), layerFacts(kb, lb, involved)
	ld.OnlyA = onlyIn(kb, fa, fb, b)
	ld.OnlyB = onlyIn(kb, fb, fa, a)
	return ld
}

// statusIn is how product fared on layer lp of a decision where it was
// not picked: its alternative's status, or "" when it is not among them.
func statusIn(lp decide.LayerPick, product string) string {
	for _, alt := range lp.Alternatives {
		if alt.Product == product {
			return AltStatus(lp, alt)
		}
	}
	return ""
}

type whyFact struct {
	key  string
	item WhyItem
}

// layerFacts gathers what one decision's trace says on a layer about the
// involved products, and the layer's close call and conflicts.
func layerFacts(kb *knowledge.KB, lp decide.LayerPick, involved map[string]bool) []whyFact {
	var out []whyFact
	add := func(kind, product, rule, text, when string) {
		if text == "" {
			return
		}
		key := kind + "|" + product + "|" + rule + "|" + text
		// One argument is said once, under its first kind (an unfit
		// alternative's decisive argument is also among its against).
		if slices.ContainsFunc(out, func(f whyFact) bool { return f.item.Product == product && f.item.Text == text }) {
			return
		}
		name := ""
		if product != "" {
			name = kb.ChoiceName(lp.Layer, product)
		}
		out = append(out, whyFact{key: key, item: WhyItem{Kind: kind, Product: product, ProductName: name, Rule: rule, Text: text, When: when}})
	}
	arg := func(kind string, a decide.Argument) {
		if involved[a.Product] {
			add(kind, a.Product, a.Rule, ArgumentText(kb, lp.Layer, a), "")
		}
	}
	for _, r := range lp.Reasons {
		product := r.Product
		if product == "" {
			product = lp.Pick
		}
		if involved[product] {
			add(WhyFor, product, r.Rule, r.Text, r.When)
		}
	}
	for _, c := range lp.Costs {
		arg(WhyAgainst, c)
	}
	for _, alt := range lp.Alternatives {
		if !involved[alt.Product] {
			continue
		}
		for _, f := range alt.For {
			arg(WhyFor, f)
		}
		if alt.Unfit && !alt.Excluded {
			for _, ag := range alt.Decisive {
				if ag.Product == alt.Product || ag.Product == "" {
					add(WhyUnfit, alt.Product, ag.Rule, ArgumentText(kb, lp.Layer, ag), "")
				}
			}
		}
		kind := WhyAgainst
		if alt.Excluded {
			kind = WhyExcluded
		}
		for _, ag := range alt.Against {
			arg(kind, ag)
		}
		if alt.Trade {
			add(WhyTrade, alt.Product, "", strings.TrimSuffix(TradeText(kb, lp.Layer, alt), ":")+".", "")
		}
	}
	if cc := lp.CloseCall; cc != nil {
		add(WhyCloseCall, "", "", CloseCallTitle(kb, lp)+".", "")
		if tb := cc.TieBreak; tb != nil {
			add(WhyTieBreak, "", tb.ID, tb.Argument, "")
		}
	}
	for _, c := range lp.Conflicts {
		text := c.Text
		if len(c.Answers) > 0 {
			text += " Kept out by " + ConflictAnswers(c) + "."
		}
		add(WhyConflict, "", c.Need, text, "")
	}
	return out
}

// onlyIn is the facts of mine that other lacks, each told why it does not
// hold in other's decision when that decision's trace says so.
func onlyIn(kb *knowledge.KB, mine, other []whyFact, otherD decide.Decision) []WhyItem {
	var out []WhyItem
	for _, f := range mine {
		if slices.ContainsFunc(other, func(o whyFact) bool { return o.key == f.key }) {
			continue
		}
		it := f.item
		if it.Kind == WhyFor && it.Rule != "" {
			it.Other = failedIn(kb, otherD, it.Rule)
		}
		out = append(out, it)
	}
	return out
}

// failedIn says in words which condition of rule failed in d, with d's
// answer: `the answer to "Is Kubernetes part of the platform?" is none,
// not available`; "" when the rule fired there or is not a rule.
func failedIn(kb *knowledge.KB, d decide.Decision, rule string) string {
	for _, t := range d.Trace {
		if t.Rule != rule {
			continue
		}
		if t.Fired || t.Failed == "" {
			return ""
		}
		for _, r := range kb.Rules {
			if r.ID != rule {
				continue
			}
			for i := range r.Conds {
				if c := &r.Conds[i]; c.Text == t.Failed {
					return condInWords(kb, d, c)
				}
			}
		}
		return ""
	}
	return ""
}

// condInWords is a condition that does not hold, said with the question's
// prompt and the answer it had instead of the rule's syntax.
func condInWords(kb *knowledge.KB, d decide.Decision, c *knowledge.Cond) string {
	q := kb.Question(c.Key)
	if q == nil {
		return ""
	}
	got := d.Answers.Get(c.Key).Plain(q.Type)
	var values []string
	switch {
	case len(c.Ints) > 0:
		for _, n := range c.Ints {
			values = append(values, strconv.Itoa(n))
		}
	case len(c.Bools) > 0:
		for _, b := range c.Bools {
			values = append(values, yesNo(b))
		}
	case len(c.Strs) > 0:
		values = c.Strs
	case q.Type == knowledge.TypeInt:
		values = []string{strconv.Itoa(c.Int)}
	case q.Type == knowledge.TypeBool:
		values = []string{yesNo(c.Bool)}
	default:
		values = []string{c.Str}
	}
	if q.Type == knowledge.TypeBool {
		got = yesNo(d.Answers.Get(c.Key).Bool)
	}
	s := "the answer to \"" + q.Prompt + "\" is " + got
	switch {
	case c.Op == knowledge.OpAtLeast && q.Type == knowledge.TypeList:
		return s + ", fewer than " + strconv.Itoa(c.Int)
	case c.Op == knowledge.OpAtMost && q.Type == knowledge.TypeList:
		return s + ", more than " + strconv.Itoa(c.Int)
	case c.Op == knowledge.OpAtLeast:
		return s + ", below " + strconv.Itoa(c.Int)
	case c.Op == knowledge.OpAtMost:
		return s + ", above " + strconv.Itoa(c.Int)
	case q.Type == knowledge.TypeList && c.Op == knowledge.OpOneOf:
		return s + ", with none of " + orList(values)
	}
	return s + ", not " + orList(values)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// orList joins values as "a, b or c".
func orList(vs []string) string {
	if len(vs) <= 1 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// engineDiff lists the engine settings that differ: the engine and what it
// serves, the sizing's headline numbers, then every launch flag whose value
// differs or that only one command has.
func engineDiff(kb *knowledge.KB, a, b *decide.EngineConfig) []SettingDiff {
	var out []SettingDiff
	row := func(name string, get func(ec *decide.EngineConfig) string) {
		va, vb := engineValue(a, get), engineValue(b, get)
		if va != vb {
			out = append(out, SettingDiff{Setting: name, A: va, B: vb})
		}
	}
	row("engine", func(ec *decide.EngineConfig) string {
		if ec.EngineVersion != "" {
			return ec.EngineVersion // "vLLM v0.29"
		}
		return kb.ProductName(ec.Engine)
	})
	row("launch command", func(ec *decide.EngineConfig) string {
		if !ec.Covered {
			return "not written: " + ec.Note
		}
		if len(ec.Roles) > 0 {
			return fmt.Sprintf("%d roles (prefill and decode apart)", len(ec.Roles))
		}
		return "one command"
	})
	if a == nil || b == nil || !a.Covered || !b.Covered {
		// One side has no engine command: its settings are not there to
		// compare, and the rows above say so.
		return out
	}
	row("model", func(ec *decide.EngineConfig) string { return ec.Model })
	row("GPU", func(ec *decide.EngineConfig) string { return ec.GPU })
	sized := func(f func(r *sizing.Result) string) func(ec *decide.EngineConfig) string {
		return func(ec *decide.EngineConfig) string {
			if ec.Sizing == nil {
				return "not sized"
			}
			return f(ec.Sizing)
		}
	}
	itoa := strconv.Itoa
	row("replicas per node", sized(func(r *sizing.Result) string { return itoa(r.ReplicasPerNode) }))
	row("weights dtype", sized(func(r *sizing.Result) string { return r.WeightsDType }))
	row("KV cache dtype (sized)", sized(func(r *sizing.Result) string { return r.KVCacheDType }))
	row("KV cache tokens per replica", sized(func(r *sizing.Result) string { return strconv.FormatInt(r.KVCacheTokens, 10) }))
	row("full-context requests at once", sized(func(r *sizing.Result) string { return strconv.FormatFloat(r.MaxConcurrency, 'f', 1, 64) }))
	row("fits", sized(func(r *sizing.Result) string {
		if r.Fits {
			return "yes"
		}
		if r.Reason != "" {
			return "no: " + r.Reason
		}
		return "no"
	}))
	out = append(out, flagDiffs(a, b)...)
	return out
}

// engineSettings names what a launch flag sets, so two engines' commands
// compare by meaning: vLLM's --max-num-seqs and SGLang's
// --max-running-requests are one setting. A flag not listed is its own
// setting, named by its flag.
var engineSettings = []struct {
	name string
	ids  []string
}{
	{"model to serve", []string{knowledge.FlagSGLangModelPath}}, // vLLM takes it as vllm serve's argument
	{"tensor parallel size", []string{knowledge.FlagVLLMTensorParallelSize, knowledge.FlagSGLangTPSize}},
	{"pipeline parallel size", []string{knowledge.FlagVLLMPipelineParallelSize, knowledge.FlagSGLangPPSize}},
	{"data parallel size", []string{knowledge.FlagVLLMDataParallelSize, knowledge.FlagSGLangDPSize}},
	{"nodes", []string{knowledge.FlagVLLMNNodes, knowledge.FlagSGLangNNodes}},
	{"node rank", []string{knowledge.FlagVLLMNodeRank, knowledge.FlagSGLangNodeRank}},
	{"head node address", []string{knowledge.FlagVLLMMasterAddr, knowledge.FlagSGLangDistInitAddr}},
	{"max model length", []string{knowledge.FlagVLLMMaxModelLen, knowledge.FlagSGLangContextLength}},
	{"max running requests", []string{knowledge.FlagVLLMMaxNumSeqs, knowledge.FlagSGLangMaxRunningRequests}},
	{"batched-token budget per step", []string{knowledge.FlagVLLMMaxNumBatchedTokens, knowledge.FlagSGLangChunkedPrefillSize}},
	{"max prefill tokens per step", []string{knowledge.FlagSGLangMaxPrefillTokens}},
	{"GPU memory fraction", []string{knowledge.FlagVLLMGPUMemoryUtilization, knowledge.FlagSGLangMemFractionStatic}},
	{"KV cache dtype", []string{knowledge.FlagVLLMKVCacheDType, knowledge.FlagSGLangKVCacheDType}},
	{"quantization", []string{knowledge.FlagVLLMQuantization}},
	{"served model name", []string{knowledge.FlagVLLMServedModelName}},
	{"Prometheus metrics", []string{knowledge.FlagSGLangEnableMetrics}},
	{"listen address", []string{knowledge.FlagSGLangHost, knowledge.FlagTRTLLMHost, knowledge.FlagLlamaCppHost}}, // vLLM listens on every interface unless told
	{"prefill/decode role", []string{knowledge.FlagSGLangDisaggregationMode}},
	{"KV cache transfer", []string{knowledge.FlagVLLMKVTransferConfig, knowledge.FlagSGLangDisaggregationTransferBackend}},
}

// settingOf is the setting a flag id sets: its name and its place in
// engineSettings (len(engineSettings) for a flag named by itself).
func settingOf(id, flag string) (string, int) {
	for i, s := range engineSettings {
		if slices.Contains(s.ids, id) {
			return s.name, i
		}
	}
	return flag, len(engineSettings)
}

// sideSetting is what one command says about one setting: the flag that
// carries it (or its default kept) and the value.
type sideSetting struct {
	flag, value string
	set         bool
}

// flagDiffs compares the two commands setting by setting: a setting is
// listed when its value differs, or when the two engines spell it with
// different flags, and then each side shows its own flag.
func flagDiffs(a, b *decide.EngineConfig) []SettingDiff {
	type key struct {
		name string
		rank int
	}
	var order []key
	seen := map[string]bool{}
	sides := [2]map[string]sideSetting{{}, {}}
	for i, ec := range []*decide.EngineConfig{a, b} {
		for _, f := range ec.Command {
			if f.Flag == "" {
				continue
			}
			name, rank := settingOf(f.FlagID, f.Flag)
			if !seen[name] {
				seen[name] = true
				order = append(order, key{name, rank})
			}
			if _, done := sides[i][name]; !done {
				sides[i][name] = sideSetting{flag: f.Flag, value: flagValue(ec, f.Flag), set: true}
			}
		}
		for _, n := range ec.Defaults {
			name, _ := settingOf(n.FlagID, n.Flag)
			if _, done := sides[i][name]; !done {
				sides[i][name] = sideSetting{flag: n.Flag, value: "engine default"}
			}
		}
		if ec.Engine == knowledge.EngineVLLM && ec.HFID != "" {
			sides[i]["model to serve"] = sideSetting{flag: "vllm serve", value: ec.HFID, set: true}
		}
	}
	slices.SortStableFunc(order, func(x, y key) int { return x.rank - y.rank })
	var out []SettingDiff
	for _, k := range order {
		sa, sb := sides[0][k.name], sides[1][k.name]
		if !sa.set && !sb.set {
			continue
		}
		if sa.value == sb.value && sa.flag == sb.flag {
			continue
		}
		sd := SettingDiff{Setting: k.name, AFlag: sa.flag, BFlag: sb.flag, A: sa.value, B: sb.value}
		if sd.A == "" {
			sd.A = "not set"
		}
		if sd.B == "" {
			sd.B = "not set"
		}
		if sa.flag != "" && sb.flag != "" && sa.flag != sb.flag {
			// Each side in its own engine's words.
			sd.A, sd.B = spell(sa), spell(sb)
		} else if sa.flag != sb.flag && k.name != sa.flag+sb.flag {
			// One side does not carry it: name the other's flag.
			if sa.flag != "" {
				sd.A = spell(sa)
			}
			if sb.flag != "" {
				sd.B = spell(sb)
			}
		}
		out = append(out, sd)
	}
	return out
}

// spell is a setting as the command carries it: "--max-num-seqs 64",
// "vllm serve meta-llama/…", "--mem-fraction-static: engine default".
func spell(s sideSetting) string {
	switch {
	case !s.set:
		return s.flag + " left at its default"
	case s.value == "on":
		return s.flag
	}
	return s.flag + " " + s.value
}

func engineValue(ec *decide.EngineConfig, get func(*decide.EngineConfig) string) string {
	if ec == nil {
		return "no engine"
	}
	return get(ec)
}

// flagValue is a flag's value in ec's command: its value, "on" for a bare
// switch, "not set" when the command does not carry it.
func flagValue(ec *decide.EngineConfig, flag string) string {
	var vals []string
	for _, f := range ec.Command {
		if f.Flag != flag {
			continue
		}
		v := f.Value
		if v == "" {
			v = "on"
		}
		if f.Role != "" {
			v += " (" + f.Role + ")"
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return "not set"
	}
	return strings.Join(vals, ", ")
}
