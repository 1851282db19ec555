// Package check validates the files stackpick writes for a stack against
// the projects' own schemas, vendored under schemas/ at named releases:
// Kubernetes objects against each CRD's openAPIV3Schema made strict the
// way kubeconform makes it, plus the CRD's CEL x-kubernetes-validations
// rules; Triton's config.pbtxt as protobuf text against model_config.proto;
// the Compose file against compose-spec's JSON Schema; a Ray Serve config
// against a schema derived from Ray's pydantic models; engine arguments
// against the knowledge base's flags.
//
// It is for tests only. Its validators cost milliseconds of package
// initialisation and hundreds of milliseconds per large CRD, so no package
// the stackpick binary links may import it (ui/cli's layering test says
// so); the binary stays as fast to start as before.
package check

import "fmt"

// Problem is one way a file fails its schema.
type Problem struct {
	// File is the file's path as the manifest set names it.
	File string
	// Doc is the YAML document's index within a multi-document file
	// (0 for the first, and for files that are not YAML).
	Doc int
	// Path is where in the document: a JSON pointer ("/spec/replicas")
	// for YAML and JSON, "line:col" for protobuf text.
	Path string
	// Message says what is wrong, in the schema's or the CEL rule's words.
	Message string
	// Schema names what it was checked against: "kserve@v0.20.0
	// LLMInferenceService serving.kserve.io/v1alpha2".
	Schema string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s[%d] at %q: %s (%s)", p.File, p.Doc, p.Path, p.Message, p.Schema)
}

// Format is how a file is checked.
type Format string

// Formats.
const (
	FormatKubernetes  Format = "kubernetes"   // YAML, one or more objects, each by apiVersion and kind
	FormatCompose     Format = "compose"      // a Compose file
	FormatTriton      Format = "triton-pbtxt" // a Triton model's config.pbtxt
	FormatServeConfig Format = "ray-serve"    // a Ray Serve config file (also RayService serveConfigV2)
	FormatEngineJSON  Format = "engine-json"  // Triton vLLM backend model.json: vLLM engine arguments
	FormatHelmValues  Format = "helm-values"  // a chart's values file, keys against the chart's defaults
	FormatShell       Format = "shell"        // a docker run line: its engine arguments
)

// Versions maps a target id ("kserve", "lws", "gaie", "llm-d", "kuberay",
// "dynamo", "compose", "triton", "ray", "kubernetes") to the version of
// its vendored schema the file is checked against.
type Versions map[string]string
