package knowledge

import (
	"strings"
	"testing"
)

// Overlay items that are valid but for the one thing a case changes.
const (
	okSource = "source = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	okRule   = "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglang\"\nweight = 2\nreason = \"why\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	okGPU    = "[[gpu]]\nid = \"g\"\nname = \"G\"\nvendor = \"nvidia\"\nmemory_gib = 80.0\nbandwidth_tbs = 3.0\n"
	okModel  = "[[model]]\nid = \"m\"\nname = \"M\"\nhf_id = \"o/m\"\nparams_b = 1.0\nlayers = 4\nattention_heads = 8\nkv_heads = 4\nhead_dim = 64\nhidden_size = 512\nintermediate_size = 1024\nvocab_size = 32000\nnative_context = 4096\nnative_dtype = \"bf16\"\n"
	okFlag   = "[[flag]]\nid = \"vllm-x\"\nengine = \"vllm\"\nname = \"--x\"\neffect = \"e\"\nstatus = \"current\"\n"
	okQ      = "[[question]]\nkey = \"q\"\npage = \"Team\"\nprompt = \"p\"\nwhy = \"w\"\n"
	placeP   = "[[tiebreak]]\nid = \"orchestrator-order\"\ncriterion = \"order\"\nlayer = \"orchestrator\"\norder = [\"none\", \"llm-d\", \"kserve\", \"dynamo\", \"ray-serve\", \"sgl-router\", \"p\"]\nargument = \"a\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	okProd   = "[[product]]\nid = \"p\"\nname = \"P\"\nlayer = \"orchestrator\"\nrole = \"r\"\n[[product.source]]\nkind = \"docs\"\nurl = \"https://example.org/v1/p\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"
)

// okRuleWith is okRule with its source written as the given
// [[rule.source]] table.
func okRuleWith(source string) string {
	return strings.Replace(okRule, "source = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n", "", 1) + "[[rule.source]]\n" + source
}

// Every class of problem the knowledge check reports, with its exact
// message: where (file:line), which key, what is wrong, what is allowed and
// what to type instead.
func TestEveryKnowledgeProblemIsExplained(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		// Reading the files.
		{"TOML syntax", "not toml [[[\n",
			"kb/x.toml:1: TOML syntax: expected '.' or '=', but got 't' instead"},
		{"unknown key with a near spelling", "[[rule]]\nid = \"a\"\nlayer = \"engine\"\nefect = \"prefer\"\n",
			"kb/x.toml:4: rule.efect: unknown key (allowed: id, layer, effect, product, weight, with, reason, source, when, stack, tag); did you mean \"effect\"?"},
		{"unknown table", "[[rules]]\nid = \"a\"\n",
			"kb/x.toml:1: rules: unknown key (allowed: layer, product, question, rule, gpu, model, flag, capability, need, tiebreak, claim, target, close_call_margin); did you mean \"rule\"?\nkb/x.toml:2: rules.id: unknown key"},
		{"unknown condition operator", okRule + "[rule.when]\nnodes = { greater = 2 }\n",
			"kb/x.toml:10: rule.when.nodes.greater: unknown key (allowed: equals, one_of, at_least, at_most)"},
		{"wrong type", strings.Replace(okRule, "weight = 2", "weight = \"two\"", 1),
			"kb/x.toml:6: rule.weight: wrong type: a quoted string where a whole number goes"},
		{"missing id", strings.Replace(okRule, "id = \"r\"\n", "", 1),
			"kb/x.toml:1: rule: missing id; add id = \"…\""},
		{"question without a key", "[[question]]\ntype = \"bool\"\ndefault = false\nprompt = \"p\"\nwhy = \"w\"\npage = \"Team\"\n",
			"kb/x.toml:1: question: missing id; add key = \"…\""},
		{"duplicate id", okRule + "\n" + okRule,
			"kb/x.toml:10: rule: duplicate id \"r\" (first defined at kb/x.toml:1); give each rule its own id, or delete one"},

		// Layers.
		{"unknown layer id", "[[layer]]\nid = \"gateway\"\nname = \"G\"\nwhat = \"w\"\n",
			"kb/x.toml:2: layer \"gateway\": unknown layer id (allowed: engine, model-server, orchestrator)"},
		{"layer without name", "[[layer]]\nid = \"engine\"\nwhat = \"w\"\n",
			"kb/x.toml:1: layer \"engine\": needs name and what; add name = \"…\" and what = \"…\""},

		// The hardware catalog.
		{"gpu id", strings.Replace(okGPU, "id = \"g\"", "id = \"G_1\"", 1) + okSource,
			"kb/x.toml:2: gpu \"G_1\": ids are lower-case words joined by hyphens; for example id = \"h100\""},
		{"gpu vendor", strings.Replace(okGPU, "nvidia", "nvidai", 1) + okSource,
			"kb/x.toml:4: gpu \"g\" vendor: unknown vendor \"nvidai\" (allowed: nvidia, amd, intel, google, apple, none); did you mean \"nvidia\"?"},
		{"gpu without source", okGPU,
			"kb/x.toml:1: gpu \"g\": needs a source; add [[gpu.source]] with kind = \"repo\" (and repo, commit, path), \"docs\" (a versioned url), \"pr\" or \"issue\" (repo, number; a PR's first_release), \"release\" (repo, ref) or \"notes\" (section), then quote = \"the exact words\" and checked_on = \"YYYY-MM-DD\""},
		{"gpu memory negative", strings.Replace(okGPU, "80.0", "-1.0", 1) + okSource,
			"kb/x.toml:5: gpu \"g\": memory and bandwidth cannot be negative"},
		{"gpu non-torch memory above the GPU's", okGPU + "non_torch_gib = 90.0\nnon_torch_source = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n" + okSource,
			"kb/x.toml:7: gpu \"g\": non-torch memory must be ≥ 0 and well below the GPU's memory"},
		{"gpu non-torch memory without a source", okGPU + "non_torch_gib = 2.0\n" + okSource,
			"kb/x.toml:7: gpu \"g\": a non-torch memory figure needs a source; add [[gpu.non_torch_source]] with kind, quote and checked_on"},
		{"checked_on not a date", okGPU + "source = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"Nov 2026\" }]\n",
			"kb/x.toml:1: gpu \"g\" source 1 checked_on: \"Nov 2026\" is not a date; checked_on = \"YYYY-MM-DD\""},

		// The model catalog.
		{"model id", strings.Replace(okModel, "id = \"m\"", "id = \"M 1\"", 1) + okSource,
			"kb/x.toml:2: model \"M 1\": model ids are lower-case words joined by hyphens or dots; for example id = \"llama-3.1-8b\""},
		{"model without hf_id", strings.Replace(okModel, "hf_id = \"o/m\"\n", "", 1) + okSource,
			"kb/x.toml:1: model \"m\": needs name and hf_id; add name = \"…\" and hf_id = \"org/model\""},
		{"model layers", strings.Replace(okModel, "layers = 4", "layers = 0", 1) + okSource,
			"kb/x.toml:6: model \"m\" layers: layers must be a positive whole number; copy it from the model's config.json"},
		{"model params", strings.Replace(okModel, "params_b = 1.0", "params_b = 0.0", 1) + okSource,
			"kb/x.toml:5: model \"m\" params_b: params_b must be positive (billions of parameters)"},
		{"model heads do not group", strings.Replace(okModel, "kv_heads = 4", "kv_heads = 3", 1) + okSource,
			"kb/x.toml:8: model \"m\" kv_heads: 8 attention heads cannot be grouped over 3 KV heads (allowed: a divisor of attention_heads)"},
		{"MoE model half described", okModel + "experts = 8\n" + okSource,
			"kb/x.toml:15: model \"m\" experts: an MoE model needs experts_per_token (≤ experts), moe_intermediate_size and active_params_b (≤ params_b)"},
		{"dense model without intermediate size", strings.Replace(okModel, "intermediate_size = 1024\n", "", 1) + okSource,
			"kb/x.toml:1: model \"m\" intermediate_size: a dense model needs intermediate_size"},
		{"MLA model half described", okModel + "kv_lora_rank = 512\n" + okSource,
			"kb/x.toml:15: model \"m\" kv_lora_rank: an MLA model needs both kv_lora_rank and qk_rope_head_dim"},
		{"sliding window without its layers", okModel + "sliding_window = 1024\n" + okSource,
			"kb/x.toml:1: model \"m\" sliding_window: sliding_window and sliding_window_layers go together, with fewer sliding layers than layers"},
		{"model dtype", strings.Replace(okModel, "\"bf16\"", "\"bf61\"", 1) + okSource,
			"kb/x.toml:14: model \"m\" native_dtype: unknown native_dtype \"bf61\" (allowed: bf16, fp16, fp8, mxfp4); did you mean \"bf16\"?"},

		// Engine flags.
		{"flag id", strings.Replace(okFlag, "vllm-x", "vllm_x", 1) + okSource,
			"kb/x.toml:2: flag \"vllm_x\": ids are lower-case words joined by hyphens; for example id = \"vllm-max-num-seqs\""},
		{"flag engine", strings.Replace(okFlag, "engine = \"vllm\"", "engine = \"vlm\"", 1) + okSource,
			"kb/x.toml:3: flag \"vllm-x\" engine: unknown engine \"vlm\" (allowed: vllm, sglang, tensorrt-llm, llama-cpp); did you mean \"vllm\"?"},
		{"flag name without dashes", strings.Replace(okFlag, "\"--x\"", "\"x\"", 1) + okSource,
			"kb/x.toml:1: flag \"vllm-x\": needs name (as typed, with dashes) and effect; add name = \"--…\" and effect = \"…\""},
		{"flag status", strings.Replace(okFlag, "current", "curent", 1) + okSource,
			"kb/x.toml:6: flag \"vllm-x\" status: unknown status \"curent\" (allowed: current, deprecated, removed); did you mean \"current\"?"},
		{"removed flag without a version", strings.Replace(okFlag, "current", "removed", 1) + "replaced_by = \"vllm-max-num-seqs\"\n" + okSource,
			"kb/x.toml:1: flag \"vllm-x\" removed: a removed flag says when it was removed; add removed = \"v0.11.0\" (or the PR that removed it)"},
		{"current flag with a removed version", okFlag + "removed = \"v0.11.0\"\n" + okSource,
			"kb/x.toml:7: flag \"vllm-x\" removed: a current flag cannot have a removed version; set status = \"removed\""},
		{"flag replaced by an unknown flag", strings.Replace(okFlag, "current", "deprecated", 1) + "replaced_by = \"vllm-max-num-seq\"\n" + okSource,
			"kb/x.toml:7: flag \"vllm-x\" replaced_by: unknown flag \"vllm-max-num-seq\"; did you mean \"vllm-max-num-seqs\"?"},

		// Questions.
		{"question key", strings.Replace(okQ, "key = \"q\"", "key = \"Team-Size\"", 1) + "type = \"bool\"\ndefault = false\n",
			"kb/x.toml:2: question \"Team-Size\": keys are lower-case words joined by underscores; for example key = \"gpus_per_node\""},
		{"question type", okQ + "type = \"number\"\ndefault = 1\n",
			"kb/x.toml:6: question \"q\" type: unknown type \"number\" (allowed: int, bool, enum, list)"},
		{"question catalog", okQ + "type = \"enum\"\ncatalog = \"tpu\"\ndefault = \"x\"\n",
			"kb/x.toml:7: question \"q\" catalog: unknown catalog \"tpu\" (allowed: gpu, model); did you mean \"gpu\"?"},
		{"catalog question with values", okQ + "type = \"enum\"\ncatalog = \"gpu\"\nvalues = [\"h100\"]\ndefault = \"h100\"\n",
			"kb/x.toml:8: question \"q\": a catalog question takes its values from the catalog; remove values"},
		{"enum without values", okQ + "type = \"enum\"\ndefault = \"x\"\n",
			"kb/x.toml:1: question \"q\": an enum or list question needs values; add values = [\"…\", \"…\"]"},
		{"min on a bool", okQ + "type = \"bool\"\nmin = 1\ndefault = false\n",
			"kb/x.toml:7: question \"q\": min and max apply to int questions only; remove them"},
		{"min above max", okQ + "type = \"int\"\nmin = 5\nmax = 2\ndefault = 3\n",
			"kb/x.toml:7: question \"q\": min 5 is above max 2\nkb/x.toml:9: question \"q\" default: 3 is too small (allowed: a whole number from 5 to 2); use 5 or more"},
		{"derived key stackpick cannot compute", okQ + "type = \"int\"\nderived = true\n",
			"kb/x.toml:7: question \"q\": stackpick does not know how to compute this key (allowed: gpu_vendor, platform, replicas_per_model, total_gpus)"},
		{"derived key of the wrong type", "[[question]]\nkey = \"total_gpus\"\ntype = \"bool\"\nderived = true\nprompt = \"p\"\nwhy = \"w\"\n",
			"kb/x.toml:3: question \"total_gpus\": derived key total_gpus is of type int (allowed: int)"},
		{"question without why", "[[question]]\nkey = \"q\"\npage = \"Team\"\nprompt = \"p\"\ntype = \"bool\"\ndefault = false\n",
			"kb/x.toml:1: question \"q\": needs page, prompt and why; add page = \"…\", prompt = \"…\", why = \"…\""},
		{"question without default", okQ + "type = \"int\"\nmin = 1\n",
			"kb/x.toml:1: question \"q\": every question needs a default (allowed: a whole number ≥ 1); add default = …"},
		{"default not allowed", okQ + "type = \"enum\"\nvalues = [\"a\", \"b\"]\ndefault = \"c\"\n",
			"kb/x.toml:8: question \"q\" default: \"c\" is not an allowed value (allowed: a, b); did you mean \"a\"?"},

		// Products and their landmines.
		{"product id none", strings.Replace(okProd, "id = \"p\"", "id = \"none\"", 1),
			"kb/x.toml:2: product \"none\": \"none\" is built in (it means \"this layer is not needed\"); choose another id"},
		{"product id", strings.Replace(okProd, "id = \"p\"", "id = \"P\"", 1),
			"kb/x.toml:2: product \"P\": ids are lower-case words joined by hyphens; for example id = \"llm-d\""},
		{"product layer", strings.Replace(okProd, "orchestrator", "orchestrater", 1),
			"kb/x.toml:4: product \"p\" layer: unknown layer \"orchestrater\" (allowed: engine, model-server, orchestrator); did you mean \"orchestrator\"?"},
		{"product without role", strings.Replace(okProd, "role = \"r\"\n", "", 1),
			"kb/x.toml:1: product \"p\": needs name and role; add name = \"…\" and role = \"…\""},
		{"product without source", strings.Split(okProd, "[[product.source]]")[0],
			"kb/x.toml:1: product \"p\": needs a source; add [[product.source]] with kind = \"repo\" (and repo, commit, path), \"docs\" (a versioned url), \"pr\" or \"issue\" (repo, number; a PR's first_release), \"release\" (repo, ref) or \"notes\" (section), then quote = \"the exact words\" and checked_on = \"YYYY-MM-DD\""},
		{"product source without url", strings.Replace(okProd, "url = \"https://example.org/v1/p\"\n", "", 1),
			"kb/x.toml:6: product \"p\" source 1 url: a docs source needs its https:// URL; url = \"https://docs.vllm.ai/en/v0.31.0/…\" (a page that could not be found: its title, and checked = \"not available: why\")"},
		{"seed note without claim", okProd + "[[product.course_notes_outdated]]\ncurrent = \"c\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			"kb/x.toml:11: product \"p\" course-notes correction: needs claim and current"},
		{"landmine id taken", okProd + "[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			"kb/x.toml:12: product \"p\" landmine \"m\": landmine ids must be unique hyphenated words (first use: kb/x.toml:1)"},
		{"landmine without text", okProd + "[[product.landmine]]\nid = \"m\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			"kb/x.toml:11: product \"p\" landmine \"m\": needs text"},
		{"landmine condition on an unknown key", okProd + "[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[product.landmine.when]\nnode = { at_least = 2 }\n",
			"kb/x.toml:16: product \"p\" landmine \"m\" when.node: unknown answer key (allowed: nodes, gpus_per_node, gpu, accelerator_mix, replicas, substrate, total_gpus, gpu_vendor, replicas_per_model, platform, base_models, fine_tunes, fine_tune_method, adapter_routing, tenants, other_model_types, day0_architectures, context_tokens, model, weights_dtype, kv_cache_dtype, workload, prefix_reuse, structured_output, latency_priority, concurrent_requests, ttft_ms, itl_ms, request_pipeline, kubernetes, cache_aware_routing, disaggregation, gitops, traffic_splitting, governance, change_cadence, team_familiarity, ray_experience, orchestrator_experience, new_operator); did you mean \"nodes\"?"},

		// Rules.
		{"rule id", strings.Replace(okRule, "id = \"r\"", "id = \"R 1\"", 1),
			"kb/x.toml:2: rule \"R 1\": ids are lower-case words joined by hyphens; for example id = \"k8s-first-llm-d\""},
		{"rule layer", strings.Replace(okRule, "layer = \"engine\"", "layer = \"engines\"", 1),
			"kb/x.toml:3: rule \"r\" layer: unknown layer \"engines\" (allowed: engine, model-server, orchestrator); did you mean \"engine\"?"},
		{"rule effect", strings.Replace(strings.Replace(okRule, "effect = \"prefer\"", "effect = \"prefers\"", 1), "weight = 2\n", "", 1),
			"kb/x.toml:4: rule \"r\" effect: unknown effect \"prefers\" (allowed: prefer, require, exclude, complement); did you mean \"prefer\"?"},
		{"rule product", strings.Replace(okRule, "product = \"sglang\"", "product = \"sglng\"", 1),
			"kb/x.toml:5: rule \"r\" product: unknown product \"sglng\" (allowed: vllm, sglang, tensorrt-llm, llama-cpp, dynamo-triton, dynamo, llm-d, kserve, ray-serve, sgl-router, none); did you mean \"sglang\"?"},
		{"rule product on another layer", strings.Replace(okRule, "product = \"sglang\"", "product = \"kserve\"", 1),
			"kb/x.toml:5: rule \"r\" product: kserve is on the orchestrator layer, not engine"},
		{"none on a required layer", strings.Replace(strings.Replace(strings.Replace(okRule, "product = \"sglang\"", "product = \"none\"", 1), "effect = \"prefer\"", "effect = \"require\"", 1), "weight = 2\n", "", 1),
			"kb/x.toml:5: rule \"r\" product: the engine layer is never empty, so \"none\" is not a choice there"},
		{"prefer without weight", strings.Replace(okRule, "weight = 2\n", "", 1),
			"kb/x.toml:1: rule \"r\" weight: a prefer rule needs a non-zero weight (allowed: a whole number from -100 to 100 (negative counts against))"},
		{"weight out of range", strings.Replace(okRule, "weight = 2", "weight = 200", 1),
			"kb/x.toml:6: rule \"r\" weight: a prefer rule needs a non-zero weight (allowed: a whole number from -100 to 100 (negative counts against))"},
		{"weight on an exclude", strings.Replace(okRule, "effect = \"prefer\"", "effect = \"exclude\"", 1),
			"kb/x.toml:6: rule \"r\" weight: only prefer rules have a weight; remove weight, or use effect = \"prefer\""},
		{"complement without with", strings.Replace(strings.Replace(okRule, "effect = \"prefer\"", "effect = \"complement\"", 1), "weight = 2\n", "", 1),
			"kb/x.toml:1: rule \"r\": a complement rule names the pick it completes (allowed: a product id on the same layer); add with = \"…\""},
		{"complement with itself", strings.Replace(strings.Replace(okRule, "effect = \"prefer\"", "effect = \"complement\"", 1), "weight = 2\n", "with = \"sglang\"\n", 1),
			"kb/x.toml:6: rule \"r\" with: a product cannot complement itself"},
		{"complement on another layer", "[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"vllm\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			"kb/x.toml:6: rule \"c\" with: vllm is on the engine layer, not orchestrator"},
		{"complement of none", "[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"none\"\nreason = \"r\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n",
			"kb/x.toml:5: rule \"c\": \"none\" cannot complement or be complemented"},
		{"with on a prefer", okRule + "with = \"vllm\"\n",
			"kb/x.toml:9: rule \"r\" with: only complement rules have with; remove with, or use effect = \"complement\""},
		{"rule without reason", strings.Replace(okRule, "reason = \"why\"\n", "", 1),
			"kb/x.toml:1: rule \"r\": every rule needs a one-sentence reason; add reason = \"…\""},
		// Sources: structured, checkable records.
		{"a free-text source", strings.Replace(okRule, "source = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]", "source = \"my notes, 2026\"", 1),
			"kb/x.toml:8: rule.source: a source is a table of checkable fields, not free text; write [[rule.source]] with kind = \"repo\" (and repo, commit, path), \"docs\" (a versioned url), \"pr\" or \"issue\" (repo, number; a PR's first_release), \"release\" (repo, ref) or \"notes\" (section), then quote = \"the exact words\" and checked_on = \"YYYY-MM-DD\""},
		{"an old as_of beside a source", okRule + "as_of = \"2026-09\"\n",
			"kb/x.toml:9: rule.as_of: unknown key (allowed: id, layer, effect, product, weight, with, reason, source, when, stack, tag); a fact's dates live in its source now: checked_on (the day it was read) and source_date (the source's own date) in [[rule.source]]"},
		{"a source of no known kind", okRuleWith("kind = \"blog\"\nurl = \"https://example.org/post\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:9: rule \"r\" source 1 kind: unknown source kind \"blog\"; one of repo, docs, pr, issue, release, notes"},
		{"a docs URL under /stable/", okRuleWith("kind = \"docs\"\nurl = \"https://docs.vllm.ai/en/stable/cli/serve/\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:10: rule \"r\" source 1 url: \"https://docs.vllm.ai/en/stable/cli/serve/\" is an unversioned docs URL (/stable/ moves with every release); cite the page of the release the fact is claimed for, e.g. /en/v0.31.0/ instead of /en/stable/"},
		{"a docs URL under /latest/", okRuleWith("kind = \"docs\"\nurl = \"https://docs.ray.io/en/latest/serve/index.html\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:10: rule \"r\" source 1 url: \"https://docs.ray.io/en/latest/serve/index.html\" is an unversioned docs URL (/latest/ moves with every release); cite the page of the release the fact is claimed for, e.g. /en/v0.31.0/ instead of /en/latest/"},
		{"a repository source without a quote", okRuleWith("kind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"a.py\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:8: rule \"r\" source 1 quote: a source needs the exact words read there; quote = \"…\" (an exact substring of the source), or checked = \"not available: why\""},
		{"a repository source without its commit", okRuleWith("kind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123abc\"\npath = \"a.py\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:11: rule \"r\" source 1 commit: \"0123abc\" is not a 40-hex commit; the full commit id the file was read at, in lower case (git rev-parse HEAD)"},
		{"a repository source that is not owner/name", okRuleWith("kind = \"repo\"\nrepo = \"vllm\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"a.py\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:10: rule \"r\" source 1 repo: \"vllm\" is not owner/name; repo = \"vllm-project/vllm\""},
		{"a pull request without its first release", okRuleWith("kind = \"pr\"\nrepo = \"o/p\"\nnumber = 12\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:8: rule \"r\" source 1 first_release: a pull request needs the first release that contains it; first_release = \"v0.11.0\" (or \"unreleased\", \"not merged\")"},
		{"a course-notes source without its section", okRuleWith("kind = \"notes\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:8: rule \"r\" source 1 section: a course-notes source needs the section's title; section = \"When to pick vLLM\""},
		{"a check result that is not one", okRuleWith("kind = \"notes\"\nsection = \"s\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\nchecked = \"yes\"\n"),
			"kb/x.toml:13: rule \"r\" source 1 checked: \"yes\" is not a check result; leave checked out when the source was read, or checked = \"not available: why\""},
		{"a source dated after it was read", okRuleWith("kind = \"notes\"\nsection = \"s\"\nquote = \"q\"\nsource_date = \"2027-01\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:12: rule \"r\" source 1 source_date: the source is dated 2027-01, after it was checked on 2026-12-01; a source cannot be newer than the day it was read"},
		{"a ref that is a branch", okRuleWith("kind = \"repo\"\nrepo = \"o/p\"\nref = \"main\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"a.py\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:11: rule \"r\" source 1 ref: \"main\" is a branch, not a release; ref names the release tag the fact is claimed for (v0.31.0); leave it out when the commit is in no release, and pin the commit"},
		{"a source written as one table", strings.Replace(strings.Replace(okRule, "source = [{", "source = {", 1), "}]\n", "}\n", 1),
			"kb/x.toml:8: rule.source: a fact's sources are a list of tables: this is one table; write it as [[rule.source]] (a table per source), or source = [{ … }]"},
		{"the second source is the bad one", okRuleWith("kind = \"notes\"\nsection = \"s\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n[[rule.source]]\nkind = \"docs\"\nurl = \"https://docs.example.org/main/x\"\nquote = \"q\"\nchecked_on = \"2026-12-01\"\n"),
			"kb/x.toml:15: rule \"r\" source 2 url: \"https://docs.example.org/main/x\" is an unversioned docs URL (/main/ moves with every release); cite the page of the release the fact is claimed for, e.g. /en/v0.31.0/ instead of /en/main/"},

		// Conditions.
		{"condition on an unknown key", okRule + "[rule.when]\nkubernets = { equals = \"required\" }\n",
			"kb/x.toml:10: rule \"r\" when.kubernets: unknown answer key (allowed: nodes, gpus_per_node, gpu, accelerator_mix, replicas, substrate, total_gpus, gpu_vendor, replicas_per_model, platform, base_models, fine_tunes, fine_tune_method, adapter_routing, tenants, other_model_types, day0_architectures, context_tokens, model, weights_dtype, kv_cache_dtype, workload, prefix_reuse, structured_output, latency_priority, concurrent_requests, ttft_ms, itl_ms, request_pipeline, kubernetes, cache_aware_routing, disaggregation, gitops, traffic_splitting, governance, change_cadence, team_familiarity, ray_experience, orchestrator_experience, new_operator); did you mean \"kubernetes\"?"},
		{"number condition given a word", okRule + "[rule.when]\nnodes = { at_least = 2, equals = \"two\" }\n",
			"kb/x.toml:10: rule \"r\" when.nodes.equals: nodes is a number; got the string \"two\" (allowed: a whole number from 1 to 100000)"},
		{"bool condition given a word", okRule + "[rule.when]\ngitops = { equals = \"yes\" }\n",
			"kb/x.toml:10: rule \"r\" when.gitops.equals: gitops is true or false; got the string \"yes\" (allowed: true, false)"},
		{"enum condition given a number", okRule + "[rule.when]\nkubernetes = { equals = 1 }\n",
			"kb/x.toml:10: rule \"r\" when.kubernetes.equals: kubernetes takes quoted words; got the number 1 (allowed: none, available, required)"},
		{"value the question does not allow", okRule + "[rule.when]\ngpu = { equals = \"h10\" }\n",
			"kb/x.toml:10: rule \"r\" when.gpu.equals: \"h10\" is not a value of gpu (allowed: h100, h200, b200, a100-80gb, a100-40gb, l40s, l4, rtx-a6000, mi300x, rtx-4090, cpu, mi325x, mi355x, b300, gaudi3, tpu-v6e, m3-ultra-512gb); did you mean \"h100\"?"},
		{"list equals given a word", okRule + "[rule.when]\nother_model_types = { equals = \"vision\" }\n",
			"kb/x.toml:10: rule \"r\" when.other_model_types.equals: other_model_types is a list; equals needs a list, got the string \"vision\" (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech); to test membership use one_of = [\"…\"]"},
		{"empty one_of", okRule + "[rule.when]\nkubernetes = { one_of = [] }\n",
			"kb/x.toml:10: rule \"r\" when.kubernetes.one_of: one_of needs at least one value (allowed: none, available, required)"},
		{"at_least on an enum", okRule + "[rule.when]\nkubernetes = { at_least = 1 }\n",
			"kb/x.toml:10: rule \"r\" when.kubernetes.at_least: at_least applies to numbers and lists; kubernetes is enum (allowed: equals, one_of)"},
		{"condition without an operator", okRule + "[rule.when]\nnodes = {}\n",
			"kb/x.toml:10: rule \"r\" when.nodes: condition has no operator (allowed: equals, one_of, at_least, at_most); for example nodes = { equals = … }"},
		{"number range that is empty", okRule + "[rule.when]\nnodes = { at_least = 5, at_most = 2 }\n",
			"kb/x.toml:10: rule \"r\" when.nodes: can never fire: no nodes is both ≥ 5 and ≤ 2 (allowed: a whole number from 1 to 100000)"},
		{"number outside the question's range", okRule + "[rule.when]\ngpus_per_node = { at_least = 65 }\n",
			"kb/x.toml:10: rule \"r\" when.gpus_per_node: can never fire: no gpus_per_node is both ≥ 65 and ≤ 64 (allowed: a whole number from 0 to 64)"},
		{"one_of outside the range", okRule + "[rule.when]\nnodes = { one_of = [1, 2], at_least = 3 }\n",
			"kb/x.toml:10: rule \"r\" when.nodes: can never fire: none of one_of lies between 3 and 100000 (allowed: a whole number from 1 to 100000)"},
		{"enum conditions that exclude each other", okRule + "[rule.when]\nkubernetes = { equals = \"none\", one_of = [\"available\", \"required\"] }\n",
			"kb/x.toml:10: rule \"r\" when.kubernetes: can never fire: no value of kubernetes meets all of its conditions (allowed: none, available, required)"},
		{"list longer than its values", okRule + "[rule.when]\nother_model_types = { at_least = 7 }\n",
			"kb/x.toml:10: rule \"r\" when.other_model_types: can never fire: other_model_types can hold 0 to 6 items, never both ≥ 7 and ≤ 6 (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech)"},
		{"list equals and one_of apart", okRule + "[rule.when]\nother_model_types = { equals = [\"vision\"], one_of = [\"tabular\"] }\n",
			"kb/x.toml:10: rule \"r\" when.other_model_types: can never fire: equals and one_of share no value (allowed: a list of vision, tabular, classical-ml, embedding, reranker, speech)"},
		{"derived platform the answers cannot give", okRule + "[rule.when]\nkubernetes = { equals = \"none\" }\nplatform = { equals = \"openshift\" }\n",
			"kb/x.toml:9: rule \"r\" when: can never fire: no substrate and kubernetes answers that agree give a platform that meets its condition"},
		{"derived vendor no gpu gives", okRule + "[rule.when]\ngpu = { equals = \"mi300x\" }\ngpu_vendor = { equals = \"nvidia\" }\n",
			"kb/x.toml:9: rule \"r\" when: can never fire: no gpu and gpus_per_node allowed here give a gpu_vendor that meets its condition"},
		{"pairing a stack that cannot deploy", "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"tensorrt-llm\"\nweight = 2\nreason = \"x\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[rule.stack]\norchestrator = [\"llm-d\"]\n",
			"kb/x.toml:9: rule \"r\" stack: it pairs llm-d with tensorrt-llm, but llm-d runs vllm, sglang (knowledge/data/orchestrator-2-llm-d.toml:320): that stack cannot be deployed; drop the pairing, or record the capability with its source in capabilities.toml"},
		{"a reason that asserts what its conditions deny", "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"vllm\"\nweight = 2\nreason = \"On Kubernetes, vLLM.\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n[rule.when]\nnodes = { at_least = 2 }\n",
			"kb/x.toml:7: rule \"r\" reason: the reason says \"on Kubernetes\" (the platform runs Kubernetes), but its conditions do not test kubernetes (the claim needs kubernetes ∈ available|required); add the condition to [rule.when] (or [rule.stack]), or reword the reason"},
		{"derived total out of reach", okRule + "[rule.when]\nnodes = { at_most = 2 }\ngpus_per_node = { at_most = 8 }\ntotal_gpus = { at_least = 17 }\n",
			"kb/x.toml:9: rule \"r\" when: can never fire: nodes × gpus_per_node lies between 0 and 16 here, never between 17 and 1073741824 as total_gpus requires"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			if strings.Contains(src, okProd[:40]) && !strings.Contains(src, "[[tiebreak]]") {
				src += placeP // an added product takes a place in the declared tie-break
			}
			_, err := Build(Embedded(), []SourceFile{{Name: "kb/x.toml", Data: []byte(src)}})
			got := "<nil>"
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
