// Package verify checks the knowledge base's sources against copies of
// the sources themselves: for every repository source, the file at its
// pinned commit must hold its quote (and, in a git copy, the release tag
// must contain the commit); for every course-notes source, the section
// must be a heading of the notes and hold the quote; and every flag
// stackpick can emit must be in the engine's argument parser at the
// release.
//
// It reads files and runs git, so it is kept out of the knowledge base's
// load path: only `stackpick kb verify` calls it. It never uses the
// network: git runs with every transport disabled.
package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

// State is the outcome of checking one source (or one flag).
type State string

// The states of a source, in the order the summary counts them.
const (
	Verified     State = "verified"
	QuoteMissing State = "quote missing"
	FileMissing  State = "file missing"
	// SectionMissing is a course-notes source whose section title is not
	// a heading of the notes.
	SectionMissing State = "section missing"
	CommitMissing  State = "commit missing"
	BadTag         State = "tag does not contain the commit"
	TagMissing     State = "tag missing"
	// SymbolMissing is a source whose symbol the file does not declare;
	// LinesOutside one whose quote is not within its lines.
	SymbolMissing State = "symbol missing"
	LinesOutside  State = "quote outside lines"
	TooLarge      State = "file too large"
	NotAvailable  State = "not available"
)

// States lists every state in summary order.
var States = []State{Verified, QuoteMissing, FileMissing, SymbolMissing, LinesOutside, SectionMissing, CommitMissing, TagMissing, BadTag, TooLarge, NotAvailable}

// Failed reports whether the state makes kb verify exit 1: the source
// was there to check, and it did not hold.
func (s State) Failed() bool {
	switch s {
	case QuoteMissing, FileMissing, SymbolMissing, LinesOutside, SectionMissing, CommitMissing, TagMissing, BadTag, TooLarge, NotFound:
		return true
	}
	return false
}

// MaxFileBytes caps how much of one source file is read: a file larger
// than this is reported as too large instead of being read whole.
const MaxFileBytes = 16 << 20

// Options says where the copies are.
type Options struct {
	// Sources is the folder of repositories: git clones or bare mirrors
	// at OWNER/NAME, OWNER/NAME.git, OWNER+NAME or OWNER+NAME/repo, or
	// plain trees at OWNER/NAME/REF/PATH.
	Sources string
	// Notes is the course notes' text file ("" skips notes sources).
	Notes string
	// Releases names, per engine id, release tags whose flags are checked
	// besides the releases the flags' own sources name (the release the
	// launch command is written for).
	Releases map[string][]string
	// Parsers is the engines' argument parsers (DefaultParsers when nil).
	Parsers []Parser
}

// Result is one source's check.
type Result struct {
	Fact string `json:"fact"`
	// Item is which of the fact's sources this is ("source 2 of 3"), when
	// it has more than one.
	Item   string           `json:"item,omitempty"`
	File   string           `json:"file"`
	Line   int              `json:"line"`
	Source knowledge.Source `json:"source"`
	State  State            `json:"state"`
	// Detail says what was found, and Hint what to do, for a state other
	// than verified.
	Detail string `json:"detail,omitempty"`
	Hint   string `json:"hint,omitempty"`
}

// Report is the whole check.
type Report struct {
	Sources string       `json:"sources_dir"`
	Notes   string       `json:"notes_file,omitempty"`
	Results []Result     `json:"sources"`
	Flags   []FlagResult `json:"flags"`
	// Counts is the number of sources per state; FlagCounts of flags.
	Counts     map[State]int `json:"counts"`
	FlagCounts map[State]int `json:"flag_counts"`
	// NotesSkipped counts the course-notes sources left unchecked because
	// no notes file was given.
	NotesSkipped int `json:"notes_sources_not_checked,omitempty"`
	// FilesRead is how many distinct files (repo, commit, path) were read;
	// each is read once however many sources cite it.
	FilesRead int `json:"files_read"`
	// ReposNotFound lists the repositories the sources cite that the
	// sources folder has no copy of.
	ReposMissing []string `json:"repos_not_found"`
	// NotChecked counts the docs, pull-request, issue and release sources,
	// which kb verify does not check (it uses no network).
	NotChecked int `json:"other_sources_not_checked,omitempty"`
}

// Failed reports whether any source or flag failed its check.
func (r *Report) Failed() bool {
	for _, x := range r.Results {
		if x.State.Failed() {
			return true
		}
	}
	for _, f := range r.Flags {
		if f.State.Failed() {
			return true
		}
	}
	return false
}

// InputError is a problem with what kb verify was given (exit 2).
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Run checks every repository and course-notes source of the knowledge
// base, and the engines' flags, against the copies in opts.Sources.
func Run(kb *knowledge.KB, opts Options) (*Report, error) {
	dir, err := checkDir(opts.Sources)
	if err != nil {
		return nil, err
	}
	var notes *notesFile
	if opts.Notes != "" {
		notes, err = readNotes(opts.Notes)
		if err != nil {
			return nil, err
		}
	}
	v := newVerifier(dir)
	rep := &Report{Sources: opts.Sources, Notes: opts.Notes, Counts: map[State]int{}, FlagCounts: map[State]int{}}
	notesChecked, notesFound := 0, 0
	var at sourceLines
	for _, f := range kb.Facts() {
		for i, s := range f.Sources {
			var res Result
			switch {
			case s.Kind == knowledge.SourceRepo:
				res = v.repoSource(s)
			case s.Kind == knowledge.SourceNotes && notes != nil:
				res = notes.check(s)
				if !s.Unavailable() {
					notesChecked++
					if res.State != SectionMissing {
						notesFound++
					}
				}
			case s.Kind == knowledge.SourceNotes:
				rep.NotesSkipped++
				continue
			default:
				rep.NotChecked++
				continue
			}
			res.Fact, res.File, res.Source = label(f.What), f.Pos.File, s
			res.Line = f.Pos.Line
			if res.State.Failed() {
				res.Line = at.line(f.Pos, s)
			}
			if len(f.Sources) > 1 {
				res.Item = fmt.Sprintf("source %d of %d", i+1, len(f.Sources))
			}
			rep.Results = append(rep.Results, res)
			rep.Counts[res.State]++
		}
	}
	if notesChecked > 0 && notesFound == 0 {
		return nil, &InputError{fmt.Sprintf("--notes %s: this does not look like the course notes ('%s'): none of the %d sections the knowledge base cites is a heading in it; pass the course notes' text file", opts.Notes, knowledge.CourseNotesTitle, notesChecked)}
	}
	parsers := opts.Parsers
	if parsers == nil {
		parsers = DefaultParsers
	}
	rep.Flags = v.flags(kb, parsers, opts.Releases)
	for _, f := range rep.Flags {
		rep.FlagCounts[f.State]++
	}
	for _, f := range v.files {
		if f.state == Verified {
			rep.FilesRead++
		}
	}
	rep.ReposMissing = rep.ReposNotFound()
	if err := v.nothingRead(rep, notesChecked); err != nil {
		return nil, err
	}
	return rep, nil
}

// nothingRead is an input error when no repository could be read because
// git is missing, or the sources folder holds none of the repositories the
// sources cite, and nothing else was checked: a report of zero checks is
// not a pass.
func (v *verifier) nothingRead(rep *Report, notesChecked int) error {
	gitCopies, copies := 0, 0
	for _, c := range v.repos {
		if c != nil {
			copies++
			if c.gitDir != "" {
				gitCopies++
			}
		}
	}
	checked := notesChecked
	for _, x := range rep.Results {
		if x.Source.Kind == knowledge.SourceRepo && x.State != NotAvailable {
			checked++
		}
	}
	for _, f := range rep.Flags {
		if f.State != NotAvailable {
			checked++
		}
	}
	switch {
	case v.gitMissing && gitCopies > 0:
		return &InputError{fmt.Sprintf("git not found: %s in %s could not be read, so nothing in them was checked; install git (or put plain trees OWNER/NAME/REF/PATH there instead)", plural(gitCopies, "git copy"), rep.Sources)}
	case copies == 0 && checked == 0:
		msg := fmt.Sprintf("--sources %s holds none of the %d repositories the sources cite, so nothing was checked; pass the folder that holds them as OWNER/NAME or OWNER+NAME (e.g. vllm-project/vllm)", rep.Sources, len(rep.ReposMissing))
		if sub := v.ownerFolderHint(rep.ReposMissing); sub != "" {
			msg += "; " + sub
		}
		return &InputError{msg}
	}
	return nil
}

// ownerFolderHint notices a sources folder one level too deep: it holds
// NAME folders of repositories whose OWNER it is.
func (v *verifier) ownerFolderHint(repos []string) string {
	for _, r := range repos {
		_, name, _ := strings.Cut(r, "/")
		if isDir(filepath.Join(v.dir, name)) || isDir(filepath.Join(v.dir, name+".git")) {
			return fmt.Sprintf("it looks like an owner's folder (it has %s): did you mean its parent, %s?", name, filepath.Dir(v.dir))
		}
	}
	return ""
}

// label names a fact for the report in the course's words: a product's
// course-notes corrections are "course-notes correction N".
func label(what string) string {
	return strings.Replace(what, " seed_outdated ", " course-notes correction ", 1)
}

// checkDir makes sure the sources folder is one.
func checkDir(dir string) (string, error) {
	if dir == "" {
		return "", &InputError{"--sources: no folder given; pass --sources DIR, a folder of repository copies (OWNER/NAME git clones or bare mirrors, or OWNER/NAME/REF/PATH trees)"}
	}
	fi, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return "", &InputError{fmt.Sprintf("--sources %s: no such folder; pass the folder that holds the repository copies (OWNER/NAME or OWNER+NAME)", dir)}
	case err != nil:
		return "", &InputError{fmt.Sprintf("--sources %s: %v", dir, err)}
	case !fi.IsDir():
		return "", &InputError{fmt.Sprintf("--sources %s: not a folder; pass the folder that holds the repository copies, not a file", dir)}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", &InputError{fmt.Sprintf("--sources %s: %v", dir, err)}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// collapse folds every run of whitespace to one space and trims the ends.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// Sorted returns the states with a count, in summary order.
func Sorted(counts map[State]int) []State {
	var out []State
	for _, s := range States {
		if counts[s] > 0 {
			out = append(out, s)
		}
	}
	return out
}

// reposNotFound lists the repositories no copy was found for.
func (r *Report) ReposNotFound() []string {
	seen := map[string]bool{}
	for _, x := range r.Results {
		if x.State == NotAvailable && strings.HasPrefix(x.Detail, notInDir) {
			seen[x.Source.Repo] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
