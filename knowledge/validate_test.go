package knowledge

import (
	"strings"
	"testing"
)

// Overlay items that are valid but for the one thing a case changes.
const (
	okSource = "source = \"s\"\nas_of = \"2026-11\"\n"
	okRule   = "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"sglang\"\nweight = 2\nreason = \"why\"\nsource = \"s\"\n"
	okGPU    = "[[gpu]]\nid = \"g\"\nname = \"G\"\nvendor = \"nvidia\"\nmemory_gib = 80.0\nbandwidth_tbs = 3.0\n"
	okModel  = "[[model]]\nid = \"m\"\nname = \"M\"\nhf_id = \"o/m\"\nparams_b = 1.0\nlayers = 4\nattention_heads = 8\nkv_heads = 4\nhead_dim = 64\nhidden_size = 512\nintermediate_size = 1024\nvocab_size = 32000\nnative_context = 4096\nnative_dtype = \"bf16\"\n"
	okFlag   = "[[flag]]\nid = \"vllm-x\"\nengine = \"vllm\"\nname = \"--x\"\neffect = \"e\"\nstatus = \"current\"\n"
	okQ      = "[[question]]\nkey = \"q\"\npage = \"Team\"\nprompt = \"p\"\nwhy = \"w\"\n"
	placeP   = "[[tiebreak]]\nid = \"orchestrator-order\"\ncriterion = \"order\"\nlayer = \"orchestrator\"\norder = [\"none\", \"llm-d\", \"kserve\", \"dynamo\", \"ray-serve\", \"sgl-router\", \"p\"]\nargument = \"a\"\nsource = \"s\"\n"
	okProd   = "[[product]]\nid = \"p\"\nname = \"P\"\nlayer = \"orchestrator\"\nrole = \"r\"\n[[product.source]]\ntitle = \"t\"\nurl = \"u\"\nas_of = \"2026-11\"\n"
)

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
			"kb/x.toml:4: rule.efect: unknown key (allowed: id, layer, effect, product, weight, with, reason, source, as_of, when); did you mean \"effect\"?"},
		{"unknown table", "[[rules]]\nid = \"a\"\n",
			"kb/x.toml:1: rules: unknown key (allowed: layer, product, question, rule, gpu, model, flag); did you mean \"rule\"?\nkb/x.toml:2: rules.id: unknown key"},
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
		{"gpu without source", okGPU + "as_of = \"2026-11\"\n",
			"kb/x.toml:1: gpu \"g\": needs name and source; add name = \"…\" and source = \"…\""},
		{"gpu memory negative", strings.Replace(okGPU, "80.0", "-1.0", 1) + okSource,
			"kb/x.toml:5: gpu \"g\": memory and bandwidth cannot be negative"},
		{"gpu non-torch memory above the GPU's", okGPU + "non_torch_gib = 90.0\nnon_torch_source = \"x\"\n" + okSource,
			"kb/x.toml:7: gpu \"g\": non-torch memory must be ≥ 0 and well below the GPU's memory"},
		{"gpu non-torch memory without a source", okGPU + "non_torch_gib = 2.0\n" + okSource,
			"kb/x.toml:7: gpu \"g\": a non-torch memory figure needs a source; add non_torch_source = \"…\""},
		{"as_of not a date", okGPU + "source = \"s\"\nas_of = \"Nov 2026\"\n",
			"kb/x.toml:8: gpu \"g\" as_of: as_of \"Nov 2026\" is not a date (allowed: YYYY-MM or YYYY-MM-DD); for example as_of = \"2026-09\""},

		// The model catalog.
		{"model id", strings.Replace(okModel, "id = \"m\"", "id = \"M 1\"", 1) + okSource,
			"kb/x.toml:2: model \"M 1\": model ids are lower-case words joined by hyphens or dots; for example id = \"llama-3.1-8b\""},
		{"model without hf_id", strings.Replace(okModel, "hf_id = \"o/m\"\n", "", 1) + okSource,
			"kb/x.toml:1: model \"m\": needs name, hf_id and source; add name = \"…\", hf_id = \"org/model\", source = \"…\""},
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
		{"model dtype", strings.Replace(okModel, "\"bf16\"", "\"fp16\"", 1) + okSource,
			"kb/x.toml:14: model \"m\" native_dtype: unknown native_dtype \"fp16\" (allowed: bf16, fp8, mxfp4); did you mean \"bf16\"?"},

		// Engine flags.
		{"flag id", strings.Replace(okFlag, "vllm-x", "vllm_x", 1) + okSource,
			"kb/x.toml:2: flag \"vllm_x\": ids are lower-case words joined by hyphens; for example id = \"vllm-max-num-seqs\""},
		{"flag engine", strings.Replace(okFlag, "engine = \"vllm\"", "engine = \"vlm\"", 1) + okSource,
			"kb/x.toml:3: flag \"vllm-x\" engine: unknown engine \"vlm\" (allowed: vllm, sglang, tensorrt-llm); did you mean \"vllm\"?"},
		{"flag name without dashes", strings.Replace(okFlag, "\"--x\"", "\"x\"", 1) + okSource,
			"kb/x.toml:1: flag \"vllm-x\": needs name (as typed, with dashes), effect and source; add name = \"--…\", effect = \"…\", source = \"…\""},
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
			"kb/x.toml:1: product \"p\": needs at least one source; add [[product.source]] with title, url and as_of"},
		{"product source without url", strings.Replace(okProd, "url = \"u\"\n", "", 1),
			"kb/x.toml:6: product \"p\" source: a source needs a url"},
		{"seed note without claim", okProd + "[[product.seed_outdated]]\ncurrent = \"c\"\nsource = \"s\"\nas_of = \"2026-11\"\n",
			"kb/x.toml:10: product \"p\" seed_outdated: needs claim, current and source"},
		{"landmine id taken", okProd + "[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = \"s\"\nas_of = \"2026-11\"\n[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = \"s\"\nas_of = \"2026-11\"\n",
			"kb/x.toml:11: product \"p\" landmine \"m\": landmine ids must be unique hyphenated words (first use: kb/x.toml:1)"},
		{"landmine without text", okProd + "[[product.landmine]]\nid = \"m\"\nsource = \"s\"\nas_of = \"2026-11\"\n",
			"kb/x.toml:10: product \"p\" landmine \"m\": needs text and source"},
		{"landmine condition on an unknown key", okProd + "[[product.landmine]]\nid = \"m\"\ntext = \"t\"\nsource = \"s\"\nas_of = \"2026-11\"\n[product.landmine.when]\nnode = { at_least = 2 }\n",
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
		{"complement on another layer", "[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"vllm\"\nreason = \"r\"\nsource = \"s\"\n",
			"kb/x.toml:6: rule \"c\" with: vllm is on the engine layer, not orchestrator"},
		{"complement of none", "[[rule]]\nid = \"c\"\nlayer = \"orchestrator\"\neffect = \"complement\"\nproduct = \"kserve\"\nwith = \"none\"\nreason = \"r\"\nsource = \"s\"\n",
			"kb/x.toml:5: rule \"c\": \"none\" cannot complement or be complemented"},
		{"with on a prefer", okRule + "with = \"vllm\"\n",
			"kb/x.toml:9: rule \"r\" with: only complement rules have with; remove with, or use effect = \"complement\""},
		{"rule without reason", strings.Replace(okRule, "reason = \"why\"\n", "", 1),
			"kb/x.toml:1: rule \"r\": every rule needs a one-sentence reason and a source; add reason = \"…\" and source = \"…\""},
		{"rule as_of", okRule + "as_of = \"soon\"\n",
			"kb/x.toml:9: rule \"r\" as_of: as_of \"soon\" is not a date (allowed: YYYY-MM or YYYY-MM-DD); for example as_of = \"2026-09\""},

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
		{"pairing a stack that cannot deploy", "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"tensorrt-llm\"\nweight = 2\nreason = \"x\"\nsource = \"s\"\n[rule.stack]\norchestrator = [\"llm-d\"]\n",
			"kb/x.toml:9: rule \"r\" stack: it pairs llm-d with tensorrt-llm, but llm-d runs vllm, sglang (knowledge/data/capabilities.toml:129): that stack cannot be deployed; drop the pairing, or record the capability with its source in capabilities.toml"},
		{"a reason that asserts what its conditions deny", "[[rule]]\nid = \"r\"\nlayer = \"engine\"\neffect = \"prefer\"\nproduct = \"vllm\"\nweight = 2\nreason = \"On Kubernetes, vLLM.\"\nsource = \"s\"\n[rule.when]\nnodes = { at_least = 2 }\n",
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
