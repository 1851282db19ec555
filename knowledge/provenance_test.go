package knowledge

import (
	"slices"
	"strings"
	"testing"
)

// okProvenance completes okProd: a licence, a governance and a release,
// each with its source and quote.
const okProvenance = "[product.licence]\nspdx = \"MIT\"\n[[product.licence.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"LICENSE\"\nquote = \"MIT License\"\nchecked_on = \"2026-12-01\"\n" +
	"[product.governance]\nkind = \"vendor\"\ntext = \"V-led\"\n[[product.governance.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"README.md\"\nquote = \"by V\"\nchecked_on = \"2026-12-01\"\n" +
	"[product.release]\ntag = \"v1.0.0\"\ndate = \"2026-10-01\"\nchecked_on = \"2026-12-01\"\n[[product.release.source]]\nkind = \"release\"\nrepo = \"o/p\"\nref = \"v1.0.0\"\nquote = \"v1.0.0\"\nsource_date = \"2026-10-01\"\nchecked_on = \"2026-12-01\"\n"

func buildProduct(t *testing.T, provenance string) string {
	t.Helper()
	_, err := Build(Embedded(), []SourceFile{{Name: "kb/x.toml", Data: []byte(okProd + provenance + placeP)}})
	if err != nil {
		return err.Error()
	}
	return "<nil>"
}

func TestAProductWithItsLicenceGovernanceAndReleaseLoads(t *testing.T) {
	if got := buildProduct(t, okProvenance); got != "<nil>" {
		t.Fatalf("a complete product does not load:\n%s", got)
	}
	// What no source gives may be left out, saying why.
	notFound := strings.Replace(okProvenance, "kind = \"vendor\"\ntext = \"V-led\"\n[[product.governance.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"README.md\"\nquote = \"by V\"\nchecked_on = \"2026-12-01\"\n", "kind = \"not-found\"\nnot_found = \"no governance file\"\n", 1)
	notFound = strings.Replace(notFound, "date = \"2026-10-01\"\n", "not_found = \"the tag has no date\"\n", 1)
	if got := buildProduct(t, notFound); got != "<nil>" {
		t.Fatalf("values marked not found do not load:\n%s", got)
	}
}

// kb check rejects a product without its licence, governance or latest
// release, or with a malformed date, and says what to add.
func TestKBCheckRejectsAProductWithoutLicenceGovernanceOrRelease(t *testing.T) {
	licence := "[product.licence]\nspdx = \"MIT\"\n[[product.licence.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"LICENSE\"\nquote = \"MIT License\"\nchecked_on = \"2026-12-01\"\n"
	governance := "[product.governance]\nkind = \"vendor\"\ntext = \"V-led\"\n[[product.governance.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"0123456789abcdef0123456789abcdef01234567\"\npath = \"README.md\"\nquote = \"by V\"\nchecked_on = \"2026-12-01\"\n"
	release := "[product.release]\ntag = \"v1.0.0\"\ndate = \"2026-10-01\"\nchecked_on = \"2026-12-01\"\n[[product.release.source]]\nkind = \"release\"\nrepo = \"o/p\"\nref = \"v1.0.0\"\nquote = \"v1.0.0\"\nsource_date = \"2026-10-01\"\nchecked_on = \"2026-12-01\"\n"
	cases := []struct{ name, provenance, want string }{
		{"no licence", governance + release,
			`kb/x.toml:1: product "p": needs its licence; add [product.licence] with spdx = "…" (the SPDX id its LICENSE file states) and its [[product.licence.source]]`},
		{"licence not an SPDX id", strings.Replace(licence, `"MIT"`, `"Apache-2"`, 1) + governance + release,
			`kb/x.toml:12: product "p" licence.spdx: "Apache-2" is not an SPDX licence id stackpick knows (allowed: Apache-2.0, MIT, BSD-2-Clause, BSD-3-Clause, MPL-2.0, ISC, GPL-2.0-only, GPL-3.0-only, LGPL-2.1-only, LGPL-3.0-only, AGPL-3.0-only); did you mean "Apache-2.0"?`},
		{"licence without its quote", strings.Replace(licence, "quote = \"MIT License\"\n", "", 1) + governance + release,
			`kb/x.toml:13: product "p" licence source 1 quote: a source needs the exact words read there; quote = "…" (an exact substring of the source), or checked = "not available: why"`},
		{"no governance", licence + release,
			`kb/x.toml:1: product "p": needs its governance (who governs it); add [product.governance] with kind, text and its [[product.governance.source]] (or kind = "not-found" and not_found = "why")`},
		{"governance kind misspelt", licence + strings.Replace(governance, `"vendor"`, `"vender"`, 1) + release,
			`kb/x.toml:21: product "p" governance.kind: unknown governance kind "vender" (allowed: foundation, vendor, community, not-found); did you mean "vendor"?`},
		{"governance not found without a reason", licence + "[product.governance]\nkind = \"not-found\"\n" + release,
			`kb/x.toml:21: product "p" governance: kind = "not-found" needs the reason; add not_found = "…" (what was looked for, and where)`},
		{"no release", licence + governance,
			`kb/x.toml:1: product "p": needs its latest release; add [product.release] with tag, date, checked_on and its [[product.release.source]] (or not_found = "why")`},
		{"release date malformed", licence + governance + strings.Replace(release, "2026-10-01\"", "Oct 2026\"", 1),
			`kb/x.toml:32: product "p" release.date: "Oct 2026" is not a date (allowed: YYYY-MM-DD); for example date = "2026-12-01"`},
		{"release date impossible", licence + governance + strings.Replace(release, "2026-10-01\"", "2026-02-30\"", 1),
			`kb/x.toml:32: product "p" release.date: "2026-02-30" is not a date (allowed: YYYY-MM-DD); for example date = "2026-12-01"`},
		{"release without checked_on", licence + governance + strings.Replace(release, "checked_on = \"2026-12-01\"\n", "", 1),
			`kb/x.toml:30: product "p" release.checked_on: missing (allowed: YYYY-MM-DD); for example checked_on = "2026-12-01"`},
		{"release after it was checked", licence + governance + strings.Replace(release, "2026-10-01\"", "2027-01-05\"", 1),
			`kb/x.toml:32: product "p" release.date: released 2027-01-05, after it was checked on 2026-12-01; a release cannot be newer than the day it was looked up`},
		{"release without a date or a reason", licence + governance + strings.Replace(release, "date = \"2026-10-01\"\n", "", 1),
			`kb/x.toml:30: product "p" release: no release date and no reason; add date = "YYYY-MM-DD", or not_found = "…" saying why the date could not be found`},
		{"release without a tag or a reason", licence + governance + "[product.release]\nchecked_on = \"2026-12-01\"\n",
			`kb/x.toml:30: product "p" release: no release tag and no reason; add tag = "…", or not_found = "…" saying why no release could be found`},
		{"release without its source", licence + governance + release[:strings.Index(release, "[[product.release.source]]")],
			`kb/x.toml:30: product "p" release: needs a source; add [[product.release.source]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := buildProduct(t, c.provenance); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestEveryBuiltInProductRecordsItsLicenceGovernanceAndRelease(t *testing.T) {
	kb := MustDefault()
	for _, p := range kb.Products {
		if p.Licence.SPDX == "" || p.Governance.Kind == "" || p.Release.CheckedOn != "2026-12-01" {
			t.Errorf("%s: licence %q, governance %q, release checked on %q", p.ID, p.Licence.SPDX, p.Governance.Kind, p.Release.CheckedOn)
		}
	}
}

func TestAProductIsFoundByIDOrNameInAnyCase(t *testing.T) {
	kb := MustDefault()
	for in, want := range map[string]string{
		"dynamo": "dynamo", "NVIDIA Dynamo": "dynamo", " nvidia   dynamo ": "dynamo",
		"LLM-D": "llm-d", "KServe": "kserve", "sglang router": "sgl-router",
	} {
		p := kb.LookupProduct(in)
		if p == nil || p.ID != want {
			t.Errorf("LookupProduct(%q) = %v, want %s", in, p, want)
		}
	}
	for _, in := range []string{"", "dynamo-llm", "none"} {
		if p := kb.LookupProduct(in); p != nil {
			t.Errorf("LookupProduct(%q) = %s, want nothing", in, p.ID)
		}
	}
}

// A vendors record does not quote a page about a vendor it leaves out:
// the compare grid footnotes the cell with these sources, and "NVIDIA"
// beside a page about Intel GPUs reads as a cell that hides Intel.
func TestVendorRecordsQuoteNoVendorTheyLeaveOut(t *testing.T) {
	kb := MustDefault()
	names := map[string][]string{"amd": {"AMD"}, "intel": {"Intel"}, "google": {"TPU", "Google"}}
	for _, c := range kb.Capabilities {
		if c.What != "vendors" {
			continue
		}
		for vendor, words := range names {
			if slices.Contains(c.Values, vendor) {
				continue
			}
			for _, w := range words {
				if strings.Contains(c.Sources.Quote(), w) || strings.Contains(strings.ToLower(c.Sources.Cite(true)), strings.ToLower(w)) {
					t.Errorf("%s vendors (%v) cites %q, which is about %s: list %s with its quote, or cite the page the values come from", c.Product, c.Values, w, w, vendor)
				}
			}
		}
	}
}
