package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// WriteText prints one line per failed source or flag (file:line, the
// fact, what is wrong, what to do), then the summary.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	seen := map[string]bool{}
	line := func(s string) {
		if !seen[s] {
			seen[s] = true
			b.WriteString(s + "\n")
		}
	}
	stale := 0
	for _, x := range r.Results {
		if !x.State.Failed() {
			continue
		}
		if x.State == CommitMissing {
			stale++
		}
		item := ""
		if x.Item != "" {
			item = " (" + x.Item + ")"
		}
		line(fmt.Sprintf("%s:%d: %s%s, %s source%s: %s: %s; %s", x.File, x.Line, x.Fact, item, x.Source.Kind, where(x), x.State, x.Detail, x.Hint))
	}
	for _, f := range r.Flags {
		if !f.State.Failed() {
			continue
		}
		line(fmt.Sprintf("%s:%d: flag %q (%s) at %s %s: %s: %s; %s", f.File, f.Line, f.Flag, f.Name, f.Engine, f.Release, f.State, f.Detail, f.Hint))
	}
	repo, notes := 0, 0
	for _, x := range r.Results {
		if x.Source.Kind == knowledge.SourceNotes {
			notes++
		} else {
			repo++
		}
	}
	what := plural(repo, "repository source")
	if r.Notes != "" {
		what += ", " + plural(notes, "course-notes source")
	}
	fmt.Fprintf(&b, "sources: %s: %s\n", what, r.countLine(r.Counts, States, true))
	if r.NotChecked > 0 {
		fmt.Fprintf(&b, "not checked: %s (docs pages, pull requests, issues and release notes: kb verify uses no network)\n", plural(r.NotChecked, "other source"))
	}
	if r.NotesSkipped > 0 {
		fmt.Fprintf(&b, "not checked: %s (pass --notes FILE, the course notes' text)\n", plural(r.NotesSkipped, "course-notes source"))
	}
	if len(r.Flags) > 0 {
		fmt.Fprintf(&b, "flags: %s at %s: %s\n", plural(len(r.Flags), "flag check"), r.releases(), r.countLine(r.FlagCounts, FlagStates, false))
	} else {
		b.WriteString("flags: none checked (no engine release with a repository source or a launch command)\n")
	}
	fmt.Fprintf(&b, "read %s from %s (each once, at most %d MiB of one)\n", plural(r.FilesRead, "file"), r.Sources, MaxFileBytes>>20)
	if r.Failed() {
		if stale > 0 {
			fmt.Fprintf(&b, "%s cite a commit the copy does not have: the copy may be older than the knowledge base; update it (git fetch) and run again before changing those facts\n", plural(stale, "source"))
		}
		b.WriteString("FAILED: fix the lines above (each names the fact's file:line and the source's file)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) countLine(counts map[State]int, order []State, sources bool) string {
	var parts []string
	for _, s := range order {
		n := counts[s]
		if n == 0 && s != order[0] {
			continue
		}
		part := fmt.Sprintf("%d %s", n, s)
		if s == NotAvailable && !sources {
			var why []string
			for _, f := range r.Flags {
				if f.State == NotAvailable && !slices.Contains(why, f.Detail) {
					why = append(why, f.Detail)
				}
			}
			if len(why) > 3 {
				why = append(why[:3], "…")
			}
			part += " (" + strings.Join(why, "; ") + ")"
		}
		if s == NotAvailable && sources {
			marked := 0
			for _, x := range r.Results {
				if x.State == NotAvailable && x.Source.Unavailable() {
					marked++
				}
			}
			var why []string
			if marked > 0 {
				m := fmt.Sprintf("%d marked not available in the data", marked)
				if now := r.readableNow(); now > 0 {
					m += fmt.Sprintf(", %d of them in repositories the sources folder has a copy of", now)
				}
				why = append(why, m)
			}
			if missing := r.ReposNotFound(); len(missing) > 0 {
				why = append(why, reposWords(missing))
			}
			if other := n - marked - r.countNotInDir(); other > 0 {
				why = append(why, fmt.Sprintf("%d unreadable", other))
			}
			if len(why) > 0 {
				part += " (" + strings.Join(why, "; ") + ")"
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// readableNow counts the sources marked not available whose repository
// has a copy in the sources folder.
func (r *Report) readableNow() int {
	n := 0
	for _, x := range r.Results {
		if x.State == NotAvailable && strings.HasSuffix(x.Detail, readableNow) {
			n++
		}
	}
	return n
}

func (r *Report) countNotInDir() int {
	n := 0
	for _, x := range r.Results {
		if x.State == NotAvailable && strings.HasPrefix(x.Detail, notInDir) {
			n++
		}
	}
	return n
}

// releases names the engine releases the flags were checked at; the
// commits checked for an engine with no release are counted, not listed.
func (r *Report) releases() string {
	var out []string
	seen := map[string]bool{}
	commits := map[string]int{}
	var order []string
	for _, f := range r.Flags {
		if strings.HasPrefix(f.Release, "commit ") {
			if !seen[f.Engine+" "+f.Release] {
				seen[f.Engine+" "+f.Release] = true
				if commits[f.Engine] == 0 {
					order = append(order, f.Engine)
				}
				commits[f.Engine]++
			}
			continue
		}
		k := f.Engine + " " + f.Release
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, e := range order {
		if commits[e] == 1 {
			for _, f := range r.Flags {
				if f.Engine == e && strings.HasPrefix(f.Release, "commit ") {
					out = append(out, e+" "+f.Release)
					break
				}
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s at the %d commits its sources name (no release)", e, commits[e]))
	}
	return strings.Join(out, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// WriteJSON writes the whole report, every source and flag with its state.
func (r *Report) WriteJSON(w io.Writer) error {
	out := *r
	if out.Results == nil {
		out.Results = []Result{}
	}
	if out.Flags == nil {
		out.Flags = []FlagResult{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// reposWords names the repositories the sources folder has no copy of:
// all of them when few, else the first few and how many more (the JSON
// report lists every one).
func reposWords(missing []string) string {
	const shown = 6
	if len(missing) <= shown {
		return "no copy of " + strings.Join(missing, ", ")
	}
	return fmt.Sprintf("no copy of %d repositories: %s and %d more (--format json lists them in repos_not_found)", len(missing), strings.Join(missing[:shown], ", "), len(missing)-shown)
}

// where names the source's file for a failure line when its detail does
// not already: the repository file at its commit, or the notes' section.
func where(x Result) string {
	s := x.Source
	switch {
	case s.Kind == knowledge.SourceNotes:
		return ""
	case s.Path != "" && !strings.Contains(x.Detail, s.Path):
		return " " + citeAt(s)
	}
	return ""
}
