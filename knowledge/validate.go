package knowledge

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

var (
	idRE = lazyRE(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// Model ids keep the version dots people type: llama-3.3-70b.
	modelIDRE = lazyRE(`^[a-z0-9]+([.-][a-z0-9]+)*$`)
	keyRE     = lazyRE(`^[a-z][a-z0-9_]*$`)
)

var layerOrder = []string{LayerEngine, LayerModelServer, LayerOrchestrator}

var (
	effects     = []string{EffectPrefer, EffectRequire, EffectExclude, EffectComplement}
	vendors     = []string{"nvidia", "amd", "intel", "google", "apple", "none"}
	types       = []string{TypeInt, TypeBool, TypeEnum, TypeList}
	catalogs    = []string{CatalogGPU, CatalogModel}
	engines     = []string{EngineVLLM, EngineSGLang, EngineTensorRTLLM, EngineLlamaCpp}
	flagStates  = []string{FlagCurrent, FlagDeprecated, FlagRemoved}
	dtypes      = []string{DTypeBF16, DTypeFP16, DTypeFP8, "mxfp4"}
	operatorSet = []string{OpEquals, OpOneOf, OpAtLeast, OpAtMost}
)

// checker carries what every validation step needs to report a problem.
type checker struct {
	kb   *KB
	locs map[string]*locator
	errs *Errors
}

// at reports a problem at pos, on the line of the key path inside the item.
func (c *checker) at(pos Pos, key string, path []string, problem, allowed, hint string) {
	line := pos.Line
	if loc := c.locs[pos.File]; loc != nil && len(path) > 0 {
		line = loc.keyLine(pos.Line, path...)
	}
	*c.errs = append(*c.errs, &Error{File: pos.File, Line: line, Key: key, Problem: problem, Allowed: allowed, Hint: hint})
}

func validate(kb *KB, locs map[string]*locator, errs *Errors) {
	c := &checker{kb: kb, locs: locs, errs: errs}
	c.layers()
	c.gpus()
	c.models()
	c.flags()
	c.questions()
	c.targets()
	if len(*errs) > 0 {
		return // rules and landmines refer to questions; stop at the first tier
	}
	c.products()
	c.understoodIDs()
	c.rules()
	if len(*errs) > 0 {
		return // the stack checks read products and rules; report those first
	}
	c.provenance()
	c.images()
	c.stack()
}

func (c *checker) layers() {
	kb := c.kb
	kb.layerByID = map[string]*Layer{}
	for _, l := range kb.Layers {
		what := fmt.Sprintf("layer %q", l.ID)
		if !slices.Contains(layerOrder, l.ID) {
			c.at(l.Pos, what, []string{"id"}, "unknown layer id", strings.Join(layerOrder, ", "), didYouMean(l.ID, layerOrder))
			continue
		}
		if l.Name == "" || l.What == "" {
			c.at(l.Pos, what, nil, "needs name and what", "", `add name = "…" and what = "…"`)
		}
		kb.layerByID[l.ID] = l
	}
	for _, id := range layerOrder {
		if kb.layerByID[id] == nil {
			*c.errs = append(*c.errs, &Error{File: "knowledge", Key: "layer", Problem: fmt.Sprintf("layer %q is not defined", id), Hint: "define [[layer]] id = \"" + id + "\""})
		}
	}
	// Canonical order, whatever order the files used.
	sort.SliceStable(kb.Layers, func(i, j int) bool {
		return slices.Index(layerOrder, kb.Layers[i].ID) < slices.Index(layerOrder, kb.Layers[j].ID)
	})
}

func (c *checker) gpus() {
	kb := c.kb
	kb.gpuByID = map[string]*GPU{}
	for _, g := range kb.GPUs {
		what := fmt.Sprintf("gpu %q", g.ID)
		if !idRE.MatchString(g.ID) {
			c.at(g.Pos, what, []string{"id"}, "ids are lower-case words joined by hyphens", "", "for example id = \"h100\"")
		}
		if !slices.Contains(vendors, g.Vendor) {
			c.at(g.Pos, what+" vendor", []string{"vendor"}, fmt.Sprintf("unknown vendor %q", g.Vendor), strings.Join(vendors, ", "), didYouMean(g.Vendor, vendors))
		}
		if g.Name == "" {
			c.at(g.Pos, what, nil, "needs a name", "", `add name = "…"`)
		}
		c.checkSources(g.Pos, g.Line, what, g.Sources)
		if g.MemoryGiB < 0 || g.BandwidthTBs < 0 {
			c.at(g.Pos, what, []string{"memory_gib"}, "memory and bandwidth cannot be negative", "", "")
		}
		if g.NonTorchGiB < 0 || g.NonTorchMultiGiB < 0 || (g.MemoryGiB > 0 && g.NonTorchGiB+g.NonTorchMultiGiB >= g.MemoryGiB) {
			c.at(g.Pos, what, []string{"non_torch_gib"}, "non-torch memory must be ≥ 0 and well below the GPU's memory", "", "")
		}
		if g.MemoryGiB > 0 && g.NonTorchGiB > 0 && len(g.NonTorchSources) == 0 {
			c.at(g.Pos, what, []string{"non_torch_gib"}, "a non-torch memory figure needs a source", "", `add [[gpu.non_torch_source]] with kind, quote and checked_on`)
		}
		c.checkSourcesNamed(g.Pos, g.Line, what+" non_torch", "non_torch_source", g.NonTorchSources)
		kb.gpuByID[g.ID] = g
	}
}

func (c *checker) models() {
	kb := c.kb
	kb.modelByID = map[string]*Model{}
	for _, m := range kb.Models {
		what := fmt.Sprintf("model %q", m.ID)
		kb.modelByID[m.ID] = m
		if !modelIDRE.MatchString(m.ID) {
			c.at(m.Pos, what, []string{"id"}, "model ids are lower-case words joined by hyphens or dots", "", `for example id = "llama-3.1-8b"`)
		}
		if m.Name == "" || m.HFID == "" {
			c.at(m.Pos, what, nil, "needs name and hf_id", "", `add name = "…" and hf_id = "org/model"`)
		}
		c.checkSources(m.Pos, m.Line, what, m.Sources)
		positive := []struct {
			key string
			v   int
		}{{"layers", m.Layers}, {"attention_heads", m.Heads}, {"kv_heads", m.KVHeads}, {"head_dim", m.HeadDim}, {"hidden_size", m.Hidden}, {"vocab_size", m.Vocab}, {"native_context", m.NativeContext}}
		for _, p := range positive {
			if p.v <= 0 {
				c.at(m.Pos, what+" "+p.key, []string{p.key}, p.key+" must be a positive whole number", "", "copy it from the model's config.json")
			}
		}
		if m.ParamsB <= 0 {
			c.at(m.Pos, what+" params_b", []string{"params_b"}, "params_b must be positive (billions of parameters)", "", "")
		}
		if m.KVHeads > 0 && m.Heads > 0 && m.Heads%m.KVHeads != 0 {
			c.at(m.Pos, what+" kv_heads", []string{"kv_heads"}, fmt.Sprintf("%d attention heads cannot be grouped over %d KV heads", m.Heads, m.KVHeads), "a divisor of attention_heads", "")
		}
		if m.Experts > 0 && (m.ExpertsPerToken <= 0 || m.ExpertsPerToken > m.Experts || m.MoEIntermediate <= 0 || m.ActiveParamsB <= 0 || m.ActiveParamsB > m.ParamsB) {
			c.at(m.Pos, what+" experts", []string{"experts"}, "an MoE model needs experts_per_token (≤ experts), moe_intermediate_size and active_params_b (≤ params_b)", "", "")
		}
		if m.Experts == 0 && m.Intermediate <= 0 {
			c.at(m.Pos, what+" intermediate_size", []string{"intermediate_size"}, "a dense model needs intermediate_size", "", "")
		}
		if (m.KVLoraRank > 0) != (m.QKRopeHeadDim > 0) {
			c.at(m.Pos, what+" kv_lora_rank", []string{"kv_lora_rank"}, "an MLA model needs both kv_lora_rank and qk_rope_head_dim", "", "")
		}
		if m.SlidingWindowLayers < 0 || m.SlidingWindowLayers >= m.Layers && m.Layers > 0 || (m.SlidingWindowLayers > 0) != (m.SlidingWindow > 0) {
			c.at(m.Pos, what+" sliding_window", []string{"sliding_window_layers"}, "sliding_window and sliding_window_layers go together, with fewer sliding layers than layers", "", "")
		}
		if !slices.Contains(dtypes, m.NativeDType) {
			c.at(m.Pos, what+" native_dtype", []string{"native_dtype"}, fmt.Sprintf("unknown native_dtype %q", m.NativeDType), strings.Join(dtypes, ", "), didYouMean(m.NativeDType, dtypes))
		}
	}
}

func (c *checker) flags() {
	kb := c.kb
	kb.flagByID = map[string]*Flag{}
	for _, f := range kb.Flags {
		kb.flagByID[f.ID] = f
	}
	for _, f := range kb.Flags {
		what := fmt.Sprintf("flag %q", f.ID)
		if !idRE.MatchString(f.ID) {
			c.at(f.Pos, what, []string{"id"}, "ids are lower-case words joined by hyphens", "", `for example id = "vllm-max-num-seqs"`)
		}
		if !slices.Contains(engines, f.Engine) {
			c.at(f.Pos, what+" engine", []string{"engine"}, fmt.Sprintf("unknown engine %q", f.Engine), strings.Join(engines, ", "), didYouMean(f.Engine, engines))
		}
		if !strings.HasPrefix(f.Name, "-") || f.Effect == "" {
			c.at(f.Pos, what, nil, "needs name (as typed, with dashes) and effect", "", `add name = "--…" and effect = "…"`)
		}
		c.checkSources(f.Pos, f.Line, what, f.Sources)
		if !slices.Contains(flagStates, f.Status) {
			c.at(f.Pos, what+" status", []string{"status"}, fmt.Sprintf("unknown status %q", f.Status), strings.Join(flagStates, ", "), didYouMean(f.Status, flagStates))
		}
		if f.Status == FlagRemoved && f.Removed == "" {
			c.at(f.Pos, what+" removed", []string{"removed"}, "a removed flag says when it was removed", "", `add removed = "v0.11.0" (or the PR that removed it)`)
		}
		if f.Status == FlagCurrent && f.Removed != "" {
			c.at(f.Pos, what+" removed", []string{"removed"}, "a current flag cannot have a removed version", "", `set status = "removed"`)
		}
		if f.ReplacedBy != "" && strings.HasPrefix(f.ReplacedBy, f.Engine+"-") && kb.flagByID[f.ReplacedBy] == nil {
			ids := make([]string, 0, len(kb.Flags))
			for _, g := range kb.Flags {
				ids = append(ids, g.ID)
			}
			c.at(f.Pos, what+" replaced_by", []string{"replaced_by"}, fmt.Sprintf("unknown flag %q", f.ReplacedBy), "", didYouMean(f.ReplacedBy, ids))
		}
	}
}

func (c *checker) questions() {
	kb := c.kb
	kb.questionByID = map[string]*Question{}
	kb.questionIdx = map[string]int{}
	for i, q := range kb.Questions {
		what := fmt.Sprintf("question %q", q.Key)
		kb.questionByID[q.Key] = q
		kb.questionIdx[q.Key] = i
		if !keyRE.MatchString(q.Key) {
			c.at(q.Pos, what, []string{"key"}, "keys are lower-case words joined by underscores", "", "for example key = \"gpus_per_node\"")
		}
		if !slices.Contains(types, q.Type) {
			c.at(q.Pos, what+" type", []string{"type"}, fmt.Sprintf("unknown type %q", q.Type), strings.Join(types, ", "), didYouMean(q.Type, types))
			continue
		}
		if q.Catalog != "" {
			if !slices.Contains(catalogs, q.Catalog) {
				c.at(q.Pos, what+" catalog", []string{"catalog"}, fmt.Sprintf("unknown catalog %q", q.Catalog), strings.Join(catalogs, ", "), didYouMean(q.Catalog, catalogs))
				continue
			}
			if len(q.Values) > 0 {
				c.at(q.Pos, what, []string{"values"}, "a catalog question takes its values from the catalog", "", "remove values")
			}
			switch q.Catalog {
			case CatalogModel:
				q.Values = kb.ModelIDs()
			default:
				q.Values = kb.GPUIDs()
			}
		}
		if q.Derived && q.Key == DerivedGPUVendor {
			q.Values = vendors
		}
		if (q.Type == TypeEnum || q.Type == TypeList) && len(q.Values) == 0 {
			c.at(q.Pos, what, []string{"values"}, "an enum or list question needs values", "", `add values = ["…", "…"]`)
			continue
		}
		if q.Type != TypeInt && (q.Min != nil || q.Max != nil) {
			c.at(q.Pos, what, []string{"min"}, "min and max apply to int questions only", "", "remove them")
		}
		if q.Min != nil && q.Max != nil && *q.Min > *q.Max {
			c.at(q.Pos, what, []string{"min"}, fmt.Sprintf("min %d is above max %d", *q.Min, *q.Max), "", "")
		}
		if q.Derived {
			typ, known := derivedKeys[q.Key]
			if !known {
				names := make([]string, 0, len(derivedKeys))
				for k := range derivedKeys {
					names = append(names, k)
				}
				slices.Sort(names)
				c.at(q.Pos, what, []string{"derived"}, "stackpick does not know how to compute this key", strings.Join(names, ", "), didYouMean(q.Key, names))
			} else if typ != q.Type {
				c.at(q.Pos, what, []string{"type"}, fmt.Sprintf("derived key %s is of type %s", q.Key, typ), typ, "")
			}
			continue
		}
		if q.Page == "" || q.Why == "" || q.Prompt == "" {
			c.at(q.Pos, what, nil, "needs page, prompt and why", "", `add page = "…", prompt = "…", why = "…"`)
		}
		if q.Default == nil {
			c.at(q.Pos, what, []string{"default"}, "every question needs a default", q.AllowedText(), "add default = …")
			continue
		}
		v, p := q.parse(q.Default)
		if p != nil {
			c.at(q.Pos, what+" default", []string{"default"}, p.Problem, p.Allowed, p.Hint)
			continue
		}
		q.def = v
	}
	c.understoodKeys()
	kb.indexDerived()
}

// understoodKeys holds the questions Go reads to what it reads of them
// (understood.go): the type, the values Go names, and for an enum Go
// branches on, no value Go would not know what to do with.
func (c *checker) understoodKeys() {
	for _, u := range Understood {
		q := c.kb.questionByID[u.Key]
		if q == nil {
			*c.errs = append(*c.errs, &Error{File: "knowledge", Key: "question " + u.Key, Problem: u.By + " reads this question, and it is not defined", Hint: "restore the built-in definition"})
			continue
		}
		what := fmt.Sprintf("question %q", q.Key)
		if q.Type != u.Type {
			c.at(q.Pos, what+" type", []string{"type"}, fmt.Sprintf("%s reads %s as %s, so its type must stay %s", u.By, q.Key, typeWords[u.Type], u.Type), u.Type, `restore type = "`+u.Type+`"`)
			continue
		}
		if u.Catalog != "" && q.Catalog != u.Catalog {
			c.at(q.Pos, what+" catalog", []string{"catalog"}, fmt.Sprintf("%s looks %s up in the %s catalog", u.By, q.Key, u.Catalog), u.Catalog, `restore catalog = "`+u.Catalog+`" (and no values)`)
			continue
		}
		known := make([]string, len(u.Values))
		for i, m := range u.Values {
			known[i] = m.Value
			if !m.Optional && !slices.Contains(q.Values, m.Value) {
				c.at(q.Pos, what+" values", []string{"values"}, fmt.Sprintf("%s needs the value %q (%s)", u.By, m.Value, m.Does), strings.Join(q.Values, ", "), fmt.Sprintf("add %q to values", m.Value))
			}
		}
		if !u.Closed {
			continue
		}
		for _, v := range q.Values {
			if !slices.Contains(known, v) {
				c.at(q.Pos, what+" values", []string{"values"}, fmt.Sprintf("%q is not a value %s understands (it understands: %s)", v, u.By, strings.Join(known, ", ")), "",
					fmt.Sprintf("remove %q from values: a new value needs Go code that knows what to do with it", v))
			}
		}
	}
}

var typeWords = map[string]string{TypeInt: "a whole number", TypeBool: "true or false", TypeEnum: "one word of a fixed set", TypeList: "a list"}

// understoodIDs checks that every product, GPU and flag id Go names exists,
// where Go expects it.
func (c *checker) understoodIDs() {
	kb := c.kb
	missing := func(kind string, n NamedID) {
		*c.errs = append(*c.errs, &Error{File: "knowledge", Key: fmt.Sprintf("%s %q", kind, n.ID), Problem: n.By + " names it, and it is not defined", Hint: "restore the built-in definition"})
	}
	for _, n := range UnderstoodProducts {
		switch p := kb.productByID[n.ID]; {
		case p == nil:
			missing("product", n)
		case p.Layer != n.Layer && kb.layerByID[p.Layer] != nil: // an unknown layer is reported already
			c.at(p.Pos, fmt.Sprintf("product %q layer", p.ID), []string{"layer"}, fmt.Sprintf("%s names %s as a product of the %s layer", n.By, p.ID, n.Layer), n.Layer, `restore layer = "`+n.Layer+`"`)
		}
	}
	for _, n := range UnderstoodGPUs {
		if kb.gpuByID[n.ID] == nil {
			missing("gpu", n)
		}
	}
	for _, n := range UnderstoodFlags {
		n.By = "stackpick's " + n.Engine + " launch command"
		switch f := kb.flagByID[n.ID]; {
		case f == nil:
			missing("flag", n)
		case f.Engine != n.Engine && slices.Contains(engines, f.Engine):
			c.at(f.Pos, fmt.Sprintf("flag %q engine", f.ID), []string{"engine"}, fmt.Sprintf("%s names this flag as one of %s's", n.By, n.Engine), n.Engine, `restore engine = "`+n.Engine+`"`)
		}
	}
}

func (c *checker) products() {
	kb := c.kb
	kb.productByID = map[string]*Product{}
	landmines := map[string]Pos{}
	for _, p := range kb.Products {
		what := fmt.Sprintf("product %q", p.ID)
		kb.productByID[p.ID] = p
		switch {
		case p.ID == None:
			c.at(p.Pos, what, []string{"id"}, `"none" is built in (it means "this layer is not needed")`, "", "choose another id")
		case !idRE.MatchString(p.ID):
			c.at(p.Pos, what, []string{"id"}, "ids are lower-case words joined by hyphens", "", `for example id = "llm-d"`)
		}
		if kb.layerByID[p.Layer] == nil {
			c.at(p.Pos, what+" layer", []string{"layer"}, fmt.Sprintf("unknown layer %q", p.Layer), strings.Join(layerOrder, ", "), didYouMean(p.Layer, layerOrder))
		}
		if p.Name == "" || p.Role == "" {
			c.at(p.Pos, what, nil, "needs name and role", "", `add name = "…" and role = "…"`)
		}
		c.checkSources(p.Pos, p.Line, what, p.Sources)
		for i, n := range p.SeedNotes {
			line := c.subLine(p.Pos, "course_notes_outdated", i)
			if n.Claim == "" || n.Current == "" {
				c.at(Pos{p.File, line}, what+" course-notes correction", nil, "needs claim and current", "", "")
			}
			c.checkSources(p.Pos, line, fmt.Sprintf("%s course-notes correction %d", what, i+1), n.Sources)
		}
		for i := range p.Landmines {
			m := &p.Landmines[i]
			mwhat := fmt.Sprintf("%s landmine %q", what, m.ID)
			if first, dup := landmines[m.ID]; dup || !idRE.MatchString(m.ID) {
				c.at(p.Pos, mwhat, []string{"landmine", "id"}, fmt.Sprintf("landmine ids must be unique hyphenated words (first use: %s:%d)", first.File, first.Line), "", "")
			}
			landmines[m.ID] = p.Pos
			if m.Text == "" {
				c.at(p.Pos, mwhat, []string{"landmine"}, "needs text", "", "")
			}
			c.checkSources(p.Pos, c.subLine(p.Pos, "landmine", i), mwhat, m.Sources)
			m.Conds = c.conds(p.Pos, mwhat, []string{"landmine", "when"}, m.When)
		}
	}
}

func (c *checker) rules() {
	kb := c.kb
	for _, r := range kb.Rules {
		what := fmt.Sprintf("rule %q", r.ID)
		if !idRE.MatchString(r.ID) {
			c.at(r.Pos, what, []string{"id"}, "ids are lower-case words joined by hyphens", "", `for example id = "k8s-first-llm-d"`)
		}
		layer := kb.layerByID[r.Layer]
		if layer == nil {
			c.at(r.Pos, what+" layer", []string{"layer"}, fmt.Sprintf("unknown layer %q", r.Layer), strings.Join(layerOrder, ", "), didYouMean(r.Layer, layerOrder))
		}
		if !slices.Contains(effects, r.Effect) {
			c.at(r.Pos, what+" effect", []string{"effect"}, fmt.Sprintf("unknown effect %q", r.Effect), strings.Join(effects, ", "), didYouMean(r.Effect, effects))
		}
		c.ruleProduct(r, what, "product", r.Product, layer)
		switch r.Effect {
		case EffectPrefer:
			if r.Weight == 0 || r.Weight < -100 || r.Weight > 100 {
				c.at(r.Pos, what+" weight", []string{"weight"}, "a prefer rule needs a non-zero weight", "a whole number from -100 to 100 (negative counts against)", "")
			}
		default:
			if r.Weight != 0 {
				c.at(r.Pos, what+" weight", []string{"weight"}, "only prefer rules have a weight", "", "remove weight, or use effect = \"prefer\"")
			}
		}
		if r.Effect == EffectComplement {
			if r.With == "" {
				c.at(r.Pos, what, []string{"with"}, "a complement rule names the pick it completes", "a product id on the same layer", `add with = "…"`)
			} else if r.With == r.Product {
				c.at(r.Pos, what+" with", []string{"with"}, "a product cannot complement itself", "", "")
			} else {
				c.ruleProduct(r, what, "with", r.With, layer)
			}
			if r.Product == None || r.With == None {
				c.at(r.Pos, what, []string{"product"}, `"none" cannot complement or be complemented`, "", "")
			}
		} else if r.With != "" {
			c.at(r.Pos, what+" with", []string{"with"}, "only complement rules have with", "", "remove with, or use effect = \"complement\"")
		}
		if r.Reason == "" {
			c.at(r.Pos, what, nil, "every rule needs a one-sentence reason", "", `add reason = "…"`)
		}
		c.checkSources(r.Pos, r.Line, what, r.Sources)
		r.Conds = c.conds(r.Pos, what, []string{"when"}, r.When)
		r.WhenText = DescribeConds(r.Conds)
	}
}

func (c *checker) ruleProduct(r *Rule, what, field, id string, layer *Layer) {
	if id == None {
		if layer != nil && !layer.Optional {
			c.at(r.Pos, what+" "+field, []string{field}, fmt.Sprintf("the %s layer is never empty, so %q is not a choice there", layer.ID, None), "", "")
		}
		return
	}
	p := c.kb.productByID[id]
	if p == nil {
		ids := make([]string, 0, len(c.kb.Products)+1)
		for _, p := range c.kb.Products {
			ids = append(ids, p.ID)
		}
		ids = append(ids, None)
		c.at(r.Pos, what+" "+field, []string{field}, fmt.Sprintf("unknown product %q", id), strings.Join(ids, ", "), didYouMean(id, ids))
		return
	}
	if layer != nil && p.Layer != layer.ID && c.kb.layerByID[p.Layer] != nil {
		c.at(r.Pos, what+" "+field, []string{field}, fmt.Sprintf("%s is on the %s layer, not %s", id, p.Layer, layer.ID), "", "")
	}
}

// conds compiles a when table, reporting unknown keys, bad operators, values
// a question does not allow, and conditions that can never hold.
func (c *checker) conds(pos Pos, what string, path []string, when map[string]Condition) []Cond {
	kb := c.kb
	keys := make([]string, 0, len(when))
	for k := range when {
		keys = append(keys, k)
	}
	// Question order, so evaluation and rendering are deterministic.
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := kb.QuestionIndex(a), kb.QuestionIndex(b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	all := make([]string, 0, len(kb.Questions))
	for _, q := range kb.Questions {
		all = append(all, q.Key)
	}
	var out []Cond
	for _, k := range keys {
		cw := when[k]
		kpath := append(slices.Clone(path), k)
		ckey := what + " when." + k
		q := kb.questionByID[k]
		if q == nil {
			c.at(pos, ckey, kpath, "unknown answer key", strings.Join(all, ", "), didYouMean(k, all))
			continue
		}
		qi := kb.questionIdx[k]
		n := 0
		fail := func(op, problem, allowed, hint string) {
			c.at(pos, ckey+"."+op, append(kpath, op), problem, allowed, hint)
		}
		add := func(cd Cond) { cd.Key, cd.Q, cd.Type = k, qi, q.Type; out = append(out, cd); n++ }
		if cw.Equals != nil {
			if cd, ok := c.operand(q, OpEquals, cw.Equals, fail); ok {
				add(cd)
			}
		}
		if cw.OneOf != nil {
			if len(cw.OneOf) == 0 {
				fail(OpOneOf, "one_of needs at least one value", q.AllowedText(), "")
			} else if cd, ok := c.operand(q, OpOneOf, cw.OneOf, fail); ok {
				add(cd)
			}
		}
		for _, ob := range []struct {
			op    string
			bound *int
		}{{OpAtLeast, cw.AtLeast}, {OpAtMost, cw.AtMost}} {
			op, bound := ob.op, ob.bound
			if bound == nil {
				continue
			}
			if q.Type != TypeInt && q.Type != TypeList {
				fail(op, fmt.Sprintf("%s applies to numbers and lists; %s is %s", op, k, q.Type), "equals, one_of", "")
				continue
			}
			add(Cond{Op: op, Int: *bound})
		}
		if n == 0 && cw.Equals == nil && cw.OneOf == nil && cw.AtLeast == nil && cw.AtMost == nil {
			c.at(pos, ckey, kpath, "condition has no operator", strings.Join(operatorSet, ", "), fmt.Sprintf("for example %s = { equals = … }", k))
		}
		if reason := unsatisfiable(q, out[len(out)-n:]); n > 0 && reason != "" {
			c.at(pos, ckey, kpath, "can never fire: "+reason, q.AllowedText(), "")
		}
	}
	for i := range out {
		out[i].Text = out[i].String()
		out[i].kind = kindOf(out[i].Type, out[i].Op)
	}
	if reason := derivedUnsatisfiable(kb, out); reason != "" {
		c.at(pos, what+" when", path, "can never fire: "+reason, "", "")
	}
	// Keep at_least before at_most for stable output.
	slices.SortStableFunc(out, func(a, b Cond) int {
		if a.Q != b.Q {
			return a.Q - b.Q
		}
		return slices.Index(operatorSet, a.Op) - slices.Index(operatorSet, b.Op)
	})
	return out
}

// operand checks the value of equals or one_of against the question.
func (c *checker) operand(q *Question, op string, raw any, fail func(op, problem, allowed, hint string)) (Cond, bool) {
	items := []any{raw}
	if op == OpOneOf {
		items = raw.([]any)
	}
	if op == OpEquals && q.Type == TypeList {
		list, ok := raw.([]any)
		if !ok {
			fail(op, fmt.Sprintf("%s is a list; equals needs a list, got %s", q.Key, tomlKind(raw)), q.AllowedText(), "to test membership use one_of = [\"…\"]")
			return Cond{}, false
		}
		items = list
	}
	cd := Cond{Op: op}
	for _, it := range items {
		switch q.Type {
		case TypeInt:
			n, ok := it.(int64)
			if !ok {
				fail(op, fmt.Sprintf("%s is a number; got %s", q.Key, tomlKind(it)), q.AllowedText(), "")
				return cd, false
			}
			cd.Int = int(n)
			cd.Ints = append(cd.Ints, int(n))
		case TypeBool:
			b, ok := it.(bool)
			if !ok {
				fail(op, fmt.Sprintf("%s is true or false; got %s", q.Key, tomlKind(it)), "true, false", "")
				return cd, false
			}
			cd.Bool = b
			cd.Bools = append(cd.Bools, b)
		default:
			s, ok := it.(string)
			if !ok {
				fail(op, fmt.Sprintf("%s takes quoted words; got %s", q.Key, tomlKind(it)), strings.Join(q.Values, ", "), "")
				return cd, false
			}
			if !slices.Contains(q.Values, s) {
				fail(op, fmt.Sprintf("%q is not a value of %s", s, q.Key), strings.Join(q.Values, ", "), didYouMean(s, q.Values))
				return cd, false
			}
			cd.Str = s
			cd.Strs = append(cd.Strs, s)
		}
	}
	return cd, true
}

// derivedUnsatisfiable checks conditions that only conflict through a
// derived answer: gpu_vendor (from gpu and gpus_per_node) and total_gpus
// (nodes × gpus_per_node). It returns why they can never all hold, or "".
func derivedUnsatisfiable(kb *KB, cs []Cond) string {
	on := func(key string) []Cond {
		var out []Cond
		for _, c := range cs {
			if c.Key == key {
				out = append(out, c)
			}
		}
		return out
	}
	holdsAll := holdsEvery
	span := func(key string) (int, int) {
		q := kb.Question(key)
		lo, hi := 0, 1<<30
		if q != nil && q.Min != nil {
			lo = *q.Min
		}
		if q != nil && q.Max != nil {
			hi = *q.Max
		}
		for _, c := range on(key) {
			switch c.Op {
			case OpAtLeast:
				lo = max(lo, c.Int)
			case OpAtMost:
				hi = min(hi, c.Int)
			case OpEquals:
				lo, hi = max(lo, c.Int), min(hi, c.Int)
			case OpOneOf:
				lo, hi = max(lo, slices.Min(c.Ints)), min(hi, slices.Max(c.Ints))
			}
		}
		return lo, hi
	}
	if vendor := on(DerivedGPUVendor); len(vendor) > 0 {
		gpuConds := on(KeyGPU)
		glo, ghi := span(KeyGPUsPerNode)
		var counts []int
		if glo <= 0 && 0 <= ghi {
			counts = append(counts, 0)
		}
		if max(glo, 1) <= ghi {
			counts = append(counts, max(glo, 1))
		}
		ok := false
		for _, g := range kb.GPUs {
			if !holdsAll(gpuConds, Value{Str: g.ID}) {
				continue
			}
			for _, n := range counts {
				v := g.Vendor
				if n == 0 {
					v = "none"
				}
				ok = ok || holdsAll(vendor, Value{Str: v})
			}
		}
		if !ok {
			return "no gpu and gpus_per_node allowed here give a gpu_vendor that meets its condition"
		}
	}
	if plat := on(DerivedPlatform); len(plat) > 0 {
		subQ, k8sQ := kb.Question(KeySubstrate), kb.Question(KeyKubernetes)
		ok := subQ == nil || k8sQ == nil
		for _, sub := range valuesOf(subQ) {
			for _, k8s := range valuesOf(k8sQ) {
				if holdsAll(on(KeySubstrate), Value{Str: sub}) && holdsAll(on(KeyKubernetes), Value{Str: k8s}) &&
					!SubstrateConflicts(sub, k8s) && holdsAll(plat, Value{Str: platformOf(sub, k8s)}) {
					ok = true
				}
			}
		}
		if !ok {
			return "no substrate and kubernetes answers that agree give a platform that meets its condition"
		}
	}
	if len(on(DerivedTotalGPUs)) > 0 {
		nlo, nhi := span(KeyNodes)
		glo, ghi := span(KeyGPUsPerNode)
		tlo, thi := span(DerivedTotalGPUs)
		if nlo <= nhi && glo <= ghi && (nlo*glo > thi || nhi*ghi < tlo) {
			return fmt.Sprintf("nodes × gpus_per_node lies between %d and %d here, never between %d and %d as total_gpus requires", nlo*glo, nhi*ghi, tlo, thi)
		}
	}
	return ""
}

// unsatisfiable explains why the conditions on one question can never all
// hold at once, or returns "".
func unsatisfiable(q *Question, cs []Cond) string {
	switch q.Type {
	case TypeInt:
		lo, hi := -1<<31, 1<<31-1
		if q.Min != nil {
			lo = *q.Min
		}
		if q.Max != nil {
			hi = *q.Max
		}
		var set []int
		for _, c := range cs {
			switch c.Op {
			case OpAtLeast:
				lo = max(lo, c.Int)
			case OpAtMost:
				hi = min(hi, c.Int)
			case OpEquals:
				lo, hi = max(lo, c.Int), min(hi, c.Int)
			case OpOneOf:
				set = c.Ints
			}
		}
		if lo > hi {
			return fmt.Sprintf("no %s is both ≥ %d and ≤ %d", q.Key, lo, hi)
		}
		if set != nil && !slices.ContainsFunc(set, func(n int) bool { return n >= lo && n <= hi }) {
			return fmt.Sprintf("none of one_of lies between %d and %d", lo, hi)
		}
	case TypeBool, TypeEnum:
		var allowed []string
		vals := q.Values
		if q.Type == TypeBool {
			vals = []string{"false", "true"}
		}
		for _, v := range vals {
			ok := true
			for i := range cs {
				val := Value{Str: v, Bool: v == "true"}
				ok = ok && cs[i].Holds(val)
			}
			if ok {
				allowed = append(allowed, v)
			}
		}
		if len(allowed) == 0 {
			return "no value of " + q.Key + " meets all of its conditions"
		}
	case TypeList:
		lo, hi := 0, len(q.Values)
		var eq []string
		var any []string
		for _, c := range cs {
			switch c.Op {
			case OpAtLeast:
				lo = max(lo, c.Int)
			case OpAtMost:
				hi = min(hi, c.Int)
			case OpOneOf:
				lo = max(lo, 1)
				any = c.Strs
			case OpEquals:
				eq = c.Strs
			}
		}
		if eq != nil {
			lo, hi = max(lo, len(eq)), min(hi, len(eq))
			if any != nil && !slices.ContainsFunc(eq, func(s string) bool { return slices.Contains(any, s) }) {
				return "equals and one_of share no value"
			}
		}
		if lo > hi {
			return fmt.Sprintf("%s can hold %d to %d items, never both ≥ %d and ≤ %d", q.Key, 0, len(q.Values), lo, hi)
		}
	}
	return ""
}

func valuesOf(q *Question) []string {
	if q == nil {
		return nil
	}
	return q.Values
}
