package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Every fact in the knowledge base carries one or more [[….source]]
// records: where it was read, in a form a machine can check. A repository
// file is pinned to a commit with the exact words read there; a docs page
// is a versioned URL; a pull request names the first release that holds
// it; the course notes are cited by section title and quote. source_date
// is the source's own date and checked_on the day it was read; a source
// that could not be read says so in checked ("not available: why")
// instead of being stamped as checked.

// Source kinds: the closed vocabulary of source.kind.
const (
	SourceRepo    = "repo"    // a file in a git repository at a pinned commit
	SourceDocs    = "docs"    // a published page at a versioned URL
	SourcePR      = "pr"      // a pull request
	SourceIssue   = "issue"   // an issue thread
	SourceRelease = "release" // a release's notes
	SourceNotes   = "notes"   // the course notes, 'Engines as Products'
)

// SourceKinds lists the kinds in the order kb check names them.
var SourceKinds = []string{SourceRepo, SourceDocs, SourcePR, SourceIssue, SourceRelease, SourceNotes}

// CourseNotesTitle is how stackpick names its source material.
const CourseNotesTitle = "Engines as Products"

// NotAvailable starts checked when a source could not be read.
const NotAvailable = "not available: "

// Source is one checkable citation.
type Source struct {
	Kind string `toml:"kind" json:"kind"`
	// Repo is owner/name on GitHub (repo, pr, issue and release kinds).
	Repo string `toml:"repo" json:"repo,omitempty"`
	// Ref is the release tag the fact is claimed for (repo), or the
	// release itself (release).
	Ref string `toml:"ref" json:"ref,omitempty"`
	// Commit is the full 40-hex commit the file was read at.
	Commit string `toml:"commit" json:"commit,omitempty"`
	Path   string `toml:"path" json:"path,omitempty"`
	// Symbol (a function, class or field) or Lines ("120-134") narrows
	// the file to where the quote is.
	Symbol string `toml:"symbol" json:"symbol,omitempty"`
	Lines  string `toml:"lines" json:"lines,omitempty"`
	// URL is a docs page (versioned: never /stable/ or /latest/) or a
	// release page.
	URL   string `toml:"url" json:"url,omitempty"`
	Title string `toml:"title" json:"title,omitempty"`
	// Number is the pull request's or issue's number.
	Number int `toml:"number" json:"number,omitempty"`
	// FirstRelease is the first release that contains a pull request, or
	// "unreleased" or "not merged".
	FirstRelease string `toml:"first_release" json:"first_release,omitempty"`
	// Section is the course notes' section title.
	Section string `toml:"section" json:"section,omitempty"`
	// Quote is an exact substring of the source (for a repository file,
	// of the file at Commit).
	Quote      string `toml:"quote" json:"quote,omitempty"`
	SourceDate string `toml:"source_date" json:"source_date,omitempty"`
	CheckedOn  string `toml:"checked_on" json:"checked_on"`
	// Checked is empty when the source was read on CheckedOn, or
	// "not available: why" when it could not be.
	Checked string `toml:"checked" json:"checked,omitempty"`
}

// Sources is a fact's citations, in the order they were written.
type Sources []Source

// Unavailable reports whether the source could not be read.
func (s Source) Unavailable() bool { return strings.HasPrefix(s.Checked, NotAvailable) }

// Short is a commit cut to the 8 hex digits a reader can still look up.
func Short(commit string) string {
	if len(commit) > 8 {
		return commit[:8]
	}
	return commit
}

// Cite words the source on one line: short (8-hex commits, no quote) for
// the running text, or full (whole commit) for a memo's Sources list.
func (s Source) Cite(full bool) string {
	commit := Short(s.Commit)
	if full {
		commit = s.Commit
	}
	var b strings.Builder
	switch s.Kind {
	case SourceRepo:
		b.WriteString(s.Repo)
		if s.Ref != "" {
			b.WriteString(" " + s.Ref)
		}
		if commit != "" {
			b.WriteString(" @" + commit)
		}
		b.WriteString(" " + s.Path)
		switch {
		case s.Symbol != "":
			b.WriteString(" (" + s.Symbol + ")")
		case s.Lines != "":
			b.WriteString(" (lines " + s.Lines + ")")
		}
	case SourcePR, SourceIssue:
		word := "PR"
		if s.Kind == SourceIssue {
			word = "issue"
		}
		fmt.Fprintf(&b, "%s %s #%d", s.Repo, word, s.Number)
		switch r := s.FirstRelease; {
		case r == "":
		case releaseTagRE.MatchString(r):
			b.WriteString(" (in " + r + ")")
		default:
			b.WriteString(" (" + r + ")")
		}
	case SourceRelease:
		b.WriteString(s.Repo + " " + s.Ref + " release notes")
		if s.SourceDate != "" {
			b.WriteString(" (" + s.SourceDate + ")")
		}
	case SourceNotes:
		b.WriteString(CourseNotesTitle + ", '" + s.Section + "'")
	default: // docs
		switch {
		case s.Title != "" && s.URL != "":
			b.WriteString(s.Title + ": " + s.URL)
		case s.Title != "":
			b.WriteString(s.Title)
		default:
			b.WriteString(s.URL)
		}
	}
	return b.String()
}

// Cite words every source, joined by "; ", each citation once (several
// quotes read in one file cite it once).
func (ss Sources) Cite(full bool) string {
	parts := make([]string, 0, len(ss))
	for _, s := range ss {
		if c := s.Cite(full); !slices.Contains(parts, c) {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "; ")
}

// String is the short citation.
func (ss Sources) String() string { return ss.Cite(false) }

// CheckedOn is the earliest day any of the sources was read: how fresh
// the fact is at worst. It is "" when none was read.
func (ss Sources) CheckedOn() string {
	out := ""
	for _, s := range ss {
		if s.Unavailable() || s.CheckedOn == "" {
			continue
		}
		if out == "" || s.CheckedOn < out {
			out = s.CheckedOn
		}
	}
	return out
}

// Quote is the first source's quote that is not empty, or "".
func (ss Sources) Quote() string {
	for _, s := range ss {
		if s.Quote != "" {
			return s.Quote
		}
	}
	return ""
}

// Unavailable reports whether no source of the fact could be read.
func (ss Sources) Unavailable() bool {
	for _, s := range ss {
		if !s.Unavailable() {
			return false
		}
	}
	return len(ss) > 0
}

// OfRepo lists the repository sources, for kb verify.
func (ss Sources) OfRepo() []Source {
	var out []Source
	for _, s := range ss {
		if s.Kind == SourceRepo {
			out = append(out, s)
		}
	}
	return out
}

// movingRefs are branch names: a ref names a release, which does not move.
var movingRefs = []string{"main", "master", "head", "develop", "dev", "trunk", "nightly", "latest", "stable"}

// unversionedDocs are path segments of a docs URL that move with every
// release: a fact cited there has no fixed text to check.
var unversionedDocs = []string{"stable", "latest", "master", "main", "nightly", "dev"}

var (
	commitRE     = lazyRE(`^[0-9a-f]{40}$`)
	repoRE       = lazyRE(`^[A-Za-z0-9][A-Za-z0-9_.\-]*/[A-Za-z0-9][A-Za-z0-9_.\-]*$`)
	monthRE      = lazyRE(`^\d{4}-\d{2}(-\d{2})?$`)
	linesRE      = lazyRE(`^\d+(-\d+)?$`)
	releaseTagRE = lazyRE(`^v?\d`)
	releaseRE    = lazyRE(`^(v?\d|unreleased$|not merged$)`)
)

// unversionedSegment is the path segment that makes a docs URL move with
// every release (stable, latest, …), or "".
func unversionedSegment(url string) string {
	url = strings.SplitN(strings.SplitN(url, "?", 2)[0], "#", 2)[0]
	segs := strings.Split(url, "/")
	if len(segs) <= 3 {
		return ""
	}
	for _, seg := range segs[3:] {
		for _, u := range unversionedDocs {
			if strings.EqualFold(seg, u) {
				return seg
			}
		}
	}
	return ""
}

// sourceProblem checks one source record and says what is wrong with it
// (the field, the problem, the fix), or returns ok.
func sourceProblem(s Source) (field, problem, hint string, ok bool) {
	bad := func(f, p, h string) (string, string, string, bool) { return f, p, h, false }
	switch {
	case s.Kind == "":
		return bad("kind", "a source needs its kind", `kind = "repo" (or docs, pr, issue, release, notes)`)
	case !slices.Contains(SourceKinds, s.Kind):
		return bad("kind", fmt.Sprintf("unknown source kind %q", s.Kind), "one of "+strings.Join(SourceKinds, ", ")+didYouMeanSuffix(s.Kind, SourceKinds))
	}
	if s.CheckedOn == "" {
		return bad("checked_on", "a source needs the day it was checked", `checked_on = "YYYY-MM-DD"`)
	}
	if !dateRE.MatchString(s.CheckedOn) {
		return bad("checked_on", fmt.Sprintf("%q is not a date", s.CheckedOn), `checked_on = "YYYY-MM-DD"`)
	}
	if s.SourceDate != "" && !monthRE.MatchString(s.SourceDate) {
		return bad("source_date", fmt.Sprintf("%q is not a date", s.SourceDate), `source_date = "YYYY-MM-DD" (or "YYYY-MM")`)
	}
	if s.SourceDate != "" && s.SourceDate[:7] > s.CheckedOn[:7] || len(s.SourceDate) == 10 && s.SourceDate > s.CheckedOn {
		return bad("source_date", fmt.Sprintf("the source is dated %s, after it was checked on %s", s.SourceDate, s.CheckedOn), "a source cannot be newer than the day it was read")
	}
	if slices.Contains(movingRefs, strings.ToLower(s.Ref)) {
		return bad("ref", fmt.Sprintf("%q is a branch, not a release", s.Ref), "ref names the release tag the fact is claimed for (v0.31.0); leave it out when the commit is in no release, and pin the commit")
	}
	if s.Checked != "" && !(s.Unavailable() && len(strings.TrimSpace(strings.TrimPrefix(s.Checked, NotAvailable))) > 0) {
		return bad("checked", fmt.Sprintf("%q is not a check result", s.Checked), `leave checked out when the source was read, or checked = "not available: why"`)
	}
	// A source that was read must be checkable in full; one that could
	// not be read must still say what it is.
	read := !s.Unavailable()
	switch s.Kind {
	case SourceRepo:
		switch {
		case !repoRE.MatchString(s.Repo):
			return bad("repo", fmt.Sprintf("%q is not owner/name", s.Repo), `repo = "vllm-project/vllm"`)
		case s.Path == "" || strings.HasPrefix(s.Path, "/"):
			return bad("path", "a repository source needs the file's path in the repository", `path = "vllm/engine/arg_utils.py"`)
		case read && !commitRE.MatchString(s.Commit):
			return bad("commit", fmt.Sprintf("%q is not a 40-hex commit", s.Commit), "the full commit id the file was read at, in lower case (git rev-parse "+cmp.Or(s.Ref, "HEAD")+")")
		case s.Commit != "" && !commitRE.MatchString(s.Commit):
			return bad("commit", fmt.Sprintf("%q is not a 40-hex commit", s.Commit), "the full commit id, or leave commit out when the file could not be read")
		case slices.Contains(strings.Split(s.Path, "/"), ".."):
			return bad("path", fmt.Sprintf("%q climbs out of the repository with ..", s.Path), "the file's path from the repository's root")
		case s.Lines != "" && !validLines(s.Lines):
			return bad("lines", fmt.Sprintf("%q is not a line range", s.Lines), `lines = "120-134" (first line from 1, last not before it)`)
		case s.URL != "":
			return bad("url", "a repository source is pinned by commit and path, not a URL", "drop url, or make it a docs source")
		}
	case SourceDocs:
		switch {
		case s.URL == "" && !read && s.Title != "":
			// A page that could not be found is named by its title.
		case !strings.HasPrefix(s.URL, "https://"):
			return bad("url", "a docs source needs its https:// URL", `url = "https://docs.vllm.ai/en/v0.31.0/…" (a page that could not be found: its title, and checked = "not available: why")`)
		}
		if seg := unversionedSegment(s.URL); seg != "" {
			return bad("url", fmt.Sprintf("%q is an unversioned docs URL (/%s/ moves with every release)", s.URL, seg), "cite the page of the release the fact is claimed for, e.g. /en/v0.31.0/ instead of /en/"+seg+"/")
		}
	case SourcePR, SourceIssue:
		switch {
		case !repoRE.MatchString(s.Repo):
			return bad("repo", fmt.Sprintf("%q is not owner/name", s.Repo), `repo = "vllm-project/vllm"`)
		case s.Number <= 0:
			return bad("number", "a pull request or issue needs its number", "number = 25543")
		case read && s.Kind == SourcePR && s.FirstRelease == "":
			return bad("first_release", "a pull request needs the first release that contains it", `first_release = "v0.11.0" (or "unreleased", "not merged")`)
		case s.FirstRelease != "" && !releaseRE.MatchString(s.FirstRelease):
			return bad("first_release", fmt.Sprintf("%q is not a release", s.FirstRelease), `a tag such as "v0.11.0", or "unreleased", "not merged"`)
		}
	case SourceRelease:
		switch {
		case !repoRE.MatchString(s.Repo):
			return bad("repo", fmt.Sprintf("%q is not owner/name", s.Repo), `repo = "kserve/kserve"`)
		case s.Ref == "":
			return bad("ref", "release notes need the release's tag", `ref = "v0.21.0"`)
		}
	case SourceNotes:
		if s.Section == "" {
			return bad("section", "a course-notes source needs the section's title", `section = "When to pick vLLM"`)
		}
	}
	if read && strings.TrimSpace(s.Quote) == "" {
		return bad("quote", "a source needs the exact words read there", `quote = "…" (an exact substring of the source), or checked = "not available: why"`)
	}
	return "", "", "", true
}

func didYouMeanSuffix(s string, among []string) string {
	if h := didYouMean(s, among); h != "" {
		return "; " + h
	}
	return ""
}

// subLine is the line of the idx-th [[item.name]] table of the item at
// pos, or the item's line.
func (c *checker) subLine(pos Pos, name string, idx int) int {
	if loc := c.locs[pos.File]; loc != nil {
		if l := loc.subElement(pos.Line, name, idx); l > 0 {
			return l
		}
	}
	return pos.Line
}

// tableLine is the line of the item's [item.name] table, or the item's.
func (c *checker) tableLine(pos Pos, name string) int {
	if loc := c.locs[pos.File]; loc != nil {
		return loc.keyLine(pos.Line, name)
	}
	return pos.Line
}

// validLines reports whether s is "N" or "N-M" with 1 ≤ N ≤ M.
func validLines(s string) bool {
	if !linesRE.MatchString(s) {
		return false
	}
	from, to, _ := strings.Cut(s, "-")
	a, _ := strconv.Atoi(from)
	b := a
	if to != "" {
		b, _ = strconv.Atoi(to)
	}
	return a >= 1 && b >= a
}

// SourceHint says how to write a [[table]] source record.
func SourceHint(table string) string {
	return "[[" + table + `]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"`
}

// checkSources reports every problem of a fact's sources: none at all,
// or a record that is not checkable. from is the line of the item (or
// sub-item, such as a landmine) the sources belong to.
func (c *checker) checkSources(pos Pos, from int, what string, ss Sources) {
	c.checkSourcesNamed(pos, from, what, "source", ss)
}

// checkSourcesNamed is checkSources for sources under another table name
// ([[gpu.non_torch_source]]).
func (c *checker) checkSourcesNamed(pos Pos, from int, what, name string, ss Sources) {
	if len(ss) == 0 && name != "source" {
		return
	}
	if len(ss) == 0 {
		table := "….source"
		if loc := c.locs[pos.File]; loc != nil && from > 0 && from <= len(loc.headers) && loc.headers[from-1] != "" {
			table = loc.headers[from-1] + "." + name
		}
		c.at(Pos{pos.File, from}, what, nil, "needs a source", "", "add "+SourceHint(table))
		return
	}
	for i, s := range ss {
		field, problem, hint, ok := sourceProblem(s)
		if ok {
			continue
		}
		line := from
		if loc := c.locs[pos.File]; loc != nil {
			if l := loc.subElement(from, name, i); l > 0 {
				line = loc.keyLine(l, field)
			}
		}
		*c.errs = append(*c.errs, &Error{File: pos.File, Line: line, Key: what + " source " + strconv.Itoa(i+1) + " " + field, Problem: problem, Hint: hint})
	}
}

// Freshness says when the fact was last read: "checked 2026-12-01", or
// that none of its sources could be read (each source's checked says why).
func (ss Sources) Freshness() string {
	if d := ss.CheckedOn(); d != "" {
		return "checked " + d
	}
	return "not checked: the source could not be read"
}

// CiteChecked is Cite, saying so when none of the sources could be read:
// a figure resting on them is not presented as checked.
func (ss Sources) CiteChecked(full bool) string {
	if ss.Unavailable() {
		return ss.Cite(full) + " (not checked: the source could not be read)"
	}
	return ss.Cite(full)
}
