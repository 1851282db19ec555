package report

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// Topology is the stack as it runs: which component serves which model and
// how, read from a decision (never decided again). Requests come from the
// clients to the orchestrator and its complements (Front), which route them
// to the engine's replicas; a model server, when one is placed, serves the
// framework models beside the engine. TopologyLines draws it for a
// terminal, TopologyMermaid for the memo.
type Topology struct {
	// Front is the orchestrator's pick then its complements; empty when
	// clients reach the engine directly.
	Front []TopoPart
	// FrontState is the orchestrator layer's state when nothing is placed
	// there (not-needed or nothing-fits).
	FrontState string
	Engine     TopoPart
	// PerModel says Replicas counts one model's replicas (the fleet serves
	// several base models), not the fleet's.
	PerModel bool
	// Replicas is how many engine instances the fleet runs (0: not known,
	// the engine's settings are not covered).
	Replicas int
	// Layout is how one replica is laid out and placed: "TP 2 · 4 per node
	// · 4 nodes of 8 × H200".
	Layout string
	// Roles are prefill and decode when they run as separate instances.
	Roles []TopoRole
	// Beside is the model server and the models it serves, or nil.
	Beside *TopoPart
	// BesideState is "nothing-fits" when framework models need a model
	// server and none is placed.
	BesideState string
}

// TopoPart is one component of the topology.
type TopoPart struct {
	Layer, Product, Name string
	// Models are the models it serves (the engine and the model server).
	Models []string
}

// TopoRole is one role of a disaggregated engine and its instances.
type TopoRole struct {
	Role      string
	Instances int
}

// TopologyOf reads the topology from d.
func TopologyOf(kb *knowledge.KB, d decide.Decision) Topology {
	var t Topology
	for _, lp := range d.Layers {
		switch lp.Layer {
		case knowledge.LayerOrchestrator:
			if lp.Pick != knowledge.None {
				t.Front = append(t.Front, TopoPart{Layer: lp.Layer, Product: lp.Pick, Name: kb.ChoiceName(lp.Layer, lp.Pick)})
			} else {
				t.FrontState = lp.State
			}
			for _, a := range lp.Also {
				t.Front = append(t.Front, TopoPart{Layer: layerOf(kb, a, lp.Layer), Product: a, Name: kb.ProductName(a)})
			}
		case knowledge.LayerEngine:
			t.Engine = TopoPart{Layer: lp.Layer, Product: lp.Pick, Name: kb.ChoiceName(lp.Layer, lp.Pick)}
		case knowledge.LayerModelServer:
			if lp.Pick != knowledge.None {
				t.Beside = &TopoPart{Layer: lp.Layer, Product: lp.Pick, Name: kb.ChoiceName(lp.Layer, lp.Pick)}
			} else if lp.State == decide.StateNothingFits {
				t.BesideState = lp.State
			}
		}
	}
	for _, sv := range d.Serves {
		switch {
		case sv.Layer == knowledge.LayerEngine:
			t.Engine.Models = append(t.Engine.Models, sv.Models...)
		case t.Beside != nil && sv.Layer == t.Beside.Layer:
			t.Beside.Models = append(t.Beside.Models, sv.Models...)
		case sv.Product == knowledge.None:
			// Models no placed component serves: the empty layer says so.
			t.Beside = &TopoPart{Layer: sv.Layer, Product: knowledge.None, Name: EmptyLayer(kb, sv.Layer), Models: sv.Models}
			t.BesideState = decide.StateNothingFits
		}
	}
	nodes := answerInt(kb, d, knowledge.KeyNodes)
	perNode := answerInt(kb, d, knowledge.KeyGPUsPerNode)
	gpu := answerValue(kb, d, knowledge.KeyGPU)
	if g := kb.GPU(gpu); g != nil {
		// The vendor is said by the model name's context; the rest
		// ("H200 SXM 141GB") keeps the layout on one line.
		gpu = strings.TrimPrefix(strings.TrimPrefix(g.Name, "NVIDIA "), "AMD ")
	}
	if bm := answerInt(kb, d, knowledge.KeyBaseModels); bm > 1 && len(t.Engine.Models) > 0 {
		t.Engine.Models[0] += fmt.Sprintf(" (1 of %d base models)", bm)
	}
	fleet := fmt.Sprintf("%s of %d × %s", count(nodes, "node", "nodes"), perNode, gpu)
	if perNode == 0 {
		fleet = count(nodes, "node", "nodes") + ", no GPUs"
	}
	ec := d.EngineConfig
	if ec == nil || !ec.Covered || ec.Sizing == nil {
		t.Layout = fleet
		return t
	}
	sz := ec.Sizing
	parts := []string{fmt.Sprintf("TP %d", sz.TensorParallelSize)}
	if sz.PipelineParallelSize > 1 {
		parts[0] += fmt.Sprintf(" × PP %d", sz.PipelineParallelSize)
	}
	span := int(sz.Figure("nodes_per_replica").Value)
	// The engine is sized for one model; with several base models the
	// fleet's nodes are split between them, so the count is per model.
	bm := max(answerInt(kb, d, knowledge.KeyBaseModels), 1)
	t.PerModel = bm > 1
	share := nodes / bm // nodes each model has to itself
	if bm > 1 {
		if share >= 1 {
			fleet = fmt.Sprintf("%d of the %s per model", share, fleet)
		} else {
			fleet += fmt.Sprintf(", shared by %d models", bm)
		}
	}
	switch {
	case span > 1:
		parts = append(parts, fmt.Sprintf("1 replica spans %d nodes", span))
		t.Replicas = max(max(share, 1)/span, 1)
	case sz.ReplicasPerNode > 0:
		parts = append(parts, fmt.Sprintf("%d per node", sz.ReplicasPerNode))
		if share >= 1 {
			t.Replicas = sz.ReplicasPerNode * share
		} else {
			t.Replicas = max(sz.ReplicasPerNode*nodes/bm, 1)
		}
	}
	t.Layout = strings.Join(append(parts, fleet), " · ")
	for _, rc := range ec.Roles {
		t.Roles = append(t.Roles, TopoRole{Role: rc.Role, Instances: rc.Instances})
	}
	if n := rolesTotal(t.Roles); n > 0 {
		t.Replicas = n
	}
	return t
}

func rolesTotal(rs []TopoRole) int {
	n := 0
	for _, r := range rs {
		n += r.Instances
	}
	return n
}

func answerInt(kb *knowledge.KB, d decide.Decision, key string) int {
	i := kb.QuestionIndex(key)
	if i < 0 || i >= len(d.Answers.Values()) {
		return 0
	}
	return d.Answers.Values()[i].Int
}

// frontName is "llm-d + KServe", or the empty orchestrator's state.
func (t Topology) frontName() string {
	names := make([]string, len(t.Front))
	for i, p := range t.Front {
		names[i] = p.Name
	}
	return strings.Join(names, " + ")
}

// engineLabel is "vLLM × 16 replicas" or "vLLM".
func (t Topology) engineLabel() string {
	switch {
	case len(t.Roles) > 0 && t.PerModel:
		return t.Engine.Name + " × " + count(t.Replicas, "instance", "instances") + " of each model"
	case len(t.Roles) > 0:
		return t.Engine.Name + " × " + count(t.Replicas, "instance", "instances")
	case t.Replicas > 0 && t.PerModel:
		return t.Engine.Name + " × " + count(t.Replicas, "replica", "replicas") + " of each model"
	case t.Replicas > 0:
		return t.Engine.Name + " × " + count(t.Replicas, "replica", "replicas")
	}
	return t.Engine.Name
}

// rolesText is "prefill 5 ─KV cache─▶ decode 5".
func (t Topology) rolesText() string {
	parts := make([]string, len(t.Roles))
	for i, r := range t.Roles {
		parts[i] = fmt.Sprintf("%s %d", r.Role, r.Instances)
	}
	return strings.Join(parts, " ─KV cache─▶ ")
}

// TopologyLines draws the topology as a small arrow diagram at most w
// cells wide: on one flow line when it fits ("clients ─▶ llm-d + KServe ─▶
// vLLM × 16 replicas: llama-3.3-70b", the layout under the engine), else
// as a tree, one component a line, that still reads at 40 columns.
func TopologyLines(kb *knowledge.KB, d decide.Decision, st Styles, w int) []string {
	t := TopologyOf(kb, d)
	arrow := Styled(" ─▶ ", &st.Border)
	models := strings.Join(t.Engine.Models, ", ")
	engine := []Span{Styled(t.engineLabel(), &st.Pick)}
	if models != "" {
		engine = append(engine, Plain(": "+models))
	}
	head := []Span{Styled("clients", &st.Muted)}
	var front []Span
	switch {
	case len(t.Front) > 0:
		front = []Span{Styled(t.frontName(), &st.Pick)}
	case t.FrontState == decide.StateNothingFits:
		front = []Span{Styled(EmptyLayer(kb, knowledge.LayerOrchestrator)+" (nothing fits)", &st.Warn)}
	}
	if front != nil {
		head = append(head, arrow, front[0])
	}
	head = append(head, arrow)
	indent := spansWidth(head)
	var details []string
	if models != "" && indent+spansWidth(engine) > w && indent+ansi.StringWidth(t.engineLabel()) <= w {
		// The models go under the engine rather than forcing the tree.
		engine, details = engine[:1], []string{models}
	}
	head = append(head, engine...)
	if len(t.Roles) > 0 {
		details = append(details, t.rolesText())
	}
	if t.Layout != "" {
		details = append(details, t.Layout)
	}
	beside := t.besideSpans(kb, st)
	besideIndent := 8 // under the arrow from the clients
	if len(t.Front) > 0 {
		besideIndent = spansWidth(head[:3]) - 1
	}
	if fits := spansWidth(head) <= w && indent+maxWidth(details) <= w && (beside == nil || besideIndent+3+spansWidth(beside) <= w); fits {
		out := []string{joinSpans(head)}
		for _, s := range details {
			out = append(out, strings.Repeat(" ", indent)+st.Muted.Render(s))
		}
		if beside != nil {
			out = append(out, strings.Repeat(" ", besideIndent)+st.Border.Render("└─▶ ")+joinSpans(beside))
		}
		return out
	}
	// The tree: each hop one step in, wrapped at w.
	out := []string{st.Muted.Render(Truncate("clients", w))}
	step := 0
	hop := func(spans []Span) {
		pad := min(step*2, max(w-12, 0))
		out = append(out, WrapSpans(append([]Span{Styled("└▶ ", &st.Border)}, spans...), w, pad, 3)...)
		step++
	}
	if front != nil {
		hop(front)
	}
	if len(engine) == 1 && models != "" {
		engine = append(engine, Plain(": "+models))
		details = details[1:]
	}
	hop(engine)
	pad := min(step*2+1, max(w-12, 0))
	for _, s := range details {
		out = append(out, WrapStyled(s, w, pad, 2, st.Muted)...)
	}
	if beside != nil {
		pad := min(2, max(w-12, 0))
		if len(t.Front) == 0 {
			pad = 0
		}
		out = append(out, WrapSpans(append([]Span{Styled("└▶ ", &st.Border)}, beside...), w, pad, 3)...)
	}
	return out
}

// besideSpans is the model server and its models, or nil.
func (t Topology) besideSpans(kb *knowledge.KB, st Styles) []Span {
	if t.Beside == nil {
		return nil
	}
	name := Styled(t.Beside.Name, &st.Pick)
	if t.BesideState == decide.StateNothingFits {
		name = Styled(t.Beside.Name+" (nothing fits)", &st.Warn)
	}
	out := []Span{name}
	if len(t.Beside.Models) > 0 {
		out = append(out, Plain(": "+strings.Join(t.Beside.Models, ", ")))
	}
	return out
}

func joinSpans(ss []Span) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.render())
	}
	return b.String()
}

func maxWidth(ss []string) int {
	n := 0
	for _, s := range ss {
		n = max(n, ansi.StringWidth(s))
	}
	return n
}

// TopologyMermaid is the topology as a ```mermaid flowchart block for the
// memo: clients, the orchestrator and its complements, the engine's
// replicas (or its prefill and decode instances) with the models they
// serve and their layout, and the model server beside them. Every label
// is quoted, so names with dots, plus signs or brackets stay valid.
func TopologyMermaid(kb *knowledge.KB, d decide.Decision) string {
	t := TopologyOf(kb, d)
	var b strings.Builder
	node := func(id string, lines ...string) {
		var keep []string
		for _, l := range lines {
			if l != "" {
				keep = append(keep, mermaidText(l))
			}
		}
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, strings.Join(keep, "<br/>"))
	}
	edge := func(from, to, label string) {
		if label != "" {
			fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", from, mermaidText(label), to)
			return
		}
		fmt.Fprintf(&b, "  %s --> %s\n", from, to)
	}
	b.WriteString("```mermaid\nflowchart LR\n")
	node("clients", "Clients")
	from := "clients"
	if len(t.Front) > 0 {
		node("orchestrator", t.frontName(), kb.Layer(knowledge.LayerOrchestrator).Name)
		edge("clients", "orchestrator", "")
		from = "orchestrator"
	} else if t.FrontState == decide.StateNothingFits {
		node("orchestrator", EmptyLayer(kb, knowledge.LayerOrchestrator), "nothing fits")
		edge("clients", "orchestrator", "")
		from = "orchestrator"
	}
	models := strings.Join(t.Engine.Models, ", ")
	if len(t.Roles) > 0 {
		prev := ""
		for i, r := range t.Roles {
			id := "engine_" + mermaidID(r.Role)
			label := fmt.Sprintf("%s %s × %d", t.Engine.Name, r.Role, r.Instances)
			if i == 0 {
				node(id, label, models, t.Layout)
				edge(from, id, "")
			} else {
				node(id, label)
				edge(prev, id, "KV cache")
			}
			prev = id
		}
	} else {
		node("engine", t.engineLabel(), models, t.Layout)
		edge(from, "engine", "")
	}
	if t.Beside != nil {
		state := kb.Layer(t.Beside.Layer).Name
		if t.BesideState == decide.StateNothingFits {
			state = "nothing fits"
		}
		node("modelserver", t.Beside.Name, state, strings.Join(t.Beside.Models, ", "))
		edge(from, "modelserver", "")
	}
	b.WriteString("```\n")
	return b.String()
}

// mermaidText escapes a label for a quoted Mermaid label: a double quote
// would end it, and < > & are read as HTML.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "&", "#amp;").Replace(s)
}

func mermaidID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}

// WhyLine is one sentence of why for a layer: for a pick, the reason that
// weighed most (the first of equal weight, in decide's order); for an
// empty layer, its state and the reason it is not needed, or the need
// nothing meets and the answers that conflict.
func WhyLine(kb *knowledge.KB, d decide.Decision, lp decide.LayerPick) string {
	if lp.State == decide.StateNothingFits {
		if len(lp.Conflicts) > 0 {
			c := lp.Conflicts[0]
			s := "Nothing fits: " + c.Text
			if len(c.Answers) > 0 {
				s = strings.TrimSuffix(s, ".") + " (conflicting answers: " + ConflictAnswers(c) + ")."
			}
			return s
		}
		return "Nothing fits: no " + strings.ToLower(kb.Layer(lp.Layer).Name) + " can meet the answers."
	}
	r := decisiveReason(lp)
	if r == nil {
		if lp.State == decide.StateNotNeeded {
			return "Not needed: nothing in the answers asks for a " + strings.ToLower(kb.Layer(lp.Layer).Name) + "."
		}
		return "No rule or need spoke for it; it is the knowledge base's default."
	}
	s := r.Text
	if lp.State == decide.StateNotNeeded {
		s = "Not needed. " + s // the reason is a sentence of its own
	}
	return s + AssumesSuffix(kb, d, r.Assumes)
}

// decisiveReason is the reason that weighed most for a pick: a require
// first, then the heaviest preference, then a need, then anything.
func decisiveReason(lp decide.LayerPick) *decide.Reason {
	var best *decide.Reason
	rank := func(r *decide.Reason) int {
		switch {
		case r.Effect == knowledge.EffectRequire:
			return 1000
		case r.Kind == decide.KindRule && r.Effect == knowledge.EffectPrefer && r.When != knowledge.DescribeConds(nil):
			// A rule that holds because of these answers says more than
			// a default that always holds, at equal weight.
			return 100 + 2*r.Weight + 1
		case r.Kind == decide.KindRule && r.Effect == knowledge.EffectPrefer:
			return 100 + 2*r.Weight
		case r.Kind == decide.KindNeed:
			return 50
		case r.Effect == knowledge.EffectComplement:
			return 10
		}
		return 1
	}
	for i := range lp.Reasons {
		r := &lp.Reasons[i]
		if best == nil || rank(r) > rank(best) {
			best = r
		}
	}
	return best
}
