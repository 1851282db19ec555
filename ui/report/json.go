package report

import (
	"encoding/json"
	"io"

	"github.com/stackpick/stackpick/decide"
)

// DecisionJSON writes the decision trace as indented JSON: every field the
// decision carries, as decide names them, for scripts to read, and
// "manifests": the files that deploy it (path, kind, api_version,
// deploys, format, targets, placeholders), or {"not_covered": why}.
func DecisionJSON(w io.Writer, d decide.Decision) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(decisionJSON{Decision: d, Manifests: manifestsOf(d)})
}

type decisionJSON struct {
	decide.Decision
	Manifests manifestsJSON `json:"manifests"`
}
