package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// dateRE is a whole date; time.Parse then rejects the 31st of February.
var dateRE = lazyRE(`^\d{4}-\d{2}-\d{2}$`)

// provenance checks every product's licence, governance and latest
// release: each present with its source and exact quote, or (governance,
// release) marked not found with the reason.
func (c *checker) provenance() {
	for _, p := range c.kb.Products {
		what := fmt.Sprintf("product %q", p.ID)
		c.licence(p, what)
		c.governance(p, what)
		c.release(p, what)
	}
}

func (c *checker) licence(p *Product, what string) {
	l := p.Licence
	if l.SPDX == "" && len(l.Sources) == 0 {
		c.at(p.Pos, what, nil, "needs its licence", "", `add [product.licence] with spdx = "…" (the SPDX id its LICENSE file states) and its [[product.licence.source]]`)
		return
	}
	if !slices.Contains(SPDXLicences, l.SPDX) {
		problem := fmt.Sprintf("%q is not an SPDX licence id stackpick knows", l.SPDX)
		if l.SPDX == "" {
			problem = "needs the SPDX id of the licence"
		}
		c.at(p.Pos, what+" licence.spdx", []string{"licence", "spdx"}, problem, strings.Join(SPDXLicences, ", "), didYouMean(l.SPDX, SPDXLicences))
	}
	c.checkSources(p.Pos, c.tableLine(p.Pos, "licence"), what+" licence", l.Sources)
}

func (c *checker) governance(p *Product, what string) {
	g := p.Governance
	if g.Kind == "" && g.Text == "" && len(g.Sources) == 0 {
		c.at(p.Pos, what, nil, "needs its governance (who governs it)", "", `add [product.governance] with kind, text and its [[product.governance.source]] (or kind = "not-found" and not_found = "why")`)
		return
	}
	if !slices.Contains(governanceKinds, g.Kind) {
		c.at(p.Pos, what+" governance.kind", []string{"governance", "kind"}, fmt.Sprintf("unknown governance kind %q", g.Kind), strings.Join(governanceKinds, ", "), didYouMean(g.Kind, governanceKinds))
		return
	}
	if g.Kind == GovernanceNotFound {
		if g.NotFound == "" {
			c.at(p.Pos, what+" governance", []string{"governance", "kind"}, `kind = "not-found" needs the reason`, "", `add not_found = "…" (what was looked for, and where)`)
		}
		return
	}
	if g.Text == "" {
		c.at(p.Pos, what+" governance", []string{"governance"}, "needs text", "", `add text = "…" (a short answer, e.g. "CNCF incubating project")`)
	}
	c.checkSources(p.Pos, c.tableLine(p.Pos, "governance"), what+" governance", g.Sources)
}

func (c *checker) release(p *Product, what string) {
	r := p.Release
	if r.Tag == "" && r.CheckedOn == "" && r.NotFound == "" && len(r.Sources) == 0 {
		c.at(p.Pos, what, nil, "needs its latest release", "", `add [product.release] with tag, date, checked_on and its [[product.release.source]] (or not_found = "why")`)
		return
	}
	checked, ok := c.date(p, what+" release.checked_on", []string{"release", "checked_on"}, r.CheckedOn, true)
	if r.Date != "" {
		if d, ok2 := c.releaseDate(p, what+" release.date", r.Date); ok && ok2 && d.After(checked) {
			c.at(p.Pos, what+" release.date", []string{"release", "date"}, fmt.Sprintf("released %s, after it was checked on %s", r.Date, r.CheckedOn), "", "a release cannot be newer than the day it was looked up")
		}
	}
	switch {
	case r.Tag == "" && r.NotFound == "":
		c.at(p.Pos, what+" release", []string{"release"}, "no release tag and no reason", "", `add tag = "…", or not_found = "…" saying why no release could be found`)
	case r.Date == "" && r.NotFound == "":
		c.at(p.Pos, what+" release", []string{"release"}, "no release date and no reason", "", `add date = "YYYY-MM-DD", or not_found = "…" saying why the date could not be found`)
	case r.Tag != "":
		c.checkSources(p.Pos, c.tableLine(p.Pos, "release"), what+" release", r.Sources)
	}
}

// releaseDate checks a release's date: a day (YYYY-MM-DD), or a month
// (YYYY-MM) where the source gives only the month, as a package index does.
func (c *checker) releaseDate(p *Product, what, s string) (time.Time, bool) {
	if t, err := time.Parse("2006-01", s); err == nil {
		return t, true
	}
	return c.date(p, what, []string{"release", "date"}, s, false)
}

// date checks a YYYY-MM-DD date; a required one may not be empty.
func (c *checker) date(p *Product, what string, path []string, s string, required bool) (time.Time, bool) {
	if s == "" && !required {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, s)
	if !dateRE.MatchString(s) || err != nil {
		problem := fmt.Sprintf("%q is not a date", s)
		if s == "" {
			problem = "missing"
		}
		c.at(p.Pos, what, path, problem, "YYYY-MM-DD", fmt.Sprintf(`for example %s = "2026-12-01"`, path[len(path)-1]))
		return time.Time{}, false
	}
	return t, true
}
