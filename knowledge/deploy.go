package knowledge

// What the knowledge base knows to write deployable files for a stack: the
// container images each product publishes at the release it targets, and
// the deployment APIs (targets) whose schemas stackpick checks its files
// against, with the version each feature first appears in.
//
// Images are [[product.image]] records under their product; targets are the
// [[target]] records of knowledge/data/targets.toml. validate_deploy.go holds
// both to their rules (knowledge/data/README.md lists them): an image's ref
// is registry/repository:tag of the product's [product.release] (or
// not_found says why), it runs an engine product, and its port, health and
// probe go together; a target's versions are release names, oldest first,
// and each feature's since is one of them. Port and Health are on the image
// because the generators need them for container ports and health checks
// and they are the image's defaults (the launch command may override the
// port: the generator reads the command's --port first).

// Image is a container image a product publishes, at the release the
// knowledge base targets ([product.release]).
type Image struct {
	// ID names the image within its product: "vllm-openai",
	// "vllm-runtime", "llm-d-cuda".
	ID string `toml:"id" json:"id"`
	// Ref is the whole reference, registry/repository:tag. It is "" when
	// no source gives it; NotFound then says why, and a manifest names it
	// as a placeholder instead.
	Ref string `toml:"ref" json:"ref,omitempty"`
	// Release is the product release the tag is (it matches
	// [product.release] tag unless NotFound says why not).
	Release string `toml:"release" json:"release,omitempty"`
	// Runs is the engine product the image serves with ("vllm" for
	// Dynamo's vllm-runtime, the engine itself for an engine's image).
	Runs string `toml:"runs" json:"runs,omitempty"`
	// Entrypoint is the image's ENTRYPOINT as its build file sets it
	// (empty when the image has none and the command is given whole).
	Entrypoint []string `toml:"entrypoint" json:"entrypoint,omitempty"`
	// Port is the port the server listens on unless told otherwise, and
	// Health the HTTP path that answers 200 once it is ready (0 and ""
	// when the image serves no HTTP itself).
	Port   int    `toml:"port" json:"port,omitempty"`
	Health string `toml:"health" json:"health,omitempty"`
	// Probe is a command, run inside the container, that succeeds once
	// Health answers: written with tools the image ships (its own
	// HEALTHCHECK where it has one). Empty: no health check is written.
	Probe []string `toml:"probe" json:"probe,omitempty"`
	// ModelCache is the folder inside the container where the engine
	// keeps downloaded weights: the path a volume is mounted on.
	ModelCache string  `toml:"model_cache" json:"model_cache,omitempty"`
	Sources    Sources `toml:"source" json:"sources"`
	NotFound   string  `toml:"not_found" json:"not_found,omitempty"`
}

// RolePort is a port an orchestrator needs one role's engine servers to
// listen on when prefill and decode run apart, because something of its
// own takes the pod's serving port: llm-d's routing sidecar listens on a
// decode pod's port and forwards to the engine on this one. decide puts
// the engine's --port in that role's launch command, with Why as its
// defense, so the command and the manifest say the same.
type RolePort struct {
	// Role is "prefill" or "decode".
	Role string `toml:"role" json:"role"`
	Port int    `toml:"port" json:"port"`
	// Why is the defense the launch command's --port carries.
	Why string `toml:"why" json:"why"`
	// Unless names products that, picked beside this one on its layer,
	// deploy the servers themselves and set the port their own way
	// (KServe's LLMInferenceService, with llm-d's router inside).
	Unless  []string `toml:"unless" json:"unless,omitempty"`
	Sources Sources  `toml:"source" json:"sources"`
}

// Image returns the product's image with id, or nil.
func (p *Product) Image(id string) *Image {
	for i := range p.Images {
		if p.Images[i].ID == id {
			return &p.Images[i]
		}
	}
	return nil
}

// Target is a deployment API a manifest is written against: a project
// whose schema (a CRD, a JSON Schema, a .proto) stackpick vendors, at
// each version in Versions.
type Target struct {
	// ID is what --target names: "kserve", "lws", "dynamo".
	ID   string `toml:"id" json:"id"`
	Name string `toml:"name" json:"name"`
	// Repo is the GitHub owner/name the schema comes from.
	Repo string `toml:"repo" json:"repo"`
	// Versions are the releases a schema is vendored for, oldest first;
	// the last is the one written for unless --target says otherwise.
	Versions []string        `toml:"versions" json:"versions"`
	Features []TargetFeature `toml:"feature" json:"features,omitempty"`
	Sources  Sources         `toml:"source" json:"sources,omitempty"`
	Pos
}

// TargetFeature is one kind, version or field a manifest may use that not
// every vendored version of its target has.
type TargetFeature struct {
	ID string `toml:"id" json:"id"`
	// What names it as a reader looks for it: "LLMInferenceService
	// spec.kvCacheOffloading".
	What string `toml:"what" json:"what"`
	// Since is the first version of the target that has it.
	Since   string  `toml:"since" json:"since"`
	Sources Sources `toml:"source" json:"sources,omitempty"`
}

// Default is the version a manifest is written for when --target does
// not name one: the newest vendored.
func (t *Target) Default() string {
	if len(t.Versions) == 0 {
		return ""
	}
	return t.Versions[len(t.Versions)-1]
}

// Feature returns the target's feature with id, or nil.
func (t *Target) Feature(id string) *TargetFeature {
	for i := range t.Features {
		if t.Features[i].ID == id {
			return &t.Features[i]
		}
	}
	return nil
}

// Target returns the deployment target with id, or nil.
func (kb *KB) Target(id string) *Target {
	for _, t := range kb.Targets {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// TargetIDs lists every target id in knowledge-base order: what --target
// accepts.
func (kb *KB) TargetIDs() []string {
	ids := make([]string, len(kb.Targets))
	for i, t := range kb.Targets {
		ids[i] = t.ID
	}
	return ids
}
