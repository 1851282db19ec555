package report_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const pinnedDate = "2026-11-30"

func memoFor(t testing.TB, kb *knowledge.KB, s scenarios.Scenario) string {
	t.Helper()
	d := decide.Decide(kb, s.Answers)
	return report.Memo(kb, d, report.Origin{Scenario: &s}.MemoInput(pinnedDate))
}

// Every preset scenario has a golden memo; .ci/run lints the goldens with
// markdownlint-cli2. Regenerate with: go test ./ui/report -run Golden -update
func TestGoldenMemoForEveryPreset(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", "memos", s.Name+".md"), memoFor(t, kb, s))
		})
	}
}

func TestMemoIsDeterministicAndPlain(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	first := memoFor(t, kb, all[0])
	if again := memoFor(t, kb, all[0]); again != first {
		t.Fatal("same decision and date gave different bytes")
	}
	if strings.Contains(first, "\x1b") {
		t.Fatal("memo contains terminal escape codes")
	}
	for _, section := range []string{"# " + all[0].Title, "- Status: proposed", "- Date: " + pinnedDate, "- Deciders: (fill in)",
		"## TL;DR", "## Context and problem statement", "## Requirements", "## Decision drivers", "## Assumptions", "## Considered options", "## Decision outcome",
		"## Consequences", "## What would change this decision", "## Verify before committing", "## Sources"} {
		if !strings.Contains(first, section) {
			t.Errorf("memo lacks %q", section)
		}
	}
}

// The memo says what the decision trace says: every fired reason of every
// layer appears in words, and no rule id does (ids are for the trace and
// JSON).
func TestMemoCarriesEveryReasonOfTheDecision(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	for _, s := range all {
		d := decide.Decide(kb, s.Answers)
		memo := report.Memo(kb, d, report.MemoInput{Title: s.Title, Date: pinnedDate})
		for _, lp := range d.Layers {
			for _, r := range lp.Reasons {
				if words := strings.Fields(r.Text); !strings.Contains(memo, strings.Join(words[:min(3, len(words))], " ")) {
					t.Errorf("%s: memo lacks reason %s", s.Name, r.Rule)
				}
				if strings.Contains(memo, "`"+r.Rule+"`") {
					t.Errorf("%s: memo names rule id %s", s.Name, r.Rule)
				}
			}
		}
	}
}

// A reader who stops after 20 lines has the title, the TL;DR and every
// layer's pick, for every preset.
func TestMemoFirstTwentyLinesHoldTheTitleTheTLDRAndAllThreePicks(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			d := decide.Decide(kb, s.Answers)
			lines := strings.Split(memoFor(t, kb, s), "\n")
			head := strings.Join(lines[:min(20, len(lines))], "\n")
			if lines[0] != "# "+s.Title {
				t.Errorf("first line = %q, want the preset's title", lines[0])
			}
			if !strings.Contains(head, "\n## TL;DR\n") {
				t.Errorf("no TL;DR in the first 20 lines:\n%s", head)
			}
			if len(d.Layers) != 3 {
				t.Fatalf("%d layers, want 3", len(d.Layers))
			}
			for _, lp := range d.Layers {
				want := "- " + kb.Layer(lp.Layer).Name + ": **" + report.PickText(kb, lp) + "**"
				if !strings.Contains(head, want) {
					t.Errorf("the first 20 lines lack %q:\n%s", want, head)
				}
			}
		})
	}
}

// What users fill in (the [memo] table, flags, the About step) heads the
// memo; what they leave out reads as a default or a placeholder.
func TestMemoMetadataHeadsTheRecordAndDefaultsWhenAbsent(t *testing.T) {
	kb := knowledge.MustDefault()
	a, err := kb.ParseAnswers("fleet.toml", []byte("nodes = 2\nkubernetes = \"required\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := decide.Decide(kb, a)
	plain := report.Memo(kb, d, report.Origin{File: "fleet.toml"}.MemoInput(pinnedDate))
	stack := report.DefaultMemoTitle(kb, d)
	if !strings.HasPrefix(plain, "# "+stack+"\n") || strings.Contains(strings.SplitN(plain, "\n", 2)[0], "fleet.toml") {
		t.Errorf("a file's memo is titled by its stack, not the file name: %q", strings.SplitN(plain, "\n", 2)[0])
	}
	if !strings.HasPrefix(stack, "Serve Llama 3.3 70B Instruct with vLLM and ") {
		t.Errorf("default title = %q", stack)
	}
	for _, want := range []string{"- Status: proposed\n", "- Deciders: (fill in)\n", "- Date: " + pinnedDate + "\n", "Which engine, model server and orchestrator should serve Llama 3.3 70B Instruct on 2 nodes"} {
		if !strings.Contains(plain, want) {
			t.Errorf("memo without metadata lacks %q", want)
		}
	}
	in := report.Origin{File: "fleet.toml"}.MemoInput(pinnedDate).WithMemo(knowledge.Memo{
		Title: "Serve the support bot from the new cluster", Status: "accepted", Deciders: []string{"Ana Ruiz", "Ben Okafor"},
		Date: "2026-12-01", Problem: "Support chat moves off the vendor API by Q1."})
	got := report.Memo(kb, d, in)
	for _, want := range []string{"# Serve the support bot from the new cluster\n", "- Status: accepted\n", "- Deciders: Ana Ruiz, Ben Okafor\n", "- Date: 2026-12-01\n",
		"## Context and problem statement\n\nSupport chat moves off the vendor API by Q1.\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("memo lacks %q", want)
		}
	}
}

// Requirements and drivers word what was stated; nothing assumed is passed
// off as the user's.
func TestMemoRequirementsAreTheStatedAnswersInWords(t *testing.T) {
	kb := knowledge.MustDefault()
	a, err := kb.ParseAnswers("a.toml", []byte("nodes = 2\nttft_ms = 500\nitl_ms = 40\nkubernetes = \"required\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	memo := report.Memo(kb, decide.Decide(kb, a), report.MemoInput{Date: pinnedDate})
	req := section(memo, "## Requirements")
	for _, want := range []string{"2 GPU nodes", "time to first token at most 500 ms (p95)", "inter-token latency at most 40 ms (p95)", "Kubernetes-native is a requirement"} {
		if !strings.Contains(req, want) {
			t.Errorf("requirements lack %q:\n%s", want, req)
		}
	}
	for _, never := range []string{"| Question |", "cache-aware routing", "H100"} {
		if strings.Contains(req, never) {
			t.Errorf("requirements say %q, which was not stated:\n%s", never, req)
		}
	}
	drivers := section(memo, "## Decision drivers")
	if !strings.Contains(drivers, "- Kubernetes-native is a requirement: ") {
		t.Errorf("drivers lack the stated kubernetes answer:\n%s", drivers)
	}
	if strings.Contains(drivers, "`") || strings.Contains(drivers, "governance") {
		t.Errorf("drivers name rule ids or defaulted answers:\n%s", drivers)
	}
}

// The course notes' out-of-date run-book items are counted in one line,
// not listed in the body.
func TestMemoCountsCourseNotesChangesInOneLine(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	for _, s := range all {
		memo := memoFor(t, kb, s)
		for _, never := range []string{"The course notes say:", "Flags from the course material", "seed"} {
			if strings.Contains(strings.ToLower(memo), strings.ToLower(never)) {
				t.Errorf("%s: memo says %q", s.Name, never)
			}
		}
		// Once, when a course-notes change applies to the stack (none does
		// to a llama.cpp box alone).
		want := 0
		if report.CourseNotesLine(kb, decide.Decide(kb, s.Answers), "") != "" {
			want = 1
		}
		if got := strings.Count(memo, "`stackpick kb changes`"); got != want {
			t.Errorf("%s: memo points to stackpick kb changes %d times, want %d", s.Name, got, want)
		}
		body := memo[:strings.Index(memo, "## Sources")]
		if regexp.MustCompile(`[0-9a-f]{40}`).MatchString(body) {
			t.Errorf("%s: a full commit hash in the body", s.Name)
		}
	}
}

// A pinned decision appears under the options, with its stack, the
// answers that differ and what it chose where it differs.
func TestMemoWithAPinnedAlternativeListsItUnderOptions(t *testing.T) {
	kb := knowledge.MustDefault()
	pinnedAnswers, err := kb.ParseAnswers("a.toml", []byte("nodes = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	here, err := kb.ParseAnswers("b.toml", []byte("nodes = 4\nkubernetes = \"required\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	pinned, d := decide.Decide(kb, pinnedAnswers), decide.Decide(kb, here)
	memo := report.Memo(kb, d, report.MemoInput{Date: pinnedDate, Pinned: &report.PinnedDecision{Label: "A: one node", Decision: pinned}})
	options := section(memo, "## Considered options")
	sub := section(options, "### The pinned alternative: A: one node")
	if sub == "" {
		t.Fatalf("no pinned subsection under the options:\n%s", options)
	}
	for _, want := range []string{"Pinned stack: " + report.StackLine(kb, pinned) + ".", "- `nodes`: pinned `1` → chosen `4`.", "- `kubernetes`: pinned `none` (default) → chosen `required`.",
		"Orchestrator: the pinned decision chose no orchestrator"} {
		if !strings.Contains(sub, want) {
			t.Errorf("pinned subsection lacks %q:\n%s", want, sub)
		}
	}
	if strings.Contains(report.Memo(kb, d, report.MemoInput{Date: pinnedDate}), "pinned alternative") {
		t.Error("a memo without a pinned decision has a pinned subsection")
	}
}

// section is the text from heading to the next heading of the same level.
func section(doc, heading string) string {
	i := strings.Index(doc, heading+"\n")
	if i < 0 {
		return ""
	}
	rest := doc[i+len(heading)+1:]
	level := heading[:strings.Index(heading, " ")+1]
	if j := strings.Index(rest, "\n"+level); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// A signed memo with a pinned alternative, as a golden (linted with the
// others): the metadata head, the pinned option, the problem in the
// user's words.
func TestGoldenSignedMemoWithAPinnedAlternative(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	var exit, single scenarios.Scenario
	for _, s := range all {
		switch s.Name {
		case "exit-test":
			exit = s
		case "single-node":
			single = s
		}
	}
	in := report.Origin{Scenario: &exit}.MemoInput(pinnedDate).WithMemo(knowledge.Memo{
		Title: "Serve the three tenants' fine-tunes from the H200 cluster", Status: "accepted",
		Deciders: []string{"Ana Ruiz (platform)", "Ben Okafor (CTO)"}, Date: "2026-12-01",
		Problem: "Three tenants' fine-tunes of one 70B model move off a hosted API by Q1; requests share long system prompts.",
	})
	in.Pinned = &report.PinnedDecision{Label: "A: " + single.Title, Decision: decide.Decide(kb, single.Answers)}
	got := report.Memo(kb, decide.Decide(kb, exit.Answers), in)
	golden(t, filepath.Join("testdata", "memos", "signed-with-pinned.md"), got)
}

// Writing the memo (what export and decide --format markdown do once per
// run) for the largest preset.
func BenchmarkMemo(b *testing.B) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	d := decide.Decide(kb, all[0].Answers)
	in := report.Origin{Scenario: &all[0]}.MemoInput(pinnedDate)
	for b.Loop() {
		report.Memo(kb, d, in)
	}
}

// The memo's requirements and drivers say each thing once, in words:
// "Models: Llama 3.1 8B Instruct", a complement pair once, and the stated
// latency priority with the engine flags it set.
func TestMemoDriversIncludeLatencyAndSayAPairOnce(t *testing.T) {
	kb := knowledge.MustDefault()
	a, err := kb.ParseAnswers("a.toml", []byte("nodes = 2\ngpus_per_node = 8\ngpu = \"h100\"\nmodel = \"llama-3.1-8b\"\nkubernetes = \"required\"\nttft_ms = 300\nitl_ms = 40\nlatency_priority = \"latency\"\ncache_aware_routing = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	memo := report.Memo(kb, decide.Decide(kb, a), report.MemoInput{Date: "2026-11-30"})
	_, drivers, _ := strings.Cut(memo, "## Decision drivers")
	drivers, _, _ = strings.Cut(drivers, "## Assumptions")
	if !strings.Contains(memo, "- Models: Llama 3.1 8B Instruct.\n") {
		t.Errorf("requirements should read \"Models: Llama 3.1 8B Instruct\":\n%s", memo[:min(len(memo), 2000)])
	}
	if !strings.Contains(drivers, "- Latency per request first: sets `--max-num-seqs` 64") {
		t.Errorf("drivers leave out the stated latency priority:\n%s", drivers)
	}
	if n := strings.Count(drivers, " beside "); n != 1 {
		t.Errorf("llm-d and KServe side by side is said %d times:\n%s", n, drivers)
	}
}

// "What would change this decision" lists a flip once with every layer it
// moves, and Sources lists a path once.
func TestMemoListsEachFlipAndSourceOnce(t *testing.T) {
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Find(all, "exit-test")
	if err != nil {
		t.Fatal(err)
	}
	memo := report.Memo(kb, decide.Decide(kb, s.Answers), report.MemoInput{Date: "2026-11-30"})
	_, flips, _ := strings.Cut(memo, "## What would change this decision")
	flips, _, _ = strings.Cut(flips, "## Verify")
	bodies := map[string]int{}
	for _, l := range strings.Split(flips, "\n") {
		if _, body, ok := strings.Cut(l, ": `"); ok && strings.HasPrefix(l, "- ") {
			bodies[body]++
			if bodies[body] > 1 {
				t.Errorf("flip listed twice: %s", body)
			}
		}
	}
	if !strings.Contains(flips, "- Engine and orchestrator: `") {
		t.Errorf("a flip that moves two layers should name both:\n%s", flips)
	}
	_, srcs, _ := strings.Cut(memo, "## Sources")
	seen := map[string]bool{}
	for _, tok := range strings.Fields(srcs) {
		tok = strings.Trim(tok, "`<>;,()")
		if strings.Contains(tok, "@") && strings.Contains(tok, ":") && strings.Contains(tok, "/") {
			if seen[tok] {
				t.Errorf("source listed twice: %s", tok)
			}
			seen[tok] = true
		}
	}
}

// golden compares got with the file at path, writing it first with
// -update (its folder too); review the diff of every file it rewrites.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs; review with -update and git diff", path)
	}
}
