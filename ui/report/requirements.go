package report

import (
	"fmt"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// RequirementGroup is the stated answers of one questionnaire page, in
// words: "Fleet", ["4 GPU nodes", "8 accelerators per node", …].
type RequirementGroup struct {
	Page    string
	Phrases []string
}

// Requirements words the answers the user stated (never the defaults),
// grouped by the questionnaire's pages, in question order. Derived answers
// are left out: they follow from the stated ones.
func Requirements(kb *knowledge.KB, a knowledge.Answers) []RequirementGroup {
	var out []RequirementGroup
	for i, q := range kb.Questions {
		if q.Derived || !a.Stated(i) {
			continue
		}
		phrase := AnswerPhrase(kb, q, a.Values()[i])
		if head, rest, ok := strings.Cut(phrase, ": "); ok && strings.HasPrefix(strings.ToLower(q.Page), head) {
			phrase = rest // "Models: Llama 3.1 8B Instruct", not "Models: model: …"
		}
		if len(out) == 0 || out[len(out)-1].Page != q.Page {
			out = append(out, RequirementGroup{Page: q.Page})
		}
		g := &out[len(out)-1]
		g.Phrases = append(g.Phrases, phrase)
	}
	return out
}

// AnswerPhrase says one answer in words, as a requirement: "4 GPU nodes",
// "time to first token at most 500 ms (p95)", "Kubernetes-native is a
// requirement". An answer this wording does not know (a question from a
// knowledge overlay) reads as its question and value.
func AnswerPhrase(kb *knowledge.KB, q *knowledge.Question, v knowledge.Value) string {
	yes := func(on, off string) string {
		if v.Bool {
			return on
		}
		return off
	}
	switch q.Key {
	case knowledge.KeyNodes:
		return count(v.Int, "GPU node", "GPU nodes")
	case knowledge.KeyGPUsPerNode:
		if v.Int == 0 {
			return "no accelerators (CPU only)"
		}
		return count(v.Int, "accelerator per node", "accelerators per node")
	case knowledge.KeyGPU:
		if g := kb.GPU(v.Str); g != nil {
			return "accelerator: " + g.Name
		}
	case knowledge.DerivedTotalGPUs:
		return count(v.Int, "accelerator in all", "accelerators in all")
	case knowledge.DerivedGPUVendor:
		if v.Str == "none" {
			return "no accelerators"
		}
		names := map[string]string{"nvidia": "NVIDIA", "amd": "AMD", "apple": "Apple", "intel": "Intel", "google": "Google"}
		if n, ok := names[v.Str]; ok {
			return n + " accelerators"
		}
		return v.Str + " accelerators"
	case knowledge.DerivedReplicasPerModel:
		return count(v.Int, "replica of each model", "replicas of each model")
	case knowledge.DerivedPlatform:
		return "runs on " + v.Str
	case knowledge.KeyAcceleratorMix:
		return labelWords(q, v.Str)
	case knowledge.KeyReplicas:
		if v.Int == 0 {
			return "replicas worked out from nodes ÷ base models"
		}
		return count(v.Int, "replica of each model", "replicas of each model")
	case knowledge.KeySubstrate:
		return "runs on " + labelWords(q, v.Str)
	case knowledge.KeyBaseModels:
		return count(v.Int, "base model", "distinct base models")
	case "fine_tunes":
		if v.Int == 0 {
			return "no fine-tunes"
		}
		return count(v.Int, "fine-tune", "fine-tunes")
	case "fine_tune_method":
		switch v.Str {
		case "lora":
			return "fine-tunes are LoRA adapters"
		case "full":
			return "fine-tunes are full-weight models"
		case "none":
			return "no fine-tuning method"
		}
	case "adapter_routing":
		return yes("each request must reach a replica that holds its LoRA adapter", "no adapter-aware routing")
	case "tenants":
		return count(v.Int, "tenant", "customer tenants")
	case "other_model_types":
		if len(v.List) == 0 {
			return "LLMs only"
		}
		return "also serves " + joinAnd(v.List) + " models"
	case "day0_architectures":
		return yes("new model architectures served on the day they are released", "no day-0 architecture support")
	case "context_tokens":
		return "contexts up to " + thousands(v.Int) + " tokens"
	case knowledge.KeyModel:
		if m := kb.Model(v.Str); m != nil {
			return "model: " + m.Name
		}
	case "weights_dtype":
		return "weights: " + labelWords(q, v.Str)
	case "kv_cache_dtype":
		return "KV cache: " + labelWords(q, v.Str)
	case "workload":
		return labelWords(q, v.Str) + " traffic"
	case "prefix_reuse":
		return v.Str + " prefix reuse"
	case "structured_output":
		return yes("heavy structured output (JSON schema, grammars)", "no heavy structured output")
	case "latency_priority":
		switch v.Str {
		case "latency":
			return "latency per request first"
		case "throughput":
			return "total throughput first"
		case "balanced":
			return "latency and throughput balanced"
		}
	case "concurrent_requests":
		if v.Int == 0 {
			return "peak concurrency not known"
		}
		return count(v.Int, "request", "requests") + " in flight at peak"
	case "ttft_ms":
		if v.Int == 0 {
			return "no time-to-first-token target"
		}
		return "time to first token at most " + thousands(v.Int) + " ms (p95)"
	case "itl_ms":
		if v.Int == 0 {
			return "no inter-token latency target"
		}
		return "inter-token latency at most " + thousands(v.Int) + " ms (p95)"
	case "request_pipeline":
		return yes("one request composes several models", "one model per request")
	case knowledge.KeyKubernetes:
		switch v.Str {
		case "required":
			return "Kubernetes-native is a requirement"
		case "available":
			return "Kubernetes is available, not a must"
		case "none":
			return "no Kubernetes"
		}
	case "cache_aware_routing":
		return yes("each request must reach the replica that holds its prefix (cache-aware routing)", "no cache-aware routing")
	case "disaggregation":
		return yes("prefill/decode disaggregation planned", "no prefill/decode disaggregation")
	case "gitops":
		return yes("deployments managed by GitOps", "no GitOps")
	case "traffic_splitting":
		return yes("traffic splitting (canary, A/B) for upgrades", "no traffic splitting")
	case "governance":
		switch v.Str {
		case "any":
			return "no governance constraint"
		default:
			return "governance: " + labelWords(q, v.Str)
		}
	case "change_cadence":
		if v.Str == "frozen" {
			return "models and hardware stay frozen"
		}
		return "models or hardware change " + v.Str
	case "team_familiarity":
		if v.Str == "none" {
			return "no engine the team already runs well"
		}
		return "the team already runs " + kb.ProductName(v.Str) + " well"
	case "ray_experience":
		switch v.Str {
		case "none":
			return "no Ray experience"
		case "good":
			return "good experience operating Ray"
		case "bad":
			return "bad experience operating Ray"
		}
	case "orchestrator_experience":
		if v.Str == "none" {
			return "no fleet orchestrator the team already runs"
		}
		return "the team already runs " + kb.ProductName(v.Str)
	case "new_operator":
		return yes("the team can own another Kubernetes operator", "no new Kubernetes operator to own")
	}
	prompt := strings.TrimSpace(q.Prompt)
	if i := strings.Index(prompt, " ("); i > 0 {
		prompt = prompt[:i]
	}
	return strings.TrimSuffix(prompt, "?") + ": " + v.Plain(q.Type)
}

// labelWords is a value's label without its leading "value: ", or the
// value itself: "a cloud's managed Kubernetes (EKS, GKE, AKS)".
func labelWords(q *knowledge.Question, v string) string {
	if l, ok := q.Labels[v]; ok {
		if _, rest, found := strings.Cut(l, ": "); found {
			return rest
		}
		return l
	}
	return v
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// thousands writes n with comma separators: 8,192.
func thousands(n int) string { return sizing.Thousands(int64(n)) }

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// DefaultMemoTitle is a decision's title when none was given: "Serve
// Llama 3.3 70B with vLLM and llm-d + KServe".
func DefaultMemoTitle(kb *knowledge.KB, d decide.Decision) string {
	var models []string
	for _, sv := range d.Serves {
		for _, id := range sv.Models {
			if m := kb.Model(id); m != nil {
				id = m.Name
			}
			models = append(models, id)
		}
	}
	if len(models) == 0 {
		models = []string{"the models"}
	}
	var picks []string
	for _, lp := range d.Layers {
		if lp.Pick != knowledge.None || len(lp.Also) > 0 {
			picks = append(picks, PickText(kb, lp))
		}
	}
	if len(picks) == 0 {
		return "Serve " + joinAnd(models) + ": no stack fits"
	}
	return "Serve " + joinAnd(models) + " with " + joinAnd(picks)
}

// DefaultProblem is the problem statement when none was given: the
// question the decision answers, for this fleet and model.
func DefaultProblem(kb *knowledge.KB, a knowledge.Answers) string {
	model := a.Get(knowledge.KeyModel).Str
	if m := kb.Model(model); m != nil {
		model = m.Name
	}
	fleet := count(a.Get(knowledge.KeyNodes).Int, "node", "nodes")
	if gpn := a.Get(knowledge.KeyGPUsPerNode).Int; gpn == 0 {
		fleet += " without accelerators"
	} else {
		gpu := a.Get(knowledge.KeyGPU).Str
		if g := kb.GPU(gpu); g != nil {
			gpu = g.Name
		}
		fleet += fmt.Sprintf(" with %d × %s", gpn, gpu)
	}
	return fmt.Sprintf("Which engine, model server and orchestrator should serve %s on %s, and why?", model, fleet)
}
