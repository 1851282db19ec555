package knowledge

// What a stack is made of beyond rules: capability facts (what each product
// runs with and where), needs (features the answers make a stack carry),
// the declared tie-break and close-call margin, and claims (phrases a
// reason's text may use only when its conditions hold them).

// Capability kinds: the closed vocabulary of [[capability]] what.
const (
	CanEngines    = "engines"    // the engines a model server or orchestrator runs
	CanVendors    = "vendors"    // the accelerator vendors a product supports
	CanSubstrates = "substrates" // where a model server or orchestrator runs
	CanFeatures   = "features"   // what a model server or orchestrator provides
)

// Substrates a product runs on (the values of the derived answer platform).
const (
	SubstrateKubernetes   = "kubernetes"
	SubstrateOpenShift    = "openshift"
	SubstrateManagedCloud = "managed-cloud"
	SubstrateSlurm        = "slurm"
	SubstrateBareMetal    = "bare-metal"
)

// Features is the closed vocabulary of what a model server or orchestrator
// provides; needs name them.
var Features = []string{
	"replica-routing", "kv-routing", "pd-disaggregation", "autoscaling", "lora-routing",
	"traffic-splitting", "declarative", "framework-backends", "model-composition",
}

var (
	capabilityKinds = []string{CanEngines, CanVendors, CanSubstrates, CanFeatures}
	substrateSet    = []string{SubstrateKubernetes, SubstrateOpenShift, SubstrateManagedCloud, SubstrateSlurm, SubstrateBareMetal}
)

// Capability is one fact about a product: the values it supports for one
// kind (the engines it runs, the vendors, where it runs, what it provides).
// Capabilities decide what is feasible; they never add points.
type Capability struct {
	Product string   `toml:"product"`
	What    string   `toml:"what"`
	Values  []string `toml:"values"`
	Sources Sources  `toml:"source"`
	Pos
}

// Need is a feature the answers make a layer of the stack carry: when its
// conditions hold, a stack is feasible only if a product it places on the
// layer provides the feature (an empty layer provides nothing).
type Need struct {
	ID      string               `toml:"id"`
	Layer   string               `toml:"layer"`
	Feature string               `toml:"feature"`
	Text    string               `toml:"text"`
	Sources Sources              `toml:"source"`
	When    map[string]Condition `toml:"when"`
	Conds   []Cond               `toml:"-"`
	Pos
}

// Tie-break criteria: the closed vocabulary of [[tiebreak]] criterion.
const (
	TieFamiliarity     = "familiarity"      // the stack more of whose products the team already runs
	TieFewerParts      = "fewer-components" // the stack with fewer products to operate
	TieOrder           = "order"            // a declared order of one layer's choices
	TagFamiliarity     = "familiarity"      // a rule tag: the rule says the team runs the product
	DefaultCloseMargin = 1
)

// TieBreak is one declared criterion for ordering stacks whose scores are
// equal, with its argument and source. They apply in the order declared.
type TieBreak struct {
	ID        string   `toml:"id"`
	Criterion string   `toml:"criterion"`
	Layer     string   `toml:"layer"`
	Order     []string `toml:"order"`
	Argument  string   `toml:"argument"`
	Sources   Sources  `toml:"source"`
	Pos
}

// Claim is a phrase a reason may use only when the answers (and the stack)
// make it true: kb check fails on a rule whose text has the phrase but
// whose conditions do not hold the claim's.
type Claim struct {
	// ID tells apart claims that share a phrase (alternatives); it
	// defaults to the phrase.
	ID     string               `toml:"id"`
	Phrase string               `toml:"phrase"`
	Means  string               `toml:"means"`
	When   map[string]Condition `toml:"when"`
	Stack  map[string][]string  `toml:"stack"`
	Conds  []Cond               `toml:"-"`
	Pos
}

// Can returns the values of product's capability of kind what, and whether
// the knowledge base records one (no record: the product is not limited on
// that kind).
func (kb *KB) Can(product, what string) ([]string, bool) {
	c := kb.capByKey[product+"/"+what]
	if c == nil {
		return nil, false
	}
	return c.Values, true
}

// Capability returns the record behind Can, or nil.
func (kb *KB) Capability(product, what string) *Capability {
	return kb.capByKey[product+"/"+what]
}

// CloseCallMargin is the score margin at or under which a decision is a
// close call.
func (kb *KB) CloseCallMargin() int { return kb.closeMargin }

// Values the stack search reads.
const (
	MixSeveralVendors = "several-vendors"
	VendorNone        = "none"  // no accelerator: CPU only
	VendorApple       = "apple" // Apple silicon: one machine's unified memory, not a fleet vendor
)
