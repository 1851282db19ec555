package decide

import "github.com/stackpick/stackpick/knowledge"

// EngineReads lists the answers the engine settings read (sizing and the
// launch command), key to the values they tell apart from the rest (nil:
// every value). kb check counts them live even where no rule tests them;
// a test holds each entry to changing an engine configuration.
var EngineReads = map[string][]string{
	knowledge.KeyModel:              nil,
	knowledge.KeyGPU:                nil,
	knowledge.KeyContextTokens:      nil,
	knowledge.KeyWeightsDType:       nil,
	knowledge.KeyKVCacheDType:       nil,
	knowledge.KeyLatencyPriority:    nil,
	knowledge.KeyWorkload:           {knowledge.WorkloadBatch, knowledge.WorkloadRAG, knowledge.WorkloadScoring, knowledge.WorkloadMixed},
	knowledge.KeyFineTunes:          nil,
	knowledge.KeyFineTuneMethod:     nil,
	knowledge.KeyNodes:              nil,
	knowledge.KeyGPUsPerNode:        nil,
	knowledge.KeyDisaggregation:     nil,
	knowledge.KeyConcurrentRequests: nil,
	knowledge.KeyTTFTMs:             nil,
	knowledge.KeyITLMs:              nil,
	knowledge.KeyBaseModels:         nil,
}
