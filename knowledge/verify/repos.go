package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/stackpick/stackpick/knowledge"
)

// notInDir starts the detail of a source whose repository has no copy.
const notInDir = "no copy of "

// readableNow ends the detail of a source marked not available whose
// repository has a copy in the sources folder.
const readableNow = "the sources folder has a copy of its repository, so it can be read now"

// repoCopy is where one repository's copy is: a git directory (a bare
// mirror or a clone's .git), or a plain tree of OWNER/NAME/REF/PATH.
type repoCopy struct {
	gitDir string
	tree   string
}

// file is one source file as read: its text with whitespace collapsed,
// or why it could not be read.
type file struct {
	state  State
	text   string
	raw    string // the text as read, for line ranges and declarations
	detail string
}

type verifier struct {
	dir   string
	repos map[string]*repoCopy // nil value: no copy in dir
	files map[string]*file     // by repo, commit (or tree folder) and path
	tags  map[string]tagCheck  // by repo, ref and commit
	lists map[string][]string  // a folder's files at a commit
	// gitMissing is set when git is not installed.
	gitMissing bool
}

type tagCheck struct {
	ok      bool
	missing bool // the copy has no such tag
	detail  string
}

func newVerifier(dir string) *verifier {
	_, err := exec.LookPath("git")
	return &verifier{dir: dir, repos: map[string]*repoCopy{}, files: map[string]*file{}, tags: map[string]tagCheck{}, lists: map[string][]string{}, gitMissing: err != nil}
}

// safeName reports whether an owner or name is one folder name that
// cannot climb out of the sources folder.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && !strings.HasPrefix(s, "-")
}

// safeRel reports whether a path inside a repository stays inside it.
func safeRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00\n\r") || filepath.IsAbs(p) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// inside reports whether p, with its links followed, is in root.
func inside(root, p string) (string, bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return real, true
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isGitDir reports whether p looks like a git directory (bare or .git).
func isGitDir(p string) bool {
	fi, err := os.Stat(filepath.Join(p, "HEAD"))
	return err == nil && !fi.IsDir() && isDir(filepath.Join(p, "objects")) && isDir(filepath.Join(p, "refs"))
}

// copyOf finds the repository's copy in the sources folder, or nil.
func (v *verifier) copyOf(repo string) *repoCopy {
	if c, ok := v.repos[repo]; ok {
		return c
	}
	var found *repoCopy
	owner, name, ok := strings.Cut(repo, "/")
	if ok && safeName(owner) && safeName(name) {
		for _, cand := range []string{
			filepath.Join(v.dir, owner+"+"+name, "repo"),
			filepath.Join(v.dir, owner+"+"+name),
			filepath.Join(v.dir, owner, name+".git"),
			filepath.Join(v.dir, owner, name),
		} {
			// The names are single folder names, so the candidate is in
			// the sources folder; it may be a link the user made to a
			// clone elsewhere. Files inside a plain tree may not leave it.
			real, err := filepath.EvalSymlinks(cand)
			if err != nil || !isDir(real) {
				continue
			}
			if isGitDir(real) {
				found = &repoCopy{gitDir: real}
				break
			}
			if dotgit := filepath.Join(real, ".git"); fileExists(dotgit) {
				found = &repoCopy{gitDir: dotgit}
				break
			}
			if cand == filepath.Join(v.dir, owner, name) {
				found = &repoCopy{tree: real}
				break
			}
		}
	}
	v.repos[repo] = found
	return found
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// git runs git on a copy with every transport disabled (no fetch, no
// lazy fetch of a partial clone's missing objects) and returns its output.
func (v *verifier) git(gitDir string, stdin string, args ...string) ([]byte, error) {
	full := append([]string{"-c", "protocol.allow=never", "--git-dir", gitDir}, args...)
	cmd := exec.Command("git", full...)
	cmd.Env = append(os.Environ(), "GIT_NO_LAZY_FETCH=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, errors.New(msg)
	}
	return out, nil
}

// repoSource checks one repository source.
func (v *verifier) repoSource(s knowledge.Source) Result {
	c := v.copyOf(s.Repo)
	if s.Unavailable() {
		r := Result{State: NotAvailable, Detail: "marked " + s.Checked, Hint: "read the file at a commit and record the commit and quote, or keep the reason"}
		if c != nil {
			r.Detail += "; " + readableNow
			r.Hint = "read " + s.Path + " from the copy of " + s.Repo + " at the release's commit and record the commit and quote"
		}
		return r
	}
	if c == nil {
		return Result{State: NotAvailable, Detail: notInDir + s.Repo + " in the sources folder", Hint: "put a clone or mirror of " + s.Repo + " in the sources folder to check it"}
	}
	f := v.read(s.Repo, c, s.Ref, s.Commit, s.Path)
	at := citeAt(s)
	switch f.state {
	case Verified:
	case NotAvailable:
		return Result{State: NotAvailable, Detail: f.detail, Hint: "install git to read git copies, or use a plain tree"}
	case CommitMissing:
		hint := "update the copy (git fetch in it), or check the commit id"
		if s.Ref != "" {
			hint += " (git rev-parse " + s.Ref + "^{commit})"
		}
		return Result{State: CommitMissing, Detail: f.detail, Hint: hint}
	case FileMissing:
		hint := "the file is not at that commit: check the path (it may have moved), or the commit"
		if c.tree != "" {
			hint = "the file is not in that release's folder of the tree: check the path (it may have moved), or the ref"
		}
		return Result{State: FileMissing, Detail: f.detail, Hint: hint}
	default:
		return Result{State: f.state, Detail: f.detail, Hint: "cite a smaller file (or keep the source marked not available, with the reason)"}
	}
	if q := collapse(s.Quote); q == "" || !strings.Contains(f.text, q) {
		return Result{State: QuoteMissing, Detail: fmt.Sprintf("%s does not contain '%s'", at, clip(q)), Hint: "re-read the file at that commit and copy the quote exactly (or fix the fact and its commit)"}
	}
	if s.Lines != "" {
		if r, bad := checkLines(f.raw, s.Lines, s.Quote, at); bad {
			return r
		}
	}
	if s.Symbol != "" && !declares(f.raw, s.Symbol) {
		return Result{State: SymbolMissing, Detail: fmt.Sprintf("%s declares no %s (looked for a def, class, function, field or heading named %q)", at, s.Symbol, symbolName(s.Symbol)), Hint: "cite the symbol the quote is in, as the file at that commit names it (or drop symbol)"}
	}
	if s.Ref != "" && c.gitDir != "" {
		if t := v.tagContains(s.Repo, c, s.Ref, s.Commit); !t.ok {
			if t.missing {
				return Result{State: TagMissing, Detail: t.detail, Hint: "check ref is the release's tag (git tag --list in the copy), or update the copy (git fetch --tags)"}
			}
			return Result{State: BadTag, Detail: t.detail, Hint: "pin the commit the tag points at (git rev-parse " + s.Ref + "^{commit}), or fix ref"}
		}
	}
	return Result{State: Verified}
}

// checkLines checks the quote lies within the cited line range.
func checkLines(raw, lines, quote, at string) (Result, bool) {
	from, to := 0, 0
	a, b, ok := strings.Cut(lines, "-")
	if _, err := fmt.Sscan(a, &from); err != nil {
		from = 0
	}
	to = from
	if ok {
		if _, err := fmt.Sscan(b, &to); err != nil {
			to = 0
		}
	}
	all := strings.Split(strings.TrimSuffix(raw, "\n"), "\n")
	if from < 1 || to < from || from > len(all) {
		return Result{State: LinesOutside, Detail: fmt.Sprintf("%s has %d lines; lines %s is not a range in it", at, len(all), lines), Hint: "write the lines the quote is on, first-last (lines = \"120-134\")"}, true
	}
	to = min(to, len(all))
	q := collapse(quote)
	if strings.Contains(collapse(strings.Join(all[from-1:to], "\n")), q) {
		return Result{}, false
	}
	where := ""
	for i := range all {
		if strings.Contains(collapse(strings.Join(all[i:], "\n")), q) && !strings.Contains(collapse(strings.Join(all[i+1:], "\n")), q) {
			where = fmt.Sprintf(" (it starts on line %d)", i+1)
			break
		}
	}
	return Result{State: LinesOutside, Detail: fmt.Sprintf("the quote is not within lines %s of %s%s", lines, at, where), Hint: "fix lines to the lines the quote is on at that commit"}, true
}

// identPath is a symbol written as code: names joined by . or ::
// (EngineArgs.get_batch_defaults, llama_context::n_ctx_per_seq).
var identPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*$`) })

// symbolName is the last part of a symbol written as code:
// get_batch_defaults of EngineArgs.get_batch_defaults, n_ctx_per_seq of
// llama_context::n_ctx_per_seq; any other symbol (a heading, a table row,
// MODEL_PRESETS["x"]) is itself.
func symbolName(sym string) string {
	sym = strings.TrimSpace(sym)
	if !identPath().MatchString(sym) {
		return sym
	}
	if i := strings.LastIndex(sym, "::"); i >= 0 {
		sym = sym[i+2:]
	}
	if i := strings.LastIndex(sym, "."); i >= 0 {
		sym = sym[i+1:]
	}
	return sym
}

// symbolTokens are the names a symbol not written as code is made of,
// outside parentheses: MODEL_PRESETS and llama3_8b of
// MODEL_PRESETS["llama3_8b"] (commented out).
var symbolToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_.\-]*`) })

// declares reports whether the file defines or declares the symbol. For a
// symbol written as code, its last part must be declared: a def, class,
// function, type, struct or enum of that name; a field, key or enum value
// at the start of a line (name: / name = / name Type / Name {); a C or C++
// function defined at the start of a line; a typedef or #define. Any other
// symbol must be a heading of the file, or its names must all be in it.
func declares(raw, sym string) bool {
	name := symbolName(sym)
	if name == "" {
		return false
	}
	if !identPath().MatchString(strings.TrimSpace(sym)) {
		for _, l := range strings.Split(raw, "\n") {
			t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#="))
			if collapse(strings.Trim(t, "*`:")) == collapse(name) {
				return true
			}
		}
		outside := regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(name, " ")
		toks := symbolToken().FindAllString(outside, -1)
		if len(toks) == 0 {
			return false
		}
		for _, tk := range toks {
			if !strings.Contains(raw, tk) {
				return false
			}
		}
		return true
	}
	q := regexp.QuoteMeta(name)
	res := []string{
		`(?m)^\s*(?:[\w:<>*&,\[\]()]+\s+)*(?:def|class|func|struct|enum|fn|type|interface|trait|union|namespace|typedef)\s+(?:\([^)]*\)\s*)?` + q + `\b`,
		`(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?["']?` + q + `["']?\s*[:=]`,
		`(?m)^[A-Za-z_][^;\n]*\b` + q + `\s*\(`,
		`(?m)^\s*(?:pub\s+)?(?:const|static|let|var)\s+` + q + `\b`,
		`(?m)^\s*` + q + `\s*(?:[{(,]|$)`,
		`(?m)^\s*` + q + `\s+[*\[\]\w.]`,
		`\}\s*` + q + `\s*;`,
		`(?m)^\s*#\s*define\s+` + q + `\b`,
	}
	for _, r := range res {
		if regexp.MustCompile(r).MatchString(raw) {
			return true
		}
	}
	return false
}

// clip shortens a long quote for a one-line message.
func clip(q string) string {
	if r := []rune(q); len(r) > 80 {
		return string(r[:77]) + "…"
	}
	return q
}

// citeAt names a source's file at its commit for a message.
func citeAt(s knowledge.Source) string {
	at := s.Repo
	if s.Ref != "" {
		at += " " + s.Ref
	}
	return at + " @" + knowledge.Short(s.Commit) + " " + s.Path
}

// read reads one file of a copy at a commit (cached: a file is read once
// however many facts cite it). In a plain tree the folder is the ref, or
// the commit when there is no ref folder.
func (v *verifier) read(repo string, c *repoCopy, ref, commit, path string) *file {
	folder := commit
	if c.tree != "" {
		folder = v.treeFolder(c, ref, commit)
	}
	key := repo + "\x00" + folder + "\x00" + path
	if f, ok := v.files[key]; ok {
		return f
	}
	var f *file
	switch {
	case !safeRel(path):
		f = &file{state: FileMissing, detail: fmt.Sprintf("path %q is not a path inside the repository (absolute, or climbing out with ..)", path)}
	case c.gitDir != "":
		f = v.readGit(repo, c.gitDir, commit, path)
	default:
		f = v.readTree(repo, c.tree, folder, ref, commit, path)
	}
	v.files[key] = f
	return f
}

// treeFolder is the folder of a plain tree that holds the release: the
// ref's when it exists, else the commit's ("" when neither is safe).
func (v *verifier) treeFolder(c *repoCopy, ref, commit string) string {
	for _, cand := range []string{ref, commit} {
		if cand != "" && safeRel(cand) && isDir(filepath.Join(c.tree, filepath.FromSlash(cand))) {
			return cand
		}
	}
	return ""
}

func (v *verifier) readTree(repo, tree, folder, ref, commit, path string) *file {
	if folder == "" {
		names := commit
		if ref != "" {
			names = ref + " nor " + commit
		}
		return &file{state: CommitMissing, detail: fmt.Sprintf("the tree of %s has no folder %s", repo, names)}
	}
	p := filepath.Join(tree, filepath.FromSlash(folder), filepath.FromSlash(path))
	if !fileExists(p) {
		return &file{state: FileMissing, detail: fmt.Sprintf("the tree of %s has no %s in its folder %s", repo, path, folder)}
	}
	real, ok := inside(tree, p)
	if !ok {
		return &file{state: FileMissing, detail: fmt.Sprintf("%s/%s leads out of the tree of %s (a link)", folder, path, repo)}
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return &file{state: FileMissing, detail: err.Error()}
	case fi.IsDir():
		return &file{state: FileMissing, detail: fmt.Sprintf("%s/%s in the tree of %s is a folder, not a file", folder, path, repo)}
	case fi.Size() > MaxFileBytes:
		return tooLarge(repo, path, fi.Size())
	}
	fh, err := os.Open(real)
	if err != nil {
		return &file{state: FileMissing, detail: err.Error()}
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes+1))
	if err != nil {
		return &file{state: FileMissing, detail: err.Error()}
	}
	if len(b) > MaxFileBytes {
		return tooLarge(repo, path, int64(len(b)))
	}
	return &file{state: Verified, text: collapse(string(b)), raw: string(b)}
}

func tooLarge(repo, path string, size int64) *file {
	return &file{state: TooLarge, detail: fmt.Sprintf("%s %s is %d bytes, over the %d MiB kb verify reads of one file", repo, path, size, MaxFileBytes>>20)}
}

// readGit reads COMMIT:PATH from a git directory, asking its size first
// so a huge blob is never read.
func (v *verifier) readGit(repo, gitDir, commit, path string) *file {
	if v.gitMissing {
		return &file{state: NotAvailable, detail: "git is not installed, so the git copy of " + repo + " cannot be read"}
	}
	if !isHex40(commit) {
		return &file{state: CommitMissing, detail: fmt.Sprintf("%q is not a 40-hex commit", commit)}
	}
	out, err := v.git(gitDir, commit+"^{commit}\n"+commit+":"+path+"\n", "cat-file", "--batch-check")
	if err != nil {
		return &file{state: NotAvailable, detail: "git could not read the copy of " + repo + ": " + err.Error()}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 || strings.HasSuffix(lines[0], " missing") {
		return &file{state: CommitMissing, detail: fmt.Sprintf("the copy of %s has no commit %s (%s): it may be older than the pinned commit", repo, knowledge.Short(commit), path)}
	}
	fields := strings.Fields(lines[1])
	if len(fields) != 3 || strings.HasSuffix(lines[1], " missing") {
		return &file{state: FileMissing, detail: fmt.Sprintf("%s has no %s at %s", repo, path, knowledge.Short(commit))}
	}
	if fields[1] != "blob" {
		return &file{state: FileMissing, detail: fmt.Sprintf("%s %s at %s is a %s, not a file", repo, path, knowledge.Short(commit), fields[1])}
	}
	var size int64
	if _, err := fmt.Sscan(fields[2], &size); err != nil || size > MaxFileBytes {
		return tooLarge(repo, path, size)
	}
	b, err := v.git(gitDir, "", "cat-file", "blob", fields[0])
	if err != nil {
		return &file{state: NotAvailable, detail: "git could not read " + path + " of " + repo + ": " + err.Error()}
	}
	return &file{state: Verified, text: collapse(string(b)), raw: string(b)}
}

func isHex40(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// resolveTag is the commit a tag points at in a git copy, or "".
func (v *verifier) resolveTag(gitDir, ref string) string {
	if v.gitMissing || !safeRef(ref) {
		return ""
	}
	out, err := v.git(gitDir, "", "rev-parse", "--verify", "--quiet", "refs/tags/"+ref+"^{commit}")
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if !isHex40(c) {
		return ""
	}
	return c
}

// safeRef reports whether a tag name is safe to hand to git.
func safeRef(ref string) bool {
	return ref != "" && !strings.HasPrefix(ref, "-") && !strings.ContainsAny(ref, " \t\n\x00:^~?*[\\") && !strings.Contains(ref, "..")
}

// tagContains checks the release tag contains the commit (cached).
func (v *verifier) tagContains(repo string, c *repoCopy, ref, commit string) tagCheck {
	key := repo + "\x00" + ref + "\x00" + commit
	if t, ok := v.tags[key]; ok {
		return t
	}
	var t tagCheck
	tag := v.resolveTag(c.gitDir, ref)
	switch {
	case tag == "":
		t = tagCheck{missing: true, detail: fmt.Sprintf("the copy of %s has no tag %s", repo, ref)}
	case tag == commit:
		t = tagCheck{ok: true}
	default:
		_, err := v.git(c.gitDir, "", "merge-base", "--is-ancestor", commit, tag)
		if err == nil {
			t = tagCheck{ok: true}
		} else {
			t = tagCheck{detail: fmt.Sprintf("tag %s of %s (%s) does not contain commit %s", ref, repo, knowledge.Short(tag), knowledge.Short(commit))}
		}
	}
	v.tags[key] = t
	return t
}

// list is the files under a folder of a copy at a commit (or in a plain
// tree's release folder), as repository paths; cached.
func (v *verifier) list(repo string, c *repoCopy, folder, commit, under string) []string {
	key := repo + "\x00" + folder + "\x00" + commit + "\x00" + under
	if l, ok := v.lists[key]; ok {
		return l
	}
	var out []string
	switch {
	case !safeRel(under):
	case c.gitDir != "":
		if !v.gitMissing && isHex40(commit) {
			if b, err := v.git(c.gitDir, "", "ls-tree", "--name-only", commit, "--", under+"/"); err == nil {
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					if l != "" {
						out = append(out, l)
					}
				}
			}
		}
	default:
		if folder != "" {
			root := filepath.Join(c.tree, filepath.FromSlash(folder))
			if ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(under))); err == nil {
				for _, e := range ents {
					if !e.IsDir() {
						out = append(out, under+"/"+e.Name())
					}
				}
			}
		}
	}
	v.lists[key] = out
	return out
}
