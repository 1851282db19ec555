package knowledge

import "strings"

// What a product is as a thing to adopt, beside what it can do: its
// licence, who governs it, and its newest release as of the day it was
// checked. Each value carries the source it was read from and the exact
// words read there; a value that could not be found says so and why,
// rather than being guessed.

// Licence is a product's licence as its repository's LICENSE file states it.
type Licence struct {
	// SPDX is the licence's SPDX identifier (Apache-2.0, MIT, BSD-3-Clause).
	SPDX    string  `toml:"spdx" json:"spdx"`
	Sources Sources `toml:"source" json:"sources"`
}

// Governance kinds: the closed vocabulary of [product.governance] kind.
const (
	GovernanceFoundation = "foundation" // hosted by a foundation (CNCF, PyTorch Foundation, …)
	GovernanceVendor     = "vendor"     // led by one company
	GovernanceCommunity  = "community"  // its own maintainers, no foundation
	GovernanceNotFound   = "not-found"  // no source read says who governs it
)

var governanceKinds = []string{GovernanceFoundation, GovernanceVendor, GovernanceCommunity, GovernanceNotFound}

// Governance is who governs a product, from the project's own files.
type Governance struct {
	Kind string `toml:"kind" json:"kind"`
	// Text is the short answer a grid cell shows: "CNCF incubating project".
	Text    string  `toml:"text" json:"text,omitempty"`
	Sources Sources `toml:"source" json:"sources,omitempty"`
	// NotFound says what could not be found and why (kind "not-found").
	NotFound string `toml:"not_found" json:"not_found,omitempty"`
}

// Release is the newest release seen in the stored sources on CheckedOn.
type Release struct {
	Tag string `toml:"tag" json:"tag,omitempty"`
	// Date is the release's date, YYYY-MM-DD, or "" when no source gives it.
	Date string `toml:"date" json:"date,omitempty"`
	// Stable and StableDate name the newest stable release when Tag is a
	// pre-release (a release candidate); empty otherwise.
	Stable     string  `toml:"stable" json:"stable,omitempty"`
	StableDate string  `toml:"stable_date" json:"stable_date,omitempty"`
	CheckedOn  string  `toml:"checked_on" json:"checked_on"`
	Sources    Sources `toml:"source" json:"sources,omitempty"`
	// NotFound says what is missing (the tag, the date) and why; it is
	// required whenever Tag or Date is empty.
	NotFound string `toml:"not_found" json:"not_found,omitempty"`
}

// SPDXLicences are the licence identifiers kb check accepts: the ones open
// serving software ships under. A licence outside them is a new fact to
// look up on spdx.org/licenses and add here, not a typo to let through.
var SPDXLicences = []string{
	"Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause", "MPL-2.0", "ISC",
	"GPL-2.0-only", "GPL-3.0-only", "LGPL-2.1-only", "LGPL-3.0-only", "AGPL-3.0-only",
}

// LookupProduct finds a product by id or by display name, ignoring case
// and runs of space: "dynamo", "NVIDIA Dynamo" and "nvidia dynamo" are
// one product.
func (kb *KB) LookupProduct(s string) *Product {
	s = strings.Join(strings.Fields(s), " ")
	if p := kb.productByID[strings.ToLower(s)]; p != nil {
		return p
	}
	for _, p := range kb.Products {
		if strings.EqualFold(p.Name, s) {
			return p
		}
	}
	return nil
}

// ProductIDs lists every product id in knowledge-base order.
func (kb *KB) ProductIDs() []string {
	ids := make([]string, len(kb.Products))
	for i, p := range kb.Products {
		ids[i] = p.ID
	}
	return ids
}
