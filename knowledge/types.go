// Package knowledge owns stackpick's knowledge base: the products of the three
// serving layers, the questions a user answers, the rules that turn answers
// into preferences, and the hardware catalog. It reads TOML (embedded, plus an
// optional overlay folder), validates it, and parses answer files against the
// questions; the embedded files also come decoded and validated at build time
// (builtin_gen.go, from go generate), so a run without an overlay decodes no
// TOML. It knows nothing of decisions or terminals: it imports no other
// stackpick package (decide/, scenarios/, ui/) and no Charm package.
package knowledge

import "strings"

// Layer ids. The set is closed: every product lives on exactly one of them.
const (
	LayerEngine       = "engine"
	LayerModelServer  = "model-server"
	LayerOrchestrator = "orchestrator"
)

// None is the built-in product id meaning "this layer is not needed".
const None = "none"

// Pos is where a knowledge item was defined.
type Pos struct {
	File string `toml:"-" json:"-"`
	Line int    `toml:"-" json:"-"`
}

// Layer describes one of the three serving layers.
type Layer struct {
	ID       string `toml:"id"`
	Name     string `toml:"name"`
	What     string `toml:"what"`
	Examples string `toml:"examples"`
	// Optional layers may be left empty (their pick can be "none").
	Optional bool `toml:"optional"`
	Pos
}

// Landmine is a known way a product goes wrong in production.
type Landmine struct {
	ID      string               `toml:"id"`
	Text    string               `toml:"text"`
	Watch   string               `toml:"watch"`
	Sources Sources              `toml:"source"`
	When    map[string]Condition `toml:"when"`
	Conds   []Cond               `toml:"-"`
}

// SeedNote records where the course notes are out of date, what replaced
// them and since when (the release or date the change landed).
type SeedNote struct {
	Claim   string  `toml:"claim" json:"claim"`
	Current string  `toml:"current" json:"current"`
	Since   string  `toml:"since" json:"since,omitempty"`
	Sources Sources `toml:"source" json:"sources"`
}

// Product is one engine, model server or orchestrator.
type Product struct {
	ID        string     `toml:"id"`
	Name      string     `toml:"name"`
	Layer     string     `toml:"layer"`
	Role      string     `toml:"role"`
	Strengths []string   `toml:"strengths"`
	PickWhen  []string   `toml:"pick_when"`
	AvoidWhen []string   `toml:"avoid_when"`
	KeyPoints []string   `toml:"key_points"`
	Landmines []Landmine `toml:"landmine"`
	SeedNotes []SeedNote `toml:"course_notes_outdated"`
	Sources   Sources    `toml:"source"`
	// Licence, Governance and Release: see provenance.go.
	Licence    Licence    `toml:"licence"`
	Governance Governance `toml:"governance"`
	Release    Release    `toml:"release"`
	// Images are the container images it publishes: see deploy.go.
	Images []Image `toml:"image"`
	// RolePorts are the ports it needs one role's engine servers on when
	// prefill and decode run apart: see deploy.go.
	RolePorts []RolePort `toml:"role_port"`
	Pos
}

// Question types.
const (
	TypeInt  = "int"
	TypeBool = "bool"
	TypeEnum = "enum"
	TypeList = "list"
)

// Catalogs a question can take its values from.
const (
	CatalogGPU   = "gpu"
	CatalogModel = "model"
)

// Question is one answer key: its type, allowed values, default and why it
// matters. Derived questions are computed from other answers and never typed.
type Question struct {
	Key     string   `toml:"key"`
	Page    string   `toml:"page"`
	Type    string   `toml:"type"`
	Prompt  string   `toml:"prompt"`
	Why     string   `toml:"why"`
	Values  []string `toml:"values"`
	Catalog string   `toml:"catalog"`
	Min     *int     `toml:"min"`
	Max     *int     `toml:"max"`
	Default any      `toml:"default"`
	Derived bool     `toml:"derived"`
	// Labels gives a short label per allowed value (optional), for menus.
	Labels map[string]string `toml:"labels"`
	Pos
	def Value
}

// DefaultValue is the question's default as a typed Value.
func (q *Question) DefaultValue() Value { return q.def.clone() }

// Rule effects.
const (
	EffectPrefer     = "prefer"
	EffectRequire    = "require"
	EffectExclude    = "exclude"
	EffectComplement = "complement"
)

// Rule is one piece of judgment as data: when all conditions hold, it has one
// effect on one product of one layer.
type Rule struct {
	ID      string               `toml:"id"`
	Layer   string               `toml:"layer"`
	Effect  string               `toml:"effect"`
	Product string               `toml:"product"`
	Weight  int                  `toml:"weight"`
	With    string               `toml:"with"`
	Reason  string               `toml:"reason"`
	Sources Sources              `toml:"source"`
	When    map[string]Condition `toml:"when"`
	// Stack limits the rule to stacks that place one of the listed
	// products on a layer (layer id → product ids): a reason that pairs
	// products ("TensorRT-LLM under Dynamo") counts only where they pair.
	Stack map[string][]string `toml:"stack"`
	// Tag marks a kind of reason the tie-break reads ("familiarity").
	Tag   string `toml:"tag"`
	Conds []Cond `toml:"-"`
	// WhenText is DescribeConds(Conds), computed once at load.
	WhenText string `toml:"-"`
	Pos
}

// Condition is the TOML form of a test on one answer. Every operator given
// must hold.
type Condition struct {
	Equals  any   `toml:"equals"`
	OneOf   []any `toml:"one_of"`
	AtLeast *int  `toml:"at_least"`
	AtMost  *int  `toml:"at_most"`
}

// GPU is one entry of the hardware catalog.
type GPU struct {
	ID           string  `toml:"id"`
	Name         string  `toml:"name"`
	Vendor       string  `toml:"vendor"`
	MemoryGiB    float64 `toml:"memory_gib"`
	BandwidthTBs float64 `toml:"bandwidth_tbs"`
	FP8          bool    `toml:"fp8"`
	// NonTorchGiB is memory the engine holds outside PyTorch's allocator
	// (CUDA/ROCm context, GEMM workspaces) on a single-GPU engine;
	// NonTorchMultiGiB is the same per GPU when the engine spans several
	// GPUs (NCCL/RCCL buffers added). Catalog figures, never per run.
	NonTorchGiB      float64 `toml:"non_torch_gib"`
	NonTorchMultiGiB float64 `toml:"non_torch_multi_gib"`
	NonTorchSources  Sources `toml:"non_torch_source"`
	Sources          Sources `toml:"source"`
	Pos
}

// KB is a loaded, validated knowledge base. Slices keep definition order,
// which is also the tie-break order of products within a layer.
type KB struct {
	Layers    []*Layer
	Products  []*Product
	Questions []*Question
	Rules     []*Rule
	GPUs      []*GPU
	Models    []*Model
	Flags     []*Flag
	// Capabilities, Needs, TieBreaks and Claims: see stack.go.
	Capabilities []*Capability
	Needs        []*Need
	TieBreaks    []*TieBreak
	Claims       []*Claim
	// Targets are the deployment APIs manifests are written against:
	// see deploy.go.
	Targets []*Target

	capByKey     map[string]*Capability
	closeMargin  int
	productByID  map[string]*Product
	questionByID map[string]*Question
	questionIdx  map[string]int
	gpuByID      map[string]*GPU
	modelByID    map[string]*Model
	flagByID     map[string]*Flag
	layerByID    map[string]*Layer
	derived      derivedIndexes
}

// Product returns the product with id, or nil.
func (kb *KB) Product(id string) *Product { return kb.productByID[id] }

// Question returns the question with key, or nil.
func (kb *KB) Question(key string) *Question { return kb.questionByID[key] }

// QuestionIndex returns the position of key in Questions, or -1.
func (kb *KB) QuestionIndex(key string) int {
	if i, ok := kb.questionIdx[key]; ok {
		return i
	}
	return -1
}

// GPU returns the catalog entry with id, or nil.
func (kb *KB) GPU(id string) *GPU { return kb.gpuByID[id] }

// Layer returns the layer with id, or nil.
func (kb *KB) Layer(id string) *Layer { return kb.layerByID[id] }

// ProductsOn lists the products of one layer in knowledge-base order.
func (kb *KB) ProductsOn(layer string) []*Product {
	var out []*Product
	for _, p := range kb.Products {
		if p.Layer == layer {
			out = append(out, p)
		}
	}
	return out
}

// ChoiceName is the display name of a choice on layer, the empty one named
// for its layer ("no model server"): the one wording of an empty layer,
// which decide's why-not texts and ui/report's EmptyLayer both use.
func (kb *KB) ChoiceName(layer, id string) string {
	if id == None {
		name := layer
		if l := kb.Layer(layer); l != nil {
			name = l.Name
		}
		return "no " + strings.ToLower(name)
	}
	return kb.ProductName(id)
}

// ProductName is the display name of id, with "none" spelled out.
func (kb *KB) ProductName(id string) string {
	if id == None {
		return "none"
	}
	if p := kb.productByID[id]; p != nil {
		return p.Name
	}
	return id
}
