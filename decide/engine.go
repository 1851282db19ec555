package decide

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/decide/sizing"
	"github.com/stackpick/stackpick/knowledge"
)

// EngineConfig is the sized engine and its annotated launch command: every
// emitted flag with a one-line defense carrying its numbers, the flags left
// at their defaults, and the course notes' flags that no longer exist with what
// replaced them. It is filled for a vLLM or SGLang pick; for other engines
// Covered is false and Note says what is not covered.
type EngineConfig struct {
	Engine        string `json:"engine"`
	Covered       bool   `json:"covered"`
	Note          string `json:"note,omitempty"`
	EngineVersion string `json:"engine_version,omitempty"`
	// Release is the engine release (its tag, "v0.31.0") the command is
	// written for: every flag it emits has a source at that release.
	Release string         `json:"release,omitempty"`
	Model   string         `json:"model,omitempty"`
	HFID    string         `json:"hf_id,omitempty"`
	GPU     string         `json:"gpu,omitempty"`
	Sizing  *sizing.Result `json:"sizing,omitempty"`
	Tried   []sizing.Tried `json:"tried,omitempty"`
	// Command is the launch command, one flag per entry, in order.
	Command     []LaunchFlag `json:"command"`
	CommandText string       `json:"command_text,omitempty"`
	// Defaults lists flags deliberately left out because the default is right.
	Defaults []FlagNote `json:"defaults_kept"`
	// Replaced lists flags the seed names that must not be emitted any more.
	Replaced []FlagNote `json:"course_notes_flags_replaced"`
	Notes    []string   `json:"notes"`
	// Roles holds one command per role when prefill and decode run as
	// separate instances (disaggregation); empty otherwise.
	Roles []RoleCommand `json:"roles,omitempty"`
	// Servers is how many copies of the launch command the fleet runs for
	// this model (a container or pod each; with roles, the roles'
	// Instances add up to it), GPUsPerServer how many GPUs each takes, and
	// ServersWhy the arithmetic: what a manifest's replicas and GPU
	// requests are written from.
	Servers       int    `json:"servers,omitempty"`
	GPUsPerServer int    `json:"gpus_per_server,omitempty"`
	ServersWhy    string `json:"servers_why,omitempty"`
	// instances is how many instances of this model the fleet holds, set
	// when prefill and decode run apart (the roles' split starts from it).
	instances int
}

// RoleCommand is the whole launch command of one role of a disaggregated
// fleet: the shared flags and the role's own.
type RoleCommand struct {
	Role        string `json:"role"`
	CommandText string `json:"command_text"`
	// Instances is how many of the fleet's instances start in this role:
	// a starting point, not sized (see Split).
	Instances int `json:"instances,omitempty"`
	// Split says how the instances divide between the roles and that the
	// division is a starting point stackpick does not size.
	Split string `json:"split,omitempty"`
}

// LaunchFlag is one line of the launch command with its defense.
type LaunchFlag struct {
	Flag    string `json:"flag"`
	Value   string `json:"value,omitempty"`
	FlagID  string `json:"flag_id"`
	Defense string `json:"defense"`
	// Role is "prefill" or "decode" for a flag only that role's instances
	// take; "" for a flag every instance takes.
	Role string `json:"role,omitempty"`
	// Source is where the flag's name, default and effect were read, in
	// the short form (8-hex commits), from the flag's record: what a
	// reader checks the flag against.
	Source string `json:"source,omitempty"`
}

// FlagNote explains a flag that is not in the command.
type FlagNote struct {
	Flag       string `json:"flag"`
	FlagID     string `json:"flag_id"`
	Status     string `json:"status"`
	Note       string `json:"note"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	Source     string `json:"source,omitempty"`
}

// latency_priority → (max-num-seqs, max-num-batched-tokens, headroom): the
// batch a replica is tuned for and how many full-context requests its KV
// pool must hold before a tensor-parallel size counts as fitting. The
// workload adjusts it (see adjustForWorkload).
type batchPlan struct {
	seqs, tokens, minConcurrency int
	why                          string
	// workload is the workload's own reason for the step budget, said in
	// the step budget's defense ("" when the workload changes nothing).
	workload string
	// concWhy says why minConcurrency is below the plan's own: the stated
	// concurrent_requests asks for fewer ("" otherwise).
	concWhy string
}

func planFor(priority string, d sizing.Defaults) batchPlan {
	switch priority {
	case knowledge.LatencyFirst:
		return batchPlan{seqs: min(64, d.MaxNumSeqs), tokens: 2048, minConcurrency: 4,
			why: "latency first: small batches and a 2048-token step keep inter-token latency low"}
	case knowledge.ThroughputFirst:
		return batchPlan{seqs: d.MaxNumSeqs, tokens: max(d.MaxNumBatchedTokens, 16384), minConcurrency: 16,
			why: "throughput first: the largest batches the KV pool can feed"}
	default: // knowledge.LatencyBalanced; the load check admits no other value
		return batchPlan{seqs: min(256, d.MaxNumSeqs), tokens: d.MaxNumBatchedTokens, minConcurrency: 8,
			why: "balanced: at most 256 running requests (or the engine's default, if lower), a middle ground between latency first's 64 and throughput first's engine default"}
	}
}

// Step budgets the workloads ask for: rag's long retrieved prompts and
// scoring's prefill-only requests want a prompt prefilled in few steps;
// scoringMaxStep bounds the activation reserve a whole-prompt step costs.
const (
	longPromptStep = 16384
	scoringMaxStep = 32768
	// partialPrefills is how many prompts mixed traffic lets vLLM prefill
	// at once, of which one may be long: short prompts pass a long one.
	partialPrefills = 4
)

// intent is what the answers ask of the engine beyond memory: the workload,
// latency targets, the traffic, and whether prefill and decode run apart.
type intent struct {
	priority, workload        string
	ttftMs, itlMs, concurrent int
	disaggregation            bool
	latencyStated             bool
	// replicas is replicas_per_model: the replicas concurrent_requests is
	// spread over.
	replicas int
}

func intentOf(a knowledge.Answers) intent {
	it := intent{priority: a.Get(knowledge.KeyLatencyPriority).Str, workload: a.Get(knowledge.KeyWorkload).Str,
		ttftMs: a.Get(knowledge.KeyTTFTMs).Int, itlMs: a.Get(knowledge.KeyITLMs).Int,
		concurrent: a.Get(knowledge.KeyConcurrentRequests).Int, disaggregation: a.Get(knowledge.KeyDisaggregation).Bool,
		replicas: max(1, a.Get(knowledge.DerivedReplicasPerModel).Int)}
	it.latencyStated = it.priority == knowledge.LatencyFirst || it.ttftMs > 0 || it.itlMs > 0
	return it
}

// planOf is the batch plan for the answers: latency_priority's, changed by
// the workload.
func planOf(it intent, d sizing.Defaults, maxLen int) batchPlan {
	plan := planFor(it.priority, d)
	switch it.workload {
	case knowledge.WorkloadBatch:
		if !it.latencyStated {
			plan = planFor(knowledge.ThroughputFirst, d)
			plan.why = "workload batch (no latency target stated): offline throughput, the largest batches the KV pool can feed"
			plan.workload = "workload batch: a step of at least 16384 tokens keeps the GPUs busy with prefill and decode together"
		} else {
			plan.workload = "workload batch, but latency is stated, so the latency plan stands"
		}
	case knowledge.WorkloadRAG:
		if plan.tokens < longPromptStep {
			plan.workload = fmt.Sprintf("workload rag: long retrieved prompts; a %s-token step (instead of %s) prefills a %s-token prompt in %s instead of %s, which is most of its time to first token",
				num(longPromptStep), num(int64(plan.tokens)), num(int64(maxLen)), steps(ceilDiv(maxLen, longPromptStep)), steps(ceilDiv(maxLen, plan.tokens)))
			plan.tokens = longPromptStep
		} else {
			plan.workload = fmt.Sprintf("workload rag: long retrieved prompts; the %s-token step already prefills a %s-token prompt in %s", num(int64(plan.tokens)), num(int64(maxLen)), steps(ceilDiv(maxLen, plan.tokens)))
		}
	case knowledge.WorkloadScoring:
		// Prefill-only: one step should hold a whole prompt, so its time to
		// first token is one forward pass, bounded by the activation reserve.
		step := min(max(maxLen, longPromptStep), scoringMaxStep)
		step = max(step, plan.tokens)
		plan.workload = fmt.Sprintf("workload scoring: prefill-only (about one output token), so time to first token is the prefill; a %s-token step holds %s (a whole %s-token prompt in %s); capped at %s to bound the activation reserve",
			num(int64(step)), prompts(step, maxLen), num(int64(maxLen)), steps(ceilDiv(maxLen, step)), num(scoringMaxStep))
		plan.tokens = step
		plan.why = fmt.Sprintf("workload scoring: a request leaves after its prefill step (about one output token), so the running requests are prompts being prefilled, %s per %s-token step; a cap of %d lets many short prompts batch together, and full-length ones are bounded by the KV pool, not by the cap",
			prompts(step, maxLen), num(int64(step)), plan.seqs)
	case knowledge.WorkloadMixed:
		plan.workload = fmt.Sprintf("workload mixed: long and short prompts share this %s-token step", num(int64(plan.tokens)))
	}
	plan.tokens = max(plan.tokens, plan.seqs) // vLLM: max-num-batched-tokens ≥ max-num-seqs
	return it.concurrencyFloor(plan)
}

// headroom words where a plan's minConcurrency comes from: an assumption
// (latency_priority's headroom) unless concurrent_requests set it.
func (it intent) headroom(p batchPlan) string {
	if p.concWhy != "" {
		return fmt.Sprintf("concurrent_requests %s asks of each of %s", num(int64(it.concurrent)), plural(it.replicas, "replica"))
	}
	stated := "concurrent_requests is not stated"
	if it.concurrent > 0 {
		stated = fmt.Sprintf("concurrent_requests %s is checked against the pool once a layout fits", num(int64(it.concurrent)))
	}
	return fmt.Sprintf("assumed (latency_priority %s keeps room for %d full-context requests; %s)", orBalanced(it.priority), p.minConcurrency, stated)
}

func orBalanced(priority string) string {
	if priority == "" {
		return knowledge.LatencyBalanced
	}
	return priority
}

// concurrencyFloor lowers the concurrency a layout must hold to what the
// stated traffic asks of one replica: min(the plan's, ceil(concurrent_requests
// / replicas)), at least 1. With no stated traffic the plan's stands.
func (it intent) concurrencyFloor(p batchPlan) batchPlan {
	if it.concurrent <= 0 {
		return p
	}
	need := max(1, ceilDiv(it.concurrent, max(1, it.replicas)))
	if need < p.minConcurrency {
		p.concWhy = fmt.Sprintf("concurrent_requests %s over %s: %s each, fewer than the plan's %d",
			num(int64(it.concurrent)), plural(it.replicas, "replica"), plural(need, "request"), p.minConcurrency)
		p.minConcurrency = need
	}
	return p
}

// plural is "1 replica" or "n replicas".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%s %ss", num(int64(n)), word)
}

func steps(n int) string {
	if n == 1 {
		return "1 step"
	}
	return fmt.Sprintf("%d steps", n)
}

func prompts(step, maxLen int) string {
	if step >= maxLen {
		return fmt.Sprintf("%s of %s tokens", plural(step/maxLen, "prompt"), num(int64(maxLen)))
	}
	return "part of one full-length prompt"
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// layout is the parallel layout chosen and why, when it is not simply the
// smallest that fits.
type layout struct {
	tp, pp int
	// smallest is the smallest layout that fits the plan's headroom.
	smallest sizing.Result
	// why is the tensor-parallel defense's reason for a larger layout ("" for none).
	why   string
	notes []string
}

func engineConfig(c *Compiled, a knowledge.Answers, engine string) *EngineConfig {
	return engineConfigUnder(c, a, engine, nil)
}

// engineConfigUnder is engineConfig for servers deployed by an
// orchestrator that needs a role's servers on a port of its own (see
// rolePortsOf): that role's launch command gets the engine's --port.
func engineConfigUnder(c *Compiled, a knowledge.Answers, engine string, ports []knowledge.RolePort) *EngineConfig {
	kb := c.kb
	ec := &EngineConfig{Engine: engine, Command: []LaunchFlag{}, Defaults: []FlagNote{}, Replaced: []FlagNote{}, Notes: []string{}}
	if engine == knowledge.EngineLlamaCpp {
		ec = llamacppConfig(c, a, ec)
		noteRelease(kb, ec)
		return ec
	}
	if engine != knowledge.EngineVLLM && engine != knowledge.EngineSGLang && engine != knowledge.EngineTensorRTLLM {
		ec.Note = fmt.Sprintf("stackpick sizes and writes launch commands for vLLM, SGLang, TensorRT-LLM and llama.cpp only; %s's settings are not covered (its memory model and flags are not in the knowledge base).", kb.ProductName(engine))
		return ec
	}
	m := kb.Model(a.Get(knowledge.KeyModel).Str)
	gp := kb.GPU(a.Get(knowledge.KeyGPU).Str)
	perNode, nodes := a.Get(knowledge.KeyGPUsPerNode).Int, a.Get(knowledge.KeyNodes).Int
	if m == nil || gp == nil {
		ec.Note = "the model or GPU is not in the catalog; no sizing"
		return ec
	}
	if gp.MemoryGiB <= 0 || perNode == 0 {
		ec.Note = "no GPU memory to size: the answers describe a CPU-only fleet"
		return ec
	}
	ec.Covered, ec.Model, ec.HFID, ec.GPU = true, m.ID, m.HFID, gp.ID
	ctx := a.Get(knowledge.KeyContextTokens).Int
	maxLen := min(ctx, m.NativeContext)
	if ctx > m.NativeContext {
		ec.Notes = append(ec.Notes, fmt.Sprintf("context_tokens %d is above %s's native context of %d: max-model-len is capped there (longer needs RoPE scaling and VLLM_ALLOW_LONG_MAX_MODEL_LEN)", ctx, m.Name, m.NativeContext))
	}
	d := sizing.VLLMDefaults(sizing.VLLMMinor(VLLMRelease(kb)), gp.MemoryGiB, gp.ID, sizing.EntryServe, maxLen)
	memoryModel := sizing.EngineVLLM
	switch engine {
	case knowledge.EngineSGLang:
		d, memoryModel = sizing.SGLangDefaults(gp.MemoryGiB), sizing.EngineSGLang
	case knowledge.EngineTensorRTLLM:
		d = sizing.TRTLLMDefaults(d)
	}
	it := intentOf(a)
	plan := planOf(it, d, maxLen)
	base := sizing.Input{Arch: sizing.ArchOf(m), Hardware: sizing.HardwareOf(gp)}
	inputFor := func(p batchPlan) sizing.Input {
		in := base
		in.Settings = sizing.Settings{Engine: memoryModel, MaxModelLen: maxLen, MaxNumSeqs: p.seqs, MaxNumBatchedTokens: p.tokens,
			WeightsDType: a.Get(knowledge.KeyWeightsDType).Str, KVCacheDType: a.Get(knowledge.KeyKVCacheDType).Str,
			GPUsPerNode: perNode, MinConcurrency: p.minConcurrency, MinConcurrencyIs: it.headroom(p)}
		return sizing.Resolve(in, d)
	}
	in := inputFor(plan)
	fit, err := sizing.SmallestTP(in, perNode, nodes)
	if own := it.concurrencyFloor(planFor(it.priority, d)); err != nil && plan != own {
		// The workload's plan asks more of the fleet than latency_priority's
		// (more headroom, a longer step): keep the command it can run.
		if f2, err2 := sizing.SmallestTP(inputFor(own), perNode, nodes); err2 == nil {
			ec.Notes = append(ec.Notes, fmt.Sprintf("workload %s's settings (%s-token steps, %d batch, room for %d full-context requests) do not fit this fleet (%s); the command keeps latency_priority %s's plan",
				it.workload, num(int64(plan.tokens)), plan.seqs, plan.minConcurrency, err.Error(), it.priority))
			plan, in, fit, err = own, inputFor(own), f2, nil
		}
	}
	ec.Tried = fit.Tried
	if err != nil {
		ec.Note = err.Error()
		if fit.Result.Model != "" {
			r := fit.Result
			ec.Sizing = &r
		}
		ec.Covered = false
		return ec
	}
	lay := chooseLayout(it, fit.Result, func() (sizing.Fit, error) {
		balanced := it
		balanced.priority = knowledge.LatencyBalanced
		balanced.latencyStated = false
		bp := planOf(balanced, d, maxLen)
		f, err := sizing.SmallestTP(inputFor(bp), perNode, nodes)
		if own := balanced.concurrencyFloor(planFor(balanced.priority, d)); err != nil && bp != own {
			// As for the answers themselves: balanced keeps its own plan
			// when the workload's does not fit.
			if f2, err2 := sizing.SmallestTP(inputFor(own), perNode, nodes); err2 == nil {
				return f2, nil
			}
		}
		return f, err
	}, in, perNode, nodes)
	r := fit.Result
	if lay.tp != r.TensorParallelSize || lay.pp != r.PipelineParallelSize {
		if rr, err := sizing.At(in, lay.tp, lay.pp); err == nil && rr.Fits {
			r = rr
		} else {
			lay = layout{tp: r.TensorParallelSize, pp: r.PipelineParallelSize, smallest: r}
		}
	}
	ec.Notes = append(ec.Notes, lay.notes...)
	fleetGPUs := nodes * perNode
	if sm := lay.smallest; r.TensorParallelSize*r.PipelineParallelSize > sm.TensorParallelSize*sm.PipelineParallelSize {
		ec.Notes = append(ec.Notes, tradeNote(r, sm, fleetGPUs, checkpoints(a)))
	}
	r, plan = concurrencyPlan(ec, it, in, r, plan, fleetGPUs, checkpoints(a))
	ec.Sizing = &r
	ec.Notes = append(ec.Notes, checkpointNotes(a, r, fleetGPUs)...)
	if it.ttftMs > 0 {
		ec.Notes = append(ec.Notes, fmt.Sprintf("ttft_ms %d is a latency target: the tensor-parallel size is at least balanced's; stackpick does not estimate prefill time (it needs the GPU's compute, which the catalog lacks), so check p95 time to first token under load; the step budget (%s tokens) sets how many steps a long prompt's prefill takes",
			it.ttftMs, num(int64(r.MaxNumBatchedTokens))))
	}
	cmd := commandInput{kb: kb, a: a, ec: ec, m: m, gp: gp, r: r, d: d, plan: plan, lay: lay, it: it, perNode: perNode, fleetGPUs: fleetGPUs}
	switch engine {
	case knowledge.EngineVLLM:
		vllmCommand(cmd)
	case knowledge.EngineTensorRTLLM:
		trtllmCommand(cmd)
	default:
		sglangCommand(cmd)
	}
	rolePorts(kb, ec, ports)
	// The seed's flags that are gone, so the output says what replaced them.
	ec.Replaced = append(ec.Replaced, c.replaced[engine]...)
	ec.CommandText = commandText(ec)
	countServers(ec, r, fleetGPUs, checkpoints(a))
	noteRelease(kb, ec)
	return ec
}

// countServers sets how many servers run the command and the GPUs each
// takes: the fleet's replicas of this checkpoint (fleet GPUs ÷ GPUs per
// replica ÷ checkpoints), of which one server holds data-parallel-size.
func countServers(ec *EngineConfig, r sizing.Result, fleetGPUs, engines int) {
	dp, dpFlag := 1, ""
	for _, l := range ec.Command {
		if l.FlagID == knowledge.FlagVLLMDataParallelSize || l.FlagID == knowledge.FlagSGLangDPSize {
			if n, err := strconv.Atoi(l.Value); err == nil && n > 1 {
				dp, dpFlag = n, l.Flag
			}
		}
	}
	per := max(1, r.TensorParallelSize*r.PipelineParallelSize)
	reps := replicasOf(r, fleetGPUs, engines)
	ec.GPUsPerServer = per * dp
	ec.Servers = max(1, reps/dp)
	ec.ServersWhy = fmt.Sprintf("%d GPUs in the fleet ÷ %d per replica (TP %d × PP %d) ÷ %s = %s", fleetGPUs, per, r.TensorParallelSize, r.PipelineParallelSize, plural(max(1, engines), "checkpoint"), plural(reps, "replica"))
	if dp > 1 {
		ec.ServersWhy += fmt.Sprintf(", %d to a server (%s %d) = %s of %d GPUs", dp, dpFlag, dp, plural(ec.Servers, "server"), ec.GPUsPerServer)
	} else {
		ec.ServersWhy += fmt.Sprintf(", one server each, %s", plural(per, "GPU"))
	}
}

// chooseLayout applies the latency targets to the smallest layout that
// fits: a stated latency (latency_priority = latency, ttft_ms or itl_ms)
// never takes a smaller layout than balanced's for the same answers, and an
// itl_ms target takes the smallest tensor-parallel size inside one node
// whose batch-1 step meets it.
func chooseLayout(it intent, smallest sizing.Result, balanced func() (sizing.Fit, error), in sizing.Input, perNode, nodes int) layout {
	lay := layout{tp: smallest.TensorParallelSize, pp: smallest.PipelineParallelSize, smallest: smallest}
	if !it.latencyStated {
		return lay
	}
	gpus := func(tp, pp int) int { return tp * pp }
	if bf, err := balanced(); err == nil {
		b := bf.Result
		if gpus(b.TensorParallelSize, b.PipelineParallelSize) > gpus(lay.tp, lay.pp) {
			lay.tp, lay.pp = b.TensorParallelSize, b.PipelineParallelSize
			lay.why = fmt.Sprintf("a latency target never takes a smaller layout than balanced's TP %d × PP %d", lay.tp, lay.pp)
		}
	}
	if it.itlMs > 0 {
		target := float64(it.itlMs)
		at := func(tp, pp int) (sizing.Result, bool) {
			r, err := sizing.Numbers(in, tp, pp)
			return r, err == nil && r.Fits
		}
		cur, ok := at(lay.tp, lay.pp)
		switch {
		case !ok:
		case lay.pp > 1 || cur.StepMillis() == 0:
			if cur.StepMillis() > target {
				lay.notes = append(lay.notes, fmt.Sprintf("itl_ms %d is not reachable at TP %d × PP %d: the batch-1 step is at least %.1f ms (weights %s per GPU × %d stages over %s TB/s); only fewer bytes per GPU (quantize, or a larger TP inside a node) lower it",
					it.itlMs, lay.tp, lay.pp, cur.StepMillis(), gib(cur.WeightsGiBPerGPU), lay.pp, trim(in.Hardware.BandwidthTBs)))
			}
		case cur.StepMillis() <= target:
			lay.notes = append(lay.notes, fmt.Sprintf("itl_ms %d is reachable at TP %d: the batch-1 step is at least %.1f ms (the bandwidth roofline; batching, all-reduce and compute add to it)", it.itlMs, lay.tp, cur.StepMillis()))
		default:
			best, bestTP := cur, lay.tp
			met := false
			for _, tp := range sizing.TPCandidates(in.Arch, perNode) {
				if tp <= lay.tp {
					continue
				}
				r, ok := at(tp, 1)
				if !ok {
					continue
				}
				best, bestTP = r, tp
				if r.StepMillis() <= target {
					met = true
					break
				}
			}
			if met {
				lay.notes = append(lay.notes, fmt.Sprintf("itl_ms %d: TP %d has a batch-1 step of at least %.1f ms, over the target; TP %d is the smallest that meets it (%.1f ms)", it.itlMs, lay.tp, cur.StepMillis(), bestTP, best.StepMillis()))
				lay.why = fmt.Sprintf("itl_ms %d: the smallest TP whose batch-1 step (%.1f ms) meets it", it.itlMs, best.StepMillis())
			} else {
				lay.notes = append(lay.notes, fmt.Sprintf("itl_ms %d is not reachable inside one node of %s: the fastest layout, TP %d, has a batch-1 step of at least %.1f ms (weights %s per GPU over %s TB/s); the command takes it as the nearest; quantize to go lower",
					it.itlMs, plural(perNode, "GPU"), bestTP, best.StepMillis(), gib(best.WeightsGiBPerGPU), trim(in.Hardware.BandwidthTBs)))
				if bestTP != lay.tp {
					lay.why = fmt.Sprintf("itl_ms %d is out of reach; the fastest TP inside a node (batch-1 step %.1f ms) is the nearest", it.itlMs, best.StepMillis())
				}
			}
			lay.tp, lay.pp = bestTP, 1
		}
	}
	return lay
}

// checkpoints is how many engines the fleet runs: one per base model and
// per full fine-tune.
func checkpoints(a knowledge.Answers) int {
	n := a.Get(knowledge.KeyBaseModels).Int
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneFull {
		n += a.Get(knowledge.KeyFineTunes).Int
	}
	return max(1, n)
}

// replicasOf is how many engine replicas of one checkpoint the fleet holds
// at this layout.
func replicasOf(r sizing.Result, fleetGPUs, engines int) int {
	return max(1, fleetGPUs/max(1, r.TensorParallelSize*r.PipelineParallelSize)/max(1, engines))
}

// concurrencyPlan applies concurrent_requests: each replica's batch cap is
// its share of the fleet's peak, and the notes say whether its KV pool
// holds that many.
func concurrencyPlan(ec *EngineConfig, it intent, in sizing.Input, r sizing.Result, plan batchPlan, fleetGPUs, engines int) (sizing.Result, batchPlan) {
	if it.concurrent <= 0 {
		return r, plan
	}
	reps := replicasOf(r, fleetGPUs, engines)
	per := ceilDiv(it.concurrent, reps)
	seqs := min(per, max(1024, plan.seqs))
	p := plan
	p.seqs, p.tokens = seqs, max(plan.tokens, seqs)
	p.why = fmt.Sprintf("concurrent_requests %s over %s = %s per replica", num(int64(it.concurrent)), plural(reps, "replica"), num(int64(per)))
	if seqs < per {
		p.why += fmt.Sprintf(", capped at %s (the rest queue)", num(int64(seqs)))
	}
	x := in
	x.Settings.MaxNumSeqs, x.Settings.MaxNumBatchedTokens = p.seqs, p.tokens
	rr, err := sizing.At(x, r.TensorParallelSize, r.PipelineParallelSize)
	if err != nil || !rr.Fits {
		ec.Notes = append(ec.Notes, fmt.Sprintf("concurrent_requests %s: a batch cap of %s per replica leaves no room at TP %d × PP %d (the sampler's reserve grows with it); the cap stays at %d", num(int64(it.concurrent)), num(int64(seqs)), r.TensorParallelSize, r.PipelineParallelSize, plan.seqs))
		return r, plan
	}
	note := fmt.Sprintf("concurrent_requests %s across %s is %s per replica; ", num(int64(it.concurrent)), plural(reps, "replica"), num(int64(per)))
	if rr.MaxConcurrency >= float64(per) {
		note += fmt.Sprintf("the KV pool holds %.1f requests of %s tokens, so it holds them all at full length", rr.MaxConcurrency, num(int64(rr.ContextTokens)))
	} else {
		note += fmt.Sprintf("the KV pool holds only %.1f requests of %s tokens (%s tokens in all): %s at once fit only if they average at most %s tokens; beyond that the engine preempts requests and recomputes them, so add replicas or GPUs, or quantize the KV cache",
			rr.MaxConcurrency, num(int64(rr.ContextTokens)), num(rr.KVCacheTokens), num(int64(per)), num(rr.KVCacheTokens/int64(max(1, per))))
	}
	ec.Notes = append(ec.Notes, note)
	return rr, p
}

// checkpointNotes says what the command does not cover when several
// checkpoints must be served: full fine-tunes and extra base models each
// need an engine of their own, sized like this one.
func checkpointNotes(a knowledge.Answers, r sizing.Result, fleetGPUs int) []string {
	engines := a.Get(knowledge.KeyBaseModels).Int
	full := 0
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneFull {
		full = a.Get(knowledge.KeyFineTunes).Int
	}
	engines += full
	if engines <= 1 {
		return nil
	}
	per := r.TensorParallelSize * r.PipelineParallelSize
	note := fmt.Sprintf("%d checkpoints (%s", engines, plural(a.Get(knowledge.KeyBaseModels).Int, "base model"))
	if full > 0 {
		note += fmt.Sprintf(" + %s, each a separate copy of the weights", plural(full, "full fine-tune"))
	}
	note += fmt.Sprintf("): this command serves one; run one engine per checkpoint, each sized like this one if the models are alike: %d × %s = %s for one replica of each, of the fleet's %d",
		engines, plural(per, "GPU"), plural(engines*per, "GPU"), fleetGPUs)
	if engines*per > fleetGPUs && fleetGPUs > 0 {
		note += " (more than the fleet has: quantize, share GPUs, or serve fine-tunes as LoRA adapters)"
	}
	return []string{note}
}

// emit adds a flag if the knowledge base knows it as current; otherwise it
// records why it was left out.
func emit(kb *knowledge.KB, ec *EngineConfig, id, value, defense string) {
	f := kb.Flag(id)
	switch {
	case f == nil:
		ec.Notes = append(ec.Notes, fmt.Sprintf("flag %s is not in the knowledge base; left out", id))
	case f.Status != knowledge.FlagCurrent:
		ec.Replaced = append(ec.Replaced, noteOf(kb, f))
	default:
		ec.Command = append(ec.Command, LaunchFlag{Flag: f.Name, Value: value, FlagID: id, Defense: defense, Source: flagSource(f.Sources)})
	}
}

// flagSource is an emitted flag's source in the short form: the first
// source that was read (or, when none could be, the first, saying it was
// not checked), and how many more the knowledge base holds for the flag.
func flagSource(ss knowledge.Sources) string {
	if len(ss) == 0 {
		return ""
	}
	first := 0
	for i, s := range ss {
		if !s.Unavailable() {
			first = i
			break
		}
	}
	out := knowledge.Sources{ss[first]}.CiteChecked(false)
	if more := len(ss) - 1; more > 0 {
		out += fmt.Sprintf(" (and %s in the knowledge base)", map[bool]string{true: "1 more source", false: fmt.Sprintf("%d more sources", more)}[more == 1])
	}
	return out
}

func keep(kb *knowledge.KB, ec *EngineConfig, id, note string) {
	if f := kb.Flag(id); f != nil && f.Status == knowledge.FlagCurrent {
		ec.Defaults = append(ec.Defaults, FlagNote{Flag: f.Name, FlagID: id, Status: f.Status, Note: note, Source: f.Sources.Cite(true)})
	}
}

func noteOf(kb *knowledge.KB, f *knowledge.Flag) FlagNote {
	n := FlagNote{Flag: f.Name, FlagID: f.ID, Status: f.Status, Source: f.Sources.Cite(true)}
	// Follow the chain to a current flag: --max-context-len-to-capture →
	// --max-seq-len-to-capture → --max-cudagraph-capture-size.
	by := f.ReplacedBy
	var via []string
	for r, hops := kb.Flag(f.ReplacedBy), 0; r != nil && hops < 8; r, hops = kb.Flag(r.ReplacedBy), hops+1 {
		by = r.Name
		if r.Status == knowledge.FlagCurrent || kb.Flag(r.ReplacedBy) == nil {
			if r.Status != knowledge.FlagCurrent && r.ReplacedBy != "" {
				by = r.ReplacedBy
				via = append(via, r.Name)
			}
			break
		}
		via = append(via, r.Name)
	}
	if len(via) > 0 {
		by += " (via " + strings.Join(via, ", ") + ")"
	}
	n.ReplacedBy = by
	when := f.Removed
	if f.Status == knowledge.FlagDeprecated {
		when = f.Deprecated
	}
	n.Note = fmt.Sprintf("%s: %s; replaced by %s", f.Status, when, by)
	return n
}

// CourseFlagsGone lists the course notes' flags for engine that are removed
// or renamed, with what replaced them: the list every engine card of that
// engine carries, for the knowledge browser's "what changed" page.
func CourseFlagsGone(kb *knowledge.KB, engine string) []FlagNote { return seedFlagNotes(kb)[engine] }

// seedFlagNotes lists, per engine, the seed's flags that are removed or
// renamed, with what replaced them: the same for every decision, so it is
// built once per knowledge base.
func seedFlagNotes(kb *knowledge.KB) map[string][]FlagNote {
	out := map[string][]FlagNote{}
	for _, engine := range []string{knowledge.EngineVLLM, knowledge.EngineSGLang, knowledge.EngineTensorRTLLM} {
		for _, f := range kb.FlagsOf(engine) {
			if f.InSeed && f.Status != knowledge.FlagCurrent {
				out[engine] = append(out[engine], noteOf(kb, f))
			}
		}
	}
	return out
}

func gib(v float64) string { return fmt.Sprintf("%.2f GiB", v) }

func num(v int64) string { return sizing.FormatValue(float64(v), "") }

// tradeNote says what a latency-driven layout costs in replicas.
func tradeNote(r, smallest sizing.Result, fleetGPUs, engines int) string {
	return fmt.Sprintf("latency against replicas: TP %d × PP %d instead of TP %d × PP %d (the smallest that fits) gives a batch-1 decode ceiling of %.0f tokens/s instead of %.0f (a step of at least %.1f ms instead of %.1f), for %s of this model across the fleet's %s instead of %d (%d per node instead of %d): fewer, faster replicas queue more requests at peak",
		r.TensorParallelSize, r.PipelineParallelSize, smallest.TensorParallelSize, smallest.PipelineParallelSize,
		r.DecodeTokensPerSecond, smallest.DecodeTokensPerSecond, r.StepMillis(), smallest.StepMillis(),
		plural(replicasOf(r, fleetGPUs, engines), "replica"), plural(fleetGPUs, "GPU"), replicasOf(smallest, fleetGPUs, engines), r.ReplicasPerNode, smallest.ReplicasPerNode)
}

func tpDefense(r sizing.Result, tried []sizing.Tried, gp *knowledge.GPU, plan batchPlan, lay layout) string {
	minConc := plan.minConcurrency
	holds := plural(minConc, "request") + " of " + num(int64(r.ContextTokens)) + " tokens"
	if plan.concWhy != "" {
		holds += " (" + plan.concWhy + ")"
	}
	if lay.why != "" {
		sm := lay.smallest
		return fmt.Sprintf("weights %s per GPU of %.2f GiB; %s: batch-1 step ≥ %.1f ms (%.0f tokens/s) against %.1f ms at TP %d, the smallest whose KV pool holds ≥ %s",
			gib(r.WeightsGiBPerGPU), gp.MemoryGiB, lay.why, r.StepMillis(), r.DecodeTokensPerSecond, sm.StepMillis(), sm.TensorParallelSize, holds)
	}
	s := fmt.Sprintf("weights %s per GPU of %.2f GiB; the smallest size whose KV pool holds ≥ %s; it holds %.1f",
		gib(r.WeightsGiBPerGPU), gp.MemoryGiB, holds, r.MaxConcurrency)
	// The layout just below: the last one tried that does not fit (a
	// binary search over pipeline stages also tries larger ones that fit,
	// which say nothing against this one).
	for i := len(tried) - 1; i >= 0; i-- {
		prev := tried[i]
		if prev.Fits || prev.Why == "" {
			continue
		}
		why := prev.Why // whole: the card wraps it
		name := fmt.Sprintf("TP %d", prev.TP)
		if prev.PP > 1 {
			name += fmt.Sprintf(" × PP %d", prev.PP)
		}
		s += fmt.Sprintf("; %s: %s", name, why)
		break
	}
	return s
}

// commandInput is everything a launch command is written from.
type commandInput struct {
	kb        *knowledge.KB
	a         knowledge.Answers
	ec        *EngineConfig
	m         *knowledge.Model
	gp        *knowledge.GPU
	r         sizing.Result
	d         sizing.Defaults
	plan      batchPlan
	lay       layout
	it        intent
	perNode   int
	fleetGPUs int
}

// dataParallel is how many replicas of this model one server runs in
// vLLM's data-parallel mode: on a one-node fleet whose node holds more than
// one replica (outside a prefill/decode split, where each instance takes a
// role), else 1. On several nodes the orchestrator balances the replicas.
func (c commandInput) dataParallel() int {
	if c.a.Get(knowledge.KeyNodes).Int != 1 || c.spanNodes() > 1 {
		return 1
	}
	if c.splitsRoles() {
		return 1
	}
	return replicasOf(c.r, c.fleetGPUs, checkpoints(c.a))
}

// splitsRoles is whether the answers ask prefill and decode apart for a
// workload that has a decode phase (disaggregation may still find no room).
func (c commandInput) splitsRoles() bool {
	return c.it.disaggregation && c.it.workload != knowledge.WorkloadScoring
}

// spanNodes is how many nodes one replica spans (1 inside a node).
func (c commandInput) spanNodes() int {
	return max(1, ceilDiv(c.r.TensorParallelSize*c.r.PipelineParallelSize, c.perNode))
}

// stepDefense is the step budget's defense, with the workload's reason.
func (c commandInput) stepDefense(what string) string {
	s := fmt.Sprintf("%s (default here %d): the activation peak is %s", what, c.d.MaxNumBatchedTokens, gib(c.r.ActivationPeakGiB))
	if c.plan.workload != "" {
		s += "; " + c.plan.workload
	}
	return s
}

// disaggregation decides whether prefill and decode can run as separate
// instances, and says why not when they cannot.
func (c commandInput) disaggregation() bool {
	if !c.it.disaggregation {
		return false
	}
	per := c.r.TensorParallelSize * c.r.PipelineParallelSize
	switch {
	case c.it.workload == knowledge.WorkloadScoring:
		c.ec.Notes = append(c.ec.Notes, "disaggregation is not set up: workload scoring produces about one output token, so there is no decode phase to move off the prefill GPUs; a prefill/decode split would only add a KV transfer to every request")
		return false
	case c.a.Get(knowledge.KeyNodes).Int < 2:
		c.ec.Notes = append(c.ec.Notes, "disaggregation is not set up on one node: a prefill/decode split needs something that sends each request to a prefill instance and then to a decode instance (the orchestrator's job, or SGLang's router in PD mode), and the decision leaves one node without an orchestrator; the command stays aggregated, where chunked prefill already interleaves prompts with decoding")
		return false
	case c.fleetGPUs/max(1, per)/checkpoints(c.a) < 2:
		c.ec.Notes = append(c.ec.Notes, fmt.Sprintf("disaggregation is not set up: one replica takes %s (TP %d × PP %d) and the fleet has %d for %s, so there is no room for a prefill instance and a decode instance of this model; it needs at least %d GPUs per checkpoint",
			plural(per, "GPU"), c.r.TensorParallelSize, c.r.PipelineParallelSize, c.fleetGPUs, plural(checkpoints(c.a), "checkpoint"), 2*per))
		return false
	}
	reps := replicasOf(c.r, c.fleetGPUs, checkpoints(c.a))
	c.ec.instances = reps
	c.ec.Notes = append(c.ec.Notes, fmt.Sprintf("disaggregation: the fleet holds %d instances of %d GPUs for this model; the split between prefill and decode is not sized (stackpick does not model prefill against decode time): start with %d prefill and %d decode (one command per role), then move instances toward whichever queue grows (long prompts want more prefill, long outputs more decode); the KV cache moves between them over RDMA, so the nodes need InfiniBand or RoCE", reps, per, reps/2, reps-reps/2))
	return true
}

// VLLMRelease is the vLLM release the launch command and its defaults are
// written for: the knowledge base's vllm [product.release] tag ("v0.31.0"),
// or sizing.CurrentVLLM when the knowledge base names none.
func VLLMRelease(kb *knowledge.KB) string {
	if rel := EngineRelease(kb, knowledge.EngineVLLM); rel != "" {
		return rel
	}
	return "v" + sizing.CurrentVLLM
}

// cudaGraphDefense says what --max-cudagraph-capture-size resolves to when
// it is left out (the rule of the vllm-max-cudagraph-capture-size flag row).
func cudaGraphDefense(r sizing.Result) string {
	got := sizing.CUDAGraphCaptureMax(r.MaxNumSeqs, 0, r.MaxNumBatchedTokens, sizing.CUDAGraphCeiling)
	why := fmt.Sprintf("left to vLLM: min(--max-num-seqs %d × 2, %d), capped at --max-num-batched-tokens %s, = %d",
		r.MaxNumSeqs, sizing.CUDAGraphCeiling, num(int64(r.MaxNumBatchedTokens)), got)
	if sm100 := sizing.CUDAGraphCaptureMax(r.MaxNumSeqs, 0, r.MaxNumBatchedTokens, sizing.CUDAGraphCeilingSM100); sm100 != got {
		why += fmt.Sprintf(" (%d on SM100 GPUs such as the B200, whose ceiling is %d)", sm100, sizing.CUDAGraphCeilingSM100)
	}
	return why + "; steps above it run without CUDA graphs, and speculative decoding multiplies the --max-num-seqs term by 1 + the draft tokens; the course notes' --max-seq-len-to-capture is gone"
}

func vllmCommand(c commandInput) {
	kb, a, ec, m, gp, r, d, plan := c.kb, c.a, c.ec, c.m, c.gp, c.r, c.d, c.plan
	ec.Release = VLLMRelease(kb)
	ec.EngineVersion = "vLLM " + ec.Release
	if a.Get(knowledge.KeyNodes).Int > 1 && r.ReplicasPerNode > 1 && !c.splitsRoles() {
		ec.Notes = append(ec.Notes, fmt.Sprintf("this command is one replica (TP %d × PP %d = %s): start %d of them per node, each on its own GPUs (CUDA_VISIBLE_DEVICES) and port, %d in the fleet, and let the orchestrator balance them",
			r.TensorParallelSize, r.PipelineParallelSize, plural(r.TensorParallelSize*r.PipelineParallelSize, "GPU"), r.ReplicasPerNode, r.ReplicasPerNode*a.Get(knowledge.KeyNodes).Int))
	}
	emit(kb, ec, knowledge.FlagVLLMTensorParallelSize, fmt.Sprint(r.TensorParallelSize), tpDefense(r, ec.Tried, gp, plan, c.lay))
	if r.PipelineParallelSize > 1 {
		emit(kb, ec, knowledge.FlagVLLMPipelineParallelSize, fmt.Sprint(r.PipelineParallelSize),
			fmt.Sprintf("the model does not fit one node of %s; %d stages of %d layers each", plural(c.perNode, "GPU"), r.PipelineParallelSize, (m.Layers+r.PipelineParallelSize-1)/r.PipelineParallelSize))
	}
	if n := c.spanNodes(); n > 1 {
		emit(kb, ec, knowledge.FlagVLLMNNodes, fmt.Sprint(n),
			fmt.Sprintf("one replica is TP %d × PP %d = %d GPUs, more than a node's %d: it spans %d nodes, each running this command (multiprocessing backend, no Ray cluster)", r.TensorParallelSize, r.PipelineParallelSize, r.TensorParallelSize*r.PipelineParallelSize, c.perNode, n))
		emit(kb, ec, knowledge.FlagVLLMNodeRank, "${NODE_RANK}", "0 on the head node, "+otherRanks(n)+"; every node but the head also adds --headless")
		emit(kb, ec, knowledge.FlagVLLMMasterAddr, "${HEAD_NODE_IP}", "the head node's address on the network the nodes share (InfiniBand for tensor- and pipeline-parallel traffic)")
		keep(kb, ec, knowledge.FlagVLLMDistributedExecutorBackend, "mp with --nnodes above; with a Ray cluster already spanning the nodes, use ray instead and run the command once, on the head, without --nnodes/--node-rank/--master-addr")
	}
	if dp := c.dataParallel(); dp > 1 {
		emit(kb, ec, knowledge.FlagVLLMDataParallelSize, fmt.Sprint(dp),
			fmt.Sprintf("one node of %d GPUs holds %d replicas of TP %d × PP %d for this model; one server with vLLM's data-parallel mode balances requests across them, so nothing else needs to route between replicas on this node (several nodes would leave it to the orchestrator)",
				c.perNode, dp, r.TensorParallelSize, r.PipelineParallelSize))
	}
	emit(kb, ec, knowledge.FlagVLLMMaxModelLen, fmt.Sprint(r.MaxModelLen),
		fmt.Sprintf("context_tokens cap (native %s): one request's KV is %s × %s B = %s per GPU",
			num(int64(m.NativeContext)), num(int64(r.MaxModelLen)), num(r.KVBytesPerTokenPerGPU), gib(float64(r.KVBytesPerRequest)/sizing.GiB)))
	emit(kb, ec, knowledge.FlagVLLMGPUMemoryUtilization, trim(r.GPUMemoryUtilization),
		fmt.Sprintf("vLLM's default, named for review: %s × %.2f GiB − weights %.2f − activation %.2f − non-torch %.2f = KV pool %s per GPU = %s tokens",
			trim(r.GPUMemoryUtilization), gp.MemoryGiB, r.WeightsGiBPerGPU, r.ActivationPeakGiB, r.NonTorchGiB, gib(r.KVPoolGiBPerGPU), num(r.KVCacheTokens)))
	emit(kb, ec, knowledge.FlagVLLMMaxNumSeqs, fmt.Sprint(r.MaxNumSeqs),
		fmt.Sprintf("%s; the pool holds %.1f full-length requests and more shorter ones; the profile run reserves %s × %s vocab × %d B for sampling (default here %d)",
			plan.why, r.MaxConcurrency, num(int64(r.MaxNumSeqs)), num(int64(m.Vocab)), sizing.SamplerBytesPerLogit, d.MaxNumSeqs))
	emit(kb, ec, knowledge.FlagVLLMMaxNumBatchedTokens, fmt.Sprint(r.MaxNumBatchedTokens), c.stepDefense("chunked-prefill step budget"))
	if c.it.workload == knowledge.WorkloadMixed {
		threshold := r.MaxNumBatchedTokens
		why := fmt.Sprintf("a prompt longer than one step (%s tokens) counts as long", num(int64(threshold)))
		if r.MaxModelLen <= threshold {
			threshold = max(1, r.MaxModelLen*4/100)
			why = fmt.Sprintf("every prompt fits one step, so vLLM's own rule: 4%% of max-model-len %s", num(int64(r.MaxModelLen)))
		}
		emit(kb, ec, knowledge.FlagVLLMMaxNumPartialPrefills, fmt.Sprint(partialPrefills),
			fmt.Sprintf("workload mixed: up to %d prompts prefill in the same step (default 1: one long prompt holds every step's prefill share until it is done); short prompts get their first token while a long one is still prefilling", partialPrefills))
		emit(kb, ec, knowledge.FlagVLLMLongPrefillTokenThreshold, fmt.Sprint(threshold), why+"; at most --max-long-partial-prefills (1) of them prefill at once, so the other slots stay for short prompts")
		keep(kb, ec, knowledge.FlagVLLMMaxLongPartialPrefills, fmt.Sprintf("1 by default: one long prompt at a time among the %d partial prefills", partialPrefills))
	}
	if kv := a.Get(knowledge.KeyKVCacheDType).Str; kv != knowledge.DTypeAuto {
		emit(kb, ec, knowledge.FlagVLLMKVCacheDType, kv,
			fmt.Sprintf("1 byte per value instead of 2: %s B per token per GPU, twice the tokens; without calibrated KV scales in the checkpoint vLLM warns it may cost accuracy, so gate it on an eval", num(r.KVBytesPerTokenPerGPU)))
	}
	if wd := a.Get(knowledge.KeyWeightsDType).Str; wd == knowledge.DTypeFP8 && (m.NativeDType == knowledge.DTypeBF16 || m.NativeDType == knowledge.DTypeFP16) {
		emit(kb, ec, knowledge.FlagVLLMQuantization, knowledge.DTypeFP8,
			fmt.Sprintf("fp8 weights quantized at load: about 1 byte per parameter, %s per GPU", gib(r.WeightsGiBPerGPU)))
	} else if wd == knowledge.DTypeInt4 {
		ec.Notes = append(ec.Notes, "int4: serve an AWQ or GPTQ checkpoint of the model (vLLM reads the method from its config); the sizing assumes 4-bit groups of 128")
	}
	if a.Get(knowledge.KeyFineTuneMethod).Str == knowledge.FineTuneLoRA && a.Get(knowledge.KeyFineTunes).Int > 0 {
		ft := a.Get(knowledge.KeyFineTunes).Int
		emit(kb, ec, knowledge.FlagVLLMEnableLoRA, "", fmt.Sprintf("%d fine-tunes served as LoRA adapters on one copy of the base weights (%s per GPU)", ft, gib(r.WeightsGiBPerGPU)))
		emit(kb, ec, knowledge.FlagVLLMMaxLoRAs, fmt.Sprint(min(ft, 8)),
			fmt.Sprintf("adapters active in one batch: %d of %d (default 1 would serialise tenants); each slot takes GPU memory the sizing above does not count", min(ft, 8), ft))
		keep(kb, ec, knowledge.FlagVLLMMaxLoRARank, "16 by default: raise it to the largest rank among the adapters (32, 64, …)")
		if ft > min(ft, 8) {
			emit(kb, ec, knowledge.FlagVLLMMaxCPULoRAs, fmt.Sprint(ft),
				fmt.Sprintf("all %d adapters kept warm in CPU memory, ready to swap into the %d GPU slots (the default, --max-loras, would reload all but %d from disk as tenants rotate); each takes host RAM, about rank × (in + out) × 2 B per adapted matrix per layer, so check the hosts hold %d of them beside the engine",
					ft, min(ft, 8), min(ft, 8), ft))
		} else {
			keep(kb, ec, knowledge.FlagVLLMMaxCPULoRAs, fmt.Sprintf("defaults to --max-loras (%d), which holds all %d adapters", min(ft, 8), ft))
		}
	}
	emit(kb, ec, knowledge.FlagVLLMServedModelName, m.ID, "the name OpenAI clients send; stays stable when the checkpoint behind it changes")
	if c.disaggregation() {
		const cfg = `'{"kv_connector":"NixlConnector","kv_role":"%s","kv_load_failure_policy":"fail"}'`
		emitRole(kb, ec, knowledge.FlagVLLMKVTransferConfig, fmt.Sprintf(cfg, "kv_producer"), rolePrefill,
			"prefill instances: NIXL hands each request's KV cache to a decode instance; kv_role is a label (NixlConnector leaves the roles to the proxy or router); kv_load_failure_policy acts where the cache is loaded, on decode instances (fail rather than recompute a lost transfer on decode GPUs), and is written here as vLLM's NIXL guide writes it")
		emitRole(kb, ec, knowledge.FlagVLLMKVTransferConfig, fmt.Sprintf(cfg, "kv_consumer"), roleDecode,
			"decode instances: receive the KV cache over NIXL; set VLLM_NIXL_SIDE_CHANNEL_HOST to each instance's address when they run on different nodes")
	}
	if c.it.workload == knowledge.WorkloadScoring {
		ec.Notes = append(ec.Notes, "workload scoring: send each request with max_tokens 1 (prompt logprobs if the score is over the input), or use vLLM's /generative_scoring endpoint with label_token_ids, which scores the next-token probability of the labels in the same prefill (docs.vllm.ai, serving/online_serving/generative_scoring); prefix caching stays on, so a shared query prefix is prefilled once")
	}
	keep(kb, ec, knowledge.FlagVLLMEnablePrefixCaching, "on by default in V1; prefix_reuse "+a.Get(knowledge.KeyPrefixReuse).Str+" keeps it on (turn off with --no-enable-prefix-caching)")
	keep(kb, ec, knowledge.FlagVLLMEnableChunkedPrefill, "on by default in V1; --max-num-batched-tokens above sets its chunk")
	keep(kb, ec, knowledge.FlagVLLMBlockSize, fmt.Sprintf("16 by default: the KV pool counts %s blocks of 16 tokens", num(r.KVBlocks)))
	keep(kb, ec, knowledge.FlagVLLMMaxCUDAGraphCaptureSize, cudaGraphDefense(r))
	keep(kb, ec, knowledge.FlagVLLMEnforceEager, "off: CUDA graphs stay on (eager is for debugging)")
	keep(kb, ec, knowledge.FlagVLLMSpeculativeConfig, "no speculative decoding; if you add it, a draft's layers take KV from the same pool, and gate it on an eval (issue #43559)")
}

// otherRanks names the node ranks after the head's.
func otherRanks(n int) string {
	if n == 2 {
		return "1 on the other node"
	}
	return fmt.Sprintf("1 … %d on the others", n-1)
}

// The roles of a disaggregated fleet.
const (
	rolePrefill = "prefill"
	roleDecode  = "decode"
)

// emitRole adds a flag that belongs to one role's command only.
func emitRole(kb *knowledge.KB, ec *EngineConfig, id, value, role, defense string) {
	n := len(ec.Command)
	emit(kb, ec, id, value, defense)
	if len(ec.Command) > n {
		ec.Command[n].Role = role
	}
}

func trim(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// commandText is the command as one copy-pasteable shell command; with
// prefill and decode roles, one command per role, each labelled, and the
// same commands in Roles.
func commandText(ec *EngineConfig) string {
	var roles []string
	for _, l := range ec.Command {
		if l.Role != "" && !slices.Contains(roles, l.Role) {
			roles = append(roles, l.Role)
		}
	}
	if len(roles) == 0 {
		return oneCommand(ec, "")
	}
	var parts []string
	ec.Roles = ec.Roles[:0]
	for i, role := range roles {
		text := oneCommand(ec, role)
		rc := RoleCommand{Role: role, CommandText: text}
		if len(roles) == 2 && ec.instances >= 2 {
			rc.Instances = ec.instances / 2
			if i == 1 {
				rc.Instances = ec.instances - ec.instances/2
			}
			rc.Split = fmt.Sprintf("start with %d of the %d instances (a starting point, not sized)", rc.Instances, ec.instances)
		}
		ec.Roles = append(ec.Roles, rc)
		label := "# " + role + " instances"
		if rc.Split != "" {
			label += ": " + rc.Split
		}
		parts = append(parts, label+"\n"+text)
	}
	return strings.Join(parts, "\n\n")
}

// Program is the command's head: the program and, for an engine that
// takes the model as a positional argument, the model ("" otherwise).
func (ec *EngineConfig) Program() (cmd, model string) {
	switch ec.Engine {
	case knowledge.EngineSGLang:
		return SGLangEntryPoint, ""
	case knowledge.EngineTensorRTLLM:
		return "trtllm-serve", ec.HFID
	case knowledge.EngineLlamaCpp:
		return "llama-server", ""
	default:
		return "vllm serve", ec.HFID
	}
}

func oneCommand(ec *EngineConfig, role string) string {
	var b strings.Builder
	cmd, model := ec.Program()
	b.WriteString(cmd)
	if model != "" {
		b.WriteString(" " + model)
	}
	for _, l := range ec.Command {
		if l.Role != "" && l.Role != role {
			continue
		}
		b.WriteString(" \\\n  " + l.Flag)
		if l.Value != "" {
			b.WriteString(" " + l.Value)
		}
	}
	return b.String()
}

// Argv is the launch command of role ("" for the command every instance
// runs when there are no roles) as the argument list a container or a
// process is given: the program's words, the model when the program takes
// it as a positional argument, then each flag and its value, unquoted.
// It is the same list the command text is written from, so a manifest's
// container arguments and the memo's launch command cannot disagree.
func (ec *EngineConfig) Argv(role string) []string {
	cmd, model := ec.Program()
	out := strings.Fields(cmd)
	if model != "" {
		out = append(out, model)
	}
	for _, l := range ec.Command {
		if l.Role != "" && l.Role != role {
			continue
		}
		out = append(out, l.Flag)
		if l.Value != "" {
			out = append(out, shellWord(l.Value))
		}
	}
	return out
}

// shellWord undoes the one quoting the command text uses: a value wrapped
// in single quotes (a JSON object) is the text between them.
func shellWord(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' && !strings.Contains(v[1:len(v)-1], "'") {
		return v[1 : len(v)-1]
	}
	return v
}

// rolePortsOf are the role ports ([[product.role_port]]) of the picked
// orchestrator that apply to the stack: none when a product the record
// names in unless sits beside it (it deploys the servers its own way).
func rolePortsOf(kb *knowledge.KB, layers []LayerPick) []knowledge.RolePort {
	var out []knowledge.RolePort
	for _, l := range layers {
		if l.Layer != knowledge.LayerOrchestrator {
			continue
		}
		p := kb.Product(l.Pick)
		if p == nil {
			continue
		}
		for _, rp := range p.RolePorts {
			if !slices.ContainsFunc(rp.Unless, func(id string) bool { return slices.Contains(l.Also, id) }) {
				out = append(out, rp)
			}
		}
	}
	return out
}

// rolePorts puts the engine's --port in each role's command that the
// orchestrator needs on a port of its own, defended by the record's why
// and source. An engine with no recorded port flag gets none: the
// orchestrator's files then say they cannot be written.
func rolePorts(kb *knowledge.KB, ec *EngineConfig, ports []knowledge.RolePort) {
	flag := ec.Engine + "-port"
	if len(ports) == 0 || kb.Flag(flag) == nil {
		return
	}
	roles := map[string]bool{}
	for _, l := range ec.Command {
		if l.Role != "" {
			roles[l.Role] = true
		}
	}
	for _, rp := range ports {
		if !roles[rp.Role] {
			continue
		}
		why := rp.Why
		if len(rp.Sources) > 0 {
			why += " [" + knowledge.Sources{rp.Sources[0]}.CiteChecked(false) + "]"
		}
		emitRole(kb, ec, flag, strconv.Itoa(rp.Port), rp.Role, why)
	}
}
