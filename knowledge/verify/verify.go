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
	TooLarge       State = "file too large"
	NotAvailable   State = "not available"
)

// States lists every state in summary order.
var States = []State{Verified, QuoteMissing, FileMissing, SectionMissing, CommitMissing, BadTag, TooLarge, NotAvailable}

// Failed reports whether the state makes kb verify exit 1: the source
// was there to check, and it did not hold.
func (s State) Failed() bool {
	switch s {
	case QuoteMissing, FileMissing, SectionMissing, CommitMissing, BadTag, TooLarge, NotFound:
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
	Fact   string           `json:"fact"`
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
	for _, f := range kb.Facts() {
		for _, s := range f.Sources {
			var res Result
			switch {
			case s.Kind == knowledge.SourceRepo:
				res = v.repoSource(s)
			case s.Kind == knowledge.SourceNotes && notes != nil:
				res = notes.check(s)
			case s.Kind == knowledge.SourceNotes:
				rep.NotesSkipped++
				continue
			default:
				continue
			}
			res.Fact, res.File, res.Line, res.Source = f.What, f.Pos.File, f.Pos.Line, s
			rep.Results = append(rep.Results, res)
			rep.Counts[res.State]++
		}
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
	return rep, nil
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
