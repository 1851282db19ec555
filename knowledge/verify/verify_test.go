package verify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge/verify/gittest"

	"github.com/stackpick/stackpick/knowledge"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commit writes the files into the work tree at dir and commits them.
func commit(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for p, c := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), c)
	}
	gittest.Run(t, dir, "add", "-A")
	gittest.Run(t, dir, "commit", "-q", "-m", "c")
	return gittest.Run(t, dir, "rev-parse", "HEAD")
}

func newRepo(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, dir, "init", "-q")
}

func repoSource(repo, ref, commit, path, quote string) knowledge.Source {
	return knowledge.Source{Kind: knowledge.SourceRepo, Repo: repo, Ref: ref, Commit: commit, Path: path, Quote: quote, CheckedOn: "2026-12-01"}
}

// kbOf is a knowledge base of one flag per source, enough for Facts.
func kbOf(ss ...knowledge.Source) *knowledge.KB {
	kb := &knowledge.KB{}
	for i, s := range ss {
		kb.Flags = append(kb.Flags, &knowledge.Flag{ID: "f" + string(rune('a'+i)), Engine: "none", Name: "--x", Status: "current", Sources: knowledge.Sources{s}, Pos: knowledge.Pos{File: "kb/f.toml", Line: 1 + 10*i}})
	}
	return kb
}

func states(r *Report) []State {
	var out []State
	for _, x := range r.Results {
		out = append(out, x.State)
	}
	return out
}

func TestRepositorySourcesInAGitClone(t *testing.T) {
	gittest.Need(t)
	dir := t.TempDir()
	repo := filepath.Join(dir, "example-org", "engine")
	newRepo(t, repo)
	c1 := commit(t, repo, map[string]string{"src/args.py": "parser.add_argument(\n    \"--max-num-seqs\",\n    default=256)\n"})
	gittest.Run(t, repo, "tag", "v1.0.0")
	c2 := commit(t, repo, map[string]string{"src/args.py": "parser.add_argument(\"--max-num-seqs\", default=512)\n"})
	const r = "example-org/engine"
	kb := kbOf(
		repoSource(r, "v1.0.0", c1, "src/args.py", `"--max-num-seqs", default=256)`), // spans lines: whitespace collapses
		repoSource(r, "v1.0.0", c1, "src/args.py", "default=1024"),
		repoSource(r, "v1.0.0", c1, "src/gone.py", "x"),
		repoSource(r, "v1.0.0", c2, "src/args.py", "default=512"), // the tag is older than the commit
		repoSource(r, "v1.0.0", strings.Repeat("ab", 20), "src/args.py", "x"),
		repoSource("other-org/absent", "", c1, "a.py", "x"),
		repoSource(r, "", c1, "../../../etc/passwd", "root"),
		repoSource(r, "", c1, "src/args.py\n"+c2+":src/args.py", "default=512"), // no second request to git
		knowledge.Source{Kind: knowledge.SourceRepo, Repo: r, Path: "src/args.py", CheckedOn: "2026-12-01", Checked: "not available: too big"},
	)
	rep, err := Run(kb, Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []State{Verified, QuoteMissing, FileMissing, BadTag, CommitMissing, NotAvailable, FileMissing, FileMissing, NotAvailable}
	if got := states(rep); !equal(got, want) {
		t.Fatalf("states\n got %v\nwant %v", got, want)
	}
	if !rep.Failed() {
		t.Error("a failed source must fail the report")
	}
	// One file at one commit is read once, however many sources cite it.
	if rep.FilesRead != 2 {
		t.Errorf("files read %d, want 2 (args.py at c1 and at c2)", rep.FilesRead)
	}
	if d := rep.Results[8].Detail; !strings.HasSuffix(d, readableNow) {
		t.Errorf("a source marked not available in a repository DIR has must say it can be read now: %q", d)
	}
	if d := rep.Results[3].Detail; !strings.Contains(d, "tag v1.0.0") || !strings.Contains(d, "does not contain commit "+c2[:8]) {
		t.Errorf("bad tag detail %q", d)
	}
}

func TestBareMirrorsInTheFetchLayoutAndPlainTrees(t *testing.T) {
	gittest.Need(t)
	src := t.TempDir()
	newRepo(t, src)
	c := commit(t, src, map[string]string{"a/b.py": "FLAG = 'x'\n"})
	gittest.Run(t, src, "tag", "v2.0")
	dir := t.TempDir()
	gittest.Run(t, dir, "clone", "-q", "--bare", src, filepath.Join(dir, "org+bare", "repo"))
	gittest.Run(t, dir, "clone", "-q", "--bare", src, filepath.Join(dir, "org", "dotgit.git"))
	writeFile(t, filepath.Join(dir, "org", "tree", "v2.0", "a", "b.py"), "FLAG = 'x'\n")
	writeFile(t, filepath.Join(dir, "org", "bycommit", c, "a", "b.py"), "FLAG = 'x'\n")
	kb := kbOf(
		repoSource("org/bare", "v2.0", c, "a/b.py", "FLAG = 'x'"),
		repoSource("org/dotgit", "v2.0", c, "a/b.py", "FLAG = 'x'"),
		repoSource("org/tree", "v2.0", c, "a/b.py", "FLAG = 'x'"),
		repoSource("org/bycommit", "", c, "a/b.py", "FLAG = 'x'"),
		repoSource("org/tree", "v2.0", c, "a/b.py", "FLAG = 'y'"),
		repoSource("org/tree", "v2.0", c, "a/c.py", "x"),
		repoSource("org/tree", "v3.0", c, "a/b.py", "x"),
	)
	rep, err := Run(kb, Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []State{Verified, Verified, Verified, Verified, QuoteMissing, FileMissing, CommitMissing}
	if got := states(rep); !equal(got, want) {
		t.Fatalf("states\n got %v\nwant %v\n%+v", got, want, rep.Results)
	}
}

func TestAHugeFileIsNotRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "org", "big", "v1", "big.txt")
	writeFile(t, p, "x")
	if err := os.Truncate(p, MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(kbOf(repoSource("org/big", "v1", strings.Repeat("0", 40), "big.txt", "x")), Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0]; got.State != TooLarge || !strings.Contains(got.Detail, "16 MiB") {
		t.Errorf("%+v", got)
	}
}

func TestALinkOutOfTheTreeIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, "secret words")
	link := filepath.Join(dir, "org", "t", "v1", "s.txt")
	writeFile(t, filepath.Join(dir, "org", "t", "v1", "keep"), "")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("no symlinks here")
	}
	rep, err := Run(kbOf(repoSource("org/t", "v1", strings.Repeat("0", 40), "s.txt", "secret words")), Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0]; got.State != FileMissing || !strings.Contains(got.Detail, "leads out of the tree") {
		t.Errorf("%+v", got)
	}
}

func TestBadSourcesFolderIsAnInputError(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	writeFile(t, f, "")
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "missing"), f} {
		_, err := Run(&knowledge.KB{}, Options{Sources: dir})
		if _, ok := err.(*InputError); !ok {
			t.Errorf("%q: error %v, want an InputError", dir, err)
		}
	}
	if _, err := Run(&knowledge.KB{}, Options{Sources: t.TempDir(), Notes: filepath.Join(t.TempDir(), "none.txt")}); err == nil {
		t.Error("a missing notes file must be an input error")
	}
}

func TestCourseNotesSectionsAndQuotes(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	writeFile(t, notes, "01 — Engines as Products\n\nIntro words.\n\n1. vLLM as a product — the config surface\n\nLoRA multi-tenancy\n\n  • --enable-lora turns\n    adapters on\n\n2. SGLang production knobs\n\nWhen to pick SGLang over vLLM:\n\nRadixAttention wins.\n")
	src := func(section, quote string) knowledge.Source {
		return knowledge.Source{Kind: knowledge.SourceNotes, Section: section, Quote: quote, CheckedOn: "2026-12-01"}
	}
	kb := kbOf(
		src("LoRA multi-tenancy", "--enable-lora turns adapters on"),
		src("vLLM as a product — the config surface", "LoRA multi-tenancy"),
		src("1. vLLM as a product — the config surface", "--enable-lora"),
		src("When to pick SGLang over vLLM", "RadixAttention wins."),
		src("When to pick SGLang over vLLM:", "RadixAttention wins."),
		src("LoRA multi-tenancy", "RadixAttention wins."), // in the next numbered section
		src("§1 'LoRA multi-tenancy'", "--enable-lora"),
	)
	rep, err := Run(kb, Options{Sources: t.TempDir(), Notes: notes})
	if err != nil {
		t.Fatal(err)
	}
	want := []State{Verified, Verified, Verified, Verified, Verified, QuoteMissing, SectionMissing}
	if got := states(rep); !equal(got, want) {
		t.Fatalf("states\n got %v\nwant %v\n%+v", got, want, rep.Results)
	}
	// Without --notes, course-notes sources are not checked; with no
	// repository copy either, nothing is, and that is not a pass.
	_, err = Run(kb, Options{Sources: t.TempDir()})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "nothing was checked") {
		t.Errorf("without notes or copies: %v, want an input error saying nothing was checked", err)
	}
	// A file that is not the course notes (none of the cited sections is
	// a heading in it) is an input error, not 104 failures.
	other := filepath.Join(t.TempDir(), "other.txt")
	writeFile(t, other, "# Some other document\n\nIt has words.\n")
	_, err = Run(kb, Options{Sources: t.TempDir(), Notes: other})
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "does not look like the course notes") {
		t.Errorf("--notes of another file: %v, want an input error", err)
	}
}

func TestFlagsAreLookedForInTheParserAtTheRelease(t *testing.T) {
	gittest.Need(t)
	dir := t.TempDir()
	repo := filepath.Join(dir, "eng", "eng")
	newRepo(t, repo)
	c := commit(t, repo, map[string]string{
		"eng/args.py":            "p.add_argument(\"--block-size\")\np.add_argument('-tp', '--tensor-parallel-size')\n",
		"eng/config/sched.py":    "class SchedulerConfig:\n    max_num_seqs: int = 256\n",
		"eng/config/sub/deep.py": "deep_only_field: int = 1\n",
	})
	gittest.Run(t, repo, "tag", "v1.0")
	flag := func(id, name string, ss ...knowledge.Source) *knowledge.Flag {
		return &knowledge.Flag{ID: id, Engine: "eng", Name: name, Status: "current", Sources: ss, Pos: knowledge.Pos{File: "kb/f.toml", Line: 3}}
	}
	at := repoSource("eng/eng", "v1.0", c, "eng/args.py", "--block-size")
	kb := &knowledge.KB{Flags: []*knowledge.Flag{
		flag("block", "--block-size", at),
		flag("tp", "--tensor-parallel-size"),
		flag("seqs", "--max-num-seqs"),
		flag("gone", "--not-a-flag"),
		{ID: "removed", Engine: "eng", Name: "--old", Status: "removed"},
	}}
	parsers := []Parser{{Engine: "eng", Repo: "eng/eng", Files: []string{"eng/args.py"}, Dirs: []string{"eng/config"}, Fields: true}}
	rep, err := Run(kb, Options{Sources: dir, Parsers: parsers, Releases: map[string][]string{"eng": {"v1.0", "v9.9"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]State{}
	for _, f := range rep.Flags {
		got[f.Flag+"@"+f.Release] = f.State
	}
	want := map[string]State{
		"block@v1.0": Found, "block@v9.9": NotAvailable,
		"tp@v1.0": Found, "tp@v9.9": NotAvailable,
		"seqs@v1.0": Found, "seqs@v9.9": NotAvailable,
		"gone@v1.0": NotFound, "gone@v9.9": NotAvailable,
	}
	if len(got) != len(want) {
		t.Fatalf("flags %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
	if !rep.Failed() {
		t.Error("a flag not in the parser must fail the report")
	}
}

func TestEveryEngineWithACommandHasAParser(t *testing.T) {
	for _, e := range []string{"vllm", "sglang", "tensorrt-llm", "llama-cpp"} {
		found := false
		for _, p := range DefaultParsers {
			found = found || p.Engine == e && len(p.Files) > 0
		}
		if !found {
			t.Errorf("no parser for %s", e)
		}
	}
}

func TestFieldNames(t *testing.T) {
	for name, want := range map[string]string{"--max-num-seqs": "max_num_seqs", "--no-enable-prefix-caching": "enable_prefix_caching", "-tp": ""} {
		if got := fieldOf(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !declaresField("    max_num_seqs: int = 1", "max_num_seqs") || !declaresField("max_num_seqs = 1", "max_num_seqs") ||
		declaresField("# max_num_seqs: int", "max_num_seqs") || declaresField("print(max_num_seqs)", "max_num_seqs") ||
		declaresField("max_num_seqs_per: int", "max_num_seqs") || declaresField("max_num_seqs == 1", "max_num_seqs") {
		t.Error("declaresField")
	}
}

// The symbol must be declared in the file and the quote within the lines.
func TestSymbolAndLines(t *testing.T) {
	gittest.Need(t)
	dir := t.TempDir()
	repo := filepath.Join(dir, "org", "eng")
	newRepo(t, repo)
	c := commit(t, repo, map[string]string{
		"pkg/server.py": "class EngineArgs:\n    max_num_seqs: int = 256\n\n    def get_defaults(self):\n        return 1\n",
		"docs/a.md":     "# Title\n\n## Supported Hardware Backends\n\nCPU and GPU.\n",
	})
	gittest.Run(t, repo, "tag", "v1.0")
	with := func(s knowledge.Source, symbol, lines string) knowledge.Source {
		s.Symbol, s.Lines = symbol, lines
		return s
	}
	q := repoSource("org/eng", "v1.0", c, "pkg/server.py", "return 1")
	md := repoSource("org/eng", "v1.0", c, "docs/a.md", "CPU and GPU.")
	kb := kbOf(
		with(q, "EngineArgs.get_defaults", "4-5"),
		with(q, "EngineArgs.max_num_seqs", ""),
		with(q, "EngineArgs", ""),
		with(q, "EngineArgs.get_batch_defaults", ""), // not in the file
		with(q, "NoSuchSymbol", ""),
		with(q, "", "1-1"),      // the quote is on line 5
		with(q, "", "900-1000"), // past the end
		with(md, "Supported Hardware Backends", "3-5"),
		with(md, "Unsupported Backends", ""),
		repoSource("org/eng", "v9.9", c, "pkg/server.py", "return 1"), // no such tag
	)
	rep, err := Run(kb, Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []State{Verified, Verified, Verified, SymbolMissing, SymbolMissing, LinesOutside, LinesOutside, Verified, SymbolMissing, TagMissing}
	if got := states(rep); !equal(got, want) {
		t.Fatalf("states\n got %v\nwant %v\n%+v", got, want, rep.Results)
	}
	if d := rep.Results[5].Detail; !strings.Contains(d, "starts on line 5") {
		t.Errorf("lines detail %q", d)
	}
}

// A flag named only in a comment, a print or another string is not
// registered; the name as a quoted argument, or a field declaration, is.
func TestFlagMentionsAreNotRegistrations(t *testing.T) {
	dir := t.TempDir()
	for i, body := range []string{
		"# pipeline_parallel_size\n",
		"print(pipeline_parallel_size)\n",
		"x = \"pipeline_parallel_size\"\n",
		"# \"--pipeline-parallel-size\" was removed in v2\n",
		"p.add_argument(\"--other\")  # \"--pipeline-parallel-size\" is gone\n",
		"p.add_argument(\n    \"--pipeline-parallel-size\",\n)\n",
		"class ParallelConfig:\n    pipeline_parallel_size: int = 1\n",
	} {
		writeFile(t, filepath.Join(dir, "eng", "eng", fmt.Sprintf("v%d", i), "args.py"), body)
	}
	kb := &knowledge.KB{Flags: []*knowledge.Flag{{ID: "pp", Engine: "eng", Name: "--pipeline-parallel-size", Status: "current"}}}
	parsers := []Parser{{Engine: "eng", Repo: "eng/eng", Files: []string{"args.py"}, Fields: true}}
	rep, err := Run(kb, Options{Sources: dir, Parsers: parsers, Releases: map[string][]string{"eng": {"v0", "v1", "v2", "v3", "v4", "v5", "v6"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []State{NotFound, NotFound, NotFound, NotFound, NotFound, Found, Found}
	for i, f := range rep.Flags {
		if f.State != want[i] {
			t.Errorf("v%d: %s (%s), want %s", i, f.State, f.Where, want[i])
		}
	}
}

// A flag whose sources name a commit but no release (llama.cpp's) is
// checked at that commit.
func TestFlagsWithCommitOnlySourcesAreCheckedAtTheCommit(t *testing.T) {
	gittest.Need(t)
	dir := t.TempDir()
	repo := filepath.Join(dir, "ggml-org", "llama.cpp")
	newRepo(t, repo)
	c := commit(t, repo, map[string]string{"common/arg.cpp": "add_opt(common_arg(\n    {\"-c\", \"--ctx-size\"}, \"N\",\n"})
	kb := &knowledge.KB{Flags: []*knowledge.Flag{
		{ID: "ctx", Engine: "llama-cpp", Name: "--ctx-size", Status: "current", Sources: knowledge.Sources{repoSource("ggml-org/llama.cpp", "", c, "common/arg.cpp", `"--ctx-size"`)}},
		{ID: "np", Engine: "llama-cpp", Name: "--parallel", Status: "current", Sources: knowledge.Sources{repoSource("ggml-org/llama.cpp", "", c, "common/arg.cpp", `"--ctx-size"`)}},
	}}
	rep, err := Run(kb, Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flags) != 2 || rep.Flags[0].State != Found || rep.Flags[1].State != NotFound {
		t.Fatalf("%+v", rep.Flags)
	}
	if r := rep.Flags[0].Release; r != "commit "+knowledge.Short(c) {
		t.Errorf("release %q", r)
	}
}

func equal(a, b []State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A copy linked into the sources folder from elsewhere is the user's
// layout and is read; a link inside a plain tree may not leave the tree.
func TestALinkedCopyIsRead(t *testing.T) {
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "v1", "a.txt"), "the words")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "org"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "org", "linked")); err != nil {
		t.Skip("no symlinks here")
	}
	rep, err := Run(kbOf(repoSource("org/linked", "v1", strings.Repeat("0", 40), "a.txt", "the words")), Options{Sources: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Results[0].State; got != Verified {
		t.Errorf("%+v", rep.Results[0])
	}
}

// A release whose flags are all config fields (no parser file of its own,
// as in newer SGLang releases) is read from the fields' folder alone.
func TestFlagsDeclaredOnlyAsFields(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "eng", "eng", "v2", "srt", "fields", "schedule.py"), "class Schedule:\n    mem_fraction_static: A[\n        Optional[float], \"The fraction\"] = None\n")
	kb := &knowledge.KB{Flags: []*knowledge.Flag{
		{ID: "mem", Engine: "eng", Name: "--mem-fraction-static", Status: "current"},
		{ID: "gone", Engine: "eng", Name: "--not-here", Status: "current"},
	}}
	parsers := []Parser{{Engine: "eng", Repo: "eng/eng", Files: []string{"srt/server_args.py"}, Dirs: []string{"srt/fields"}, Fields: true}}
	rep, err := Run(kb, Options{Sources: dir, Parsers: parsers, Releases: map[string][]string{"eng": {"v2"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flags) != 2 || rep.Flags[0].State != Found || rep.Flags[1].State != NotFound {
		t.Fatalf("%+v", rep.Flags)
	}
	if w := rep.Flags[0].Where; w != "srt/fields/schedule.py: field mem_fraction_static" {
		t.Errorf("where %q", w)
	}
}

// Identical failure lines are printed once; each names the source's file;
// a course-notes correction is labelled in the course's words.
func TestReportLines(t *testing.T) {
	s := repoSource("org/eng", "v1", strings.Repeat("a", 40), "pkg/x.py", "q")
	r := Result{Fact: label(`product "p" seed_outdated 2`), File: "kb/p.toml", Line: 7, Source: s, State: CommitMissing, Detail: "the copy of org/eng has no commit aaaaaaaa", Hint: "update the copy"}
	rep := &Report{Sources: "src", Results: []Result{r, r}, Counts: map[State]int{CommitMissing: 2}, FlagCounts: map[State]int{}}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := `kb/p.toml:7: product "p" course-notes correction 2, repo source org/eng v1 @aaaaaaaa pkg/x.py: commit missing:`
	if strings.Count(out, want) != 1 || strings.Contains(out, "seed") || !strings.Contains(out, "update it (git fetch)") {
		t.Errorf("report:\n%s\nwant one line starting %q", out, want)
	}
}
