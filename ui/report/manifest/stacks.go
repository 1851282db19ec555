package manifest

import (
	"fmt"

	"github.com/stackpick/stackpick/knowledge"
)

// Shapes: the kinds of deployment a stack turns into. Each has one writer,
// in a file of its own, registered by name.
const (
	ShapeSingleNode = "single-node"    // no orchestrator, no model server: Compose and docker run
	ShapeTriton     = "triton"         // Dynamo-Triton, no orchestrator: a model repository
	ShapeLLMISVC    = "kserve-llmisvc" // KServe's LLMInferenceService (llm-d's router under KServe)
	ShapeISVC       = "kserve-isvc"    // KServe's InferenceService with the vLLM runtime
	ShapeLLMD       = "llm-d"          // llm-d's guide layout: Deployment or DisaggregatedSet, InferencePool, InferenceObjective, router values
	ShapeDynamo     = "dynamo"         // a DynamoGraphDeployment
	ShapeRayService = "ray-service"    // KubeRay RayService with a Serve config
	ShapeRayServe   = "ray-serve"      // a Serve config file, without Kubernetes
)

// writers are the registered writers by shape.
var writers = map[string]func(*gen) error{}

// register adds a shape's writer; each writer's file calls it once.
func register(shape string, w func(*gen) error) bool {
	if _, dup := writers[shape]; dup {
		panic("manifest: two writers for " + shape)
	}
	writers[shape] = w
	return true
}

// shape picks the deployment for the stack: the orchestrator decides it,
// then the model server; with neither, the engine runs alone.
func (g *gen) shape() (string, string) {
	if g.ec == nil || !g.ec.Covered {
		why := "the picked engine has no launch command for these answers"
		if g.ec != nil && g.ec.Note != "" {
			why += ": " + g.ec.Note
		}
		return "", "stackpick writes deployable files from the engine's launch command, and " + why
	}
	if per := g.d.Answers.Get(knowledge.KeyGPUsPerNode).Int; per > 0 && g.ec.GPUsPerServer > per {
		tp, pp := 0, 0
		if r := g.ec.Sizing; r != nil {
			tp, pp = r.TensorParallelSize, r.PipelineParallelSize
		}
		return "", fmt.Sprintf("one server of %s takes %d GPUs (TP %d × PP %d) and a node holds %d, so each server spans %d nodes: stackpick writes files for servers that fit one node; a server across nodes needs a leader and workers with a rank each (KServe's worker spec, an LWS LeaderWorkerSet, a Ray placement group), which it does not write yet. Run the memo's launch command on each node, with its per-node ${NODE_RANK} and ${HEAD_NODE_IP}",
			g.ec.Model, g.ec.GPUsPerServer, tp, pp, per, (g.ec.GPUsPerServer+per-1)/per)
	}
	orch := g.pick(knowledge.LayerOrchestrator)
	ms := g.pick(knowledge.LayerModelServer)
	switch {
	case orch == "llm-d" && g.also(knowledge.LayerOrchestrator, "kserve"),
		orch == "kserve" && g.also(knowledge.LayerOrchestrator, "llm-d"):
		return ShapeLLMISVC, ""
	case orch == "llm-d":
		return ShapeLLMD, ""
	case orch == "kserve":
		return ShapeISVC, ""
	case orch == "dynamo":
		return ShapeDynamo, ""
	case orch == "ray-serve" && g.answer("kubernetes") == "none":
		return ShapeRayServe, ""
	case orch == "ray-serve":
		return ShapeRayService, ""
	case orch != "" && orch != knowledge.None:
		return "", fmt.Sprintf("stackpick writes no deployable files for %s yet; the memo's launch command is what to run under it", g.kb.ProductName(orch))
	case ms == "dynamo-triton":
		return ShapeTriton, ""
	case ms != "" && ms != knowledge.None:
		return "", fmt.Sprintf("stackpick writes no deployable files for %s yet", g.kb.ProductName(ms))
	}
	return ShapeSingleNode, ""
}

func (g *gen) writer() func(*gen) error {
	s, _ := g.shape()
	return writers[s]
}

func (g *gen) notCovered() string {
	s, why := g.shape()
	if why != "" {
		return why
	}
	return "stackpick writes no files for a " + s + " deployment yet"
}
