// Package manifesttest gives tests of the surfaces that show manifests (the
// manifest command, the app's manifests screen, the memo, decide's JSON) a
// knowledge base with the images and targets the single-node writer needs,
// while the built-in one does not carry them yet: WithDeploy adds only what
// is missing, so once the knowledge base has them it changes nothing. Only
// tests import it.
package manifesttest

import "github.com/stackpick/stackpick/knowledge"

// WithDeploy adds to kb, where it has none, the Compose target and the
// vLLM and llama.cpp images (the values the lead's scratch test used), and
// returns kb.
func WithDeploy(kb *knowledge.KB) *knowledge.KB {
	if kb.Target("compose") == nil {
		kb.Targets = append(kb.Targets, &knowledge.Target{ID: "compose", Name: "Compose Specification", Versions: []string{"main@170098b"}})
	}
	if p := kb.Product("vllm"); p != nil && len(p.Images) == 0 {
		p.Images = []knowledge.Image{{ID: "vllm-openai", Ref: "vllm/vllm-openai:v0.33.0", Release: "v0.33.0", Runs: "vllm", Entrypoint: []string{"vllm", "serve"}, Port: 8000, Health: "/health", ModelCache: "/root/.cache/huggingface", Probe: []string{"python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=5)"}}}
	}
	if p := kb.Product("llama-cpp"); p != nil && len(p.Images) == 0 {
		p.Images = []knowledge.Image{{ID: "server", NotFound: "no release tag", Runs: "llama-cpp", Entrypoint: []string{"/app/llama-server"}, Port: 8080, Health: "/health", Probe: []string{"curl", "-f", "http://localhost:8080/health"}}}
	}
	return kb
}
