package report

import (
	"encoding/json"
	"io"

	"github.com/stackpick/stackpick/decide"
)

// DecisionJSON writes the decision trace as indented JSON: every field the
// decision carries, as decide names them, for scripts to read.
func DecisionJSON(w io.Writer, d decide.Decision) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}
