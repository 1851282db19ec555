package knowledge

// Model is one entry of the model catalog: the architecture numbers the
// sizing arithmetic needs, as the model's config.json states them.
type Model struct {
	ID   string `toml:"id" json:"id"`
	Name string `toml:"name" json:"name"`
	// HFID is the Hugging Face repository the launch command serves.
	HFID          string  `toml:"hf_id" json:"hf_id"`
	ParamsB       float64 `toml:"params_b" json:"params_b"`
	ActiveParamsB float64 `toml:"active_params_b" json:"active_params_b,omitempty"`
	Layers        int     `toml:"layers" json:"layers"`
	Heads         int     `toml:"attention_heads" json:"attention_heads"`
	KVHeads       int     `toml:"kv_heads" json:"kv_heads"`
	HeadDim       int     `toml:"head_dim" json:"head_dim"`
	Hidden        int     `toml:"hidden_size" json:"hidden_size"`
	Intermediate  int     `toml:"intermediate_size" json:"intermediate_size"`
	Vocab         int     `toml:"vocab_size" json:"vocab_size"`
	TiedEmbed     bool    `toml:"tied_embeddings" json:"tied_embeddings"`
	// MoE: experts, experts per token and each expert's FFN width.
	Experts         int `toml:"experts" json:"experts,omitempty"`
	ExpertsPerToken int `toml:"experts_per_token" json:"experts_per_token,omitempty"`
	MoEIntermediate int `toml:"moe_intermediate_size" json:"moe_intermediate_size,omitempty"`
	// MLA (multi-head latent attention): the latent KV is stored once per
	// layer as kv_lora_rank + qk_rope_head_dim values.
	KVLoraRank    int `toml:"kv_lora_rank" json:"kv_lora_rank,omitempty"`
	QKRopeHeadDim int `toml:"qk_rope_head_dim" json:"qk_rope_head_dim,omitempty"`
	// Sliding-window layers keep at most SlidingWindow tokens of KV.
	SlidingWindow       int `toml:"sliding_window" json:"sliding_window,omitempty"`
	SlidingWindowLayers int `toml:"sliding_window_layers" json:"sliding_window_layers,omitempty"`
	NativeContext       int `toml:"native_context" json:"native_context"`
	// NativeDType is the checkpoint's weight format: bf16, fp16, fp8 or
	// mxfp4.
	NativeDType string `toml:"native_dtype" json:"native_dtype"`
	// NativeWeightsGiB is the published checkpoint's weights as loaded, for
	// mixed-precision checkpoints where params × one width would mislead.
	NativeWeightsGiB float64 `toml:"native_weights_gib" json:"native_weights_gib,omitempty"`
	Sources          Sources `toml:"source" json:"sources"`
	Notes            string  `toml:"notes" json:"notes,omitempty"`
	Pos
}

// MoE reports whether the model routes tokens to experts.
func (m *Model) MoE() bool { return m.Experts > 0 }

// MLA reports whether the model stores a latent KV (DeepSeek-style).
func (m *Model) MLA() bool { return m.KVLoraRank > 0 }

// Flag lifecycle states.
const (
	FlagCurrent    = "current"
	FlagDeprecated = "deprecated"
	FlagRemoved    = "removed"
)

// Flag is one engine command-line flag: what it does, its default and what
// the default depends on, and its lifecycle across engine versions.
type Flag struct {
	ID     string `toml:"id" json:"id"`
	Engine string `toml:"engine" json:"engine"`
	Name   string `toml:"name" json:"name"`
	// Aliases are other spellings the engine accepts.
	Aliases    []string `toml:"aliases" json:"aliases,omitempty"`
	Default    string   `toml:"default" json:"default"`
	DependsOn  string   `toml:"default_depends_on" json:"default_depends_on,omitempty"`
	Values     string   `toml:"values" json:"values"`
	Effect     string   `toml:"effect" json:"effect"`
	Status     string   `toml:"status" json:"status"`
	Introduced string   `toml:"introduced" json:"introduced,omitempty"`
	Deprecated string   `toml:"deprecated" json:"deprecated,omitempty"`
	Removed    string   `toml:"removed" json:"removed,omitempty"`
	// ReplacedBy names the flag id (or a short text) that took over.
	ReplacedBy string `toml:"replaced_by" json:"replaced_by,omitempty"`
	// InSeed marks flags the course notes name.
	InSeed  bool    `toml:"in_course_notes" json:"in_course_notes"`
	Sources Sources `toml:"source" json:"sources"`
	Pos
}

// Model returns the catalog entry with id, or nil.
func (kb *KB) Model(id string) *Model { return kb.modelByID[id] }

// Flag returns the flag with id, or nil.
func (kb *KB) Flag(id string) *Flag { return kb.flagByID[id] }

// ModelIDs lists the model catalog's ids in catalog order.
func (kb *KB) ModelIDs() []string {
	ids := make([]string, len(kb.Models))
	for i, m := range kb.Models {
		ids[i] = m.ID
	}
	return ids
}

// GPUIDs lists the hardware catalog's ids in catalog order.
func (kb *KB) GPUIDs() []string {
	ids := make([]string, len(kb.GPUs))
	for i, g := range kb.GPUs {
		ids[i] = g.ID
	}
	return ids
}

// FlagsOf lists one engine's flags in knowledge-base order.
func (kb *KB) FlagsOf(engine string) []*Flag {
	var out []*Flag
	for _, f := range kb.Flags {
		if f.Engine == engine {
			out = append(out, f)
		}
	}
	return out
}
