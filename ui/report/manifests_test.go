package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

func deployPreset(t *testing.T, name string) (*knowledge.KB, scenarios.Scenario, decide.Decision) {
	t.Helper()
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Find(all, name)
	if err != nil {
		t.Fatal(err)
	}
	return kb, s, decide.Decide(kb, s.Answers)
}

// The memo's consequences list each file with what it deploys, the
// command that writes them, and the placeholders; a stack no writer covers
// says why there are none.
func TestMemoListsTheDeployableFiles(t *testing.T) {
	kb, s, d := deployPreset(t, "cpu-box")
	memo := report.Memo(kb, d, report.Origin{Scenario: &s}.MemoInput(pinnedDate))
	set, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d})
	if err != nil {
		t.Fatal(err)
	}
	consequences := memo[strings.Index(memo, "## Consequences"):strings.Index(memo, "## Engine settings")]
	if !strings.Contains(consequences, "`stackpick manifest --scenario cpu-box --out deploy` writes them") {
		t.Errorf("the consequences do not say how to write the files:\n%s", consequences)
	}
	for _, f := range set.Files {
		if !strings.Contains(consequences, "| `"+f.Path+"` | "+report.FileKind(f)+" | ") || !strings.Contains(strings.ReplaceAll(consequences, "`", ""), f.Deploys) {
			t.Errorf("the consequences do not list %s with what it deploys:\n%s", f.Path, consequences)
		}
	}
	for _, p := range set.Placeholders {
		if !strings.Contains(consequences, "`${"+p.Name+"}`") {
			t.Errorf("the consequences do not name ${%s}", p.Name)
		}
	}

	kb, s, d = deployPreset(t, "last-15-percent")
	memo = report.Memo(kb, d, report.Origin{Scenario: &s}.MemoInput(pinnedDate))
	_, err = manifest.Generate(manifest.Request{KB: kb, Decision: &d})
	if err == nil {
		t.Fatal("last-15-percent (TensorRT-LLM under Dynamo) has files now: pick a preset without a writer")
	}
	if !strings.Contains(memo, "Deployable files: none. ") || !strings.Contains(memo, "python3 -m dynamo.trtllm") {
		t.Errorf("the memo does not say why last-15-percent has no files (%v)", err)
	}
}

// decide --format json carries "manifests": each file's path, kind,
// api_version, deploys, format, targets and placeholders, and the
// placeholders with what they explain; or {"not_covered": why}.
func TestDecisionJSONCarriesTheManifests(t *testing.T) {
	type file struct {
		Path, Kind, Deploys, Format string
		APIVersion                  string            `json:"api_version"`
		Targets                     map[string]string `json:"targets"`
		Placeholders                []string          `json:"placeholders"`
	}
	type manifests struct {
		NotCovered   *string `json:"not_covered"`
		Stack        string
		Files        []file
		Placeholders []struct{ Name, Explains string }
	}
	decode := func(d decide.Decision) (manifests, map[string]json.RawMessage) {
		var b bytes.Buffer
		if err := report.DecisionJSON(&b, d); err != nil {
			t.Fatal(err)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &top); err != nil {
			t.Fatal(err)
		}
		var m manifests
		if err := json.Unmarshal(top["manifests"], &m); err != nil {
			t.Fatalf("manifests: %v\n%s", err, top["manifests"])
		}
		return m, top
	}
	kb, _, d := deployPreset(t, "cpu-box")
	m, top := decode(d)
	if string(top["schema"]) != `"`+decide.Schema+`"` || top["layers"] == nil {
		t.Errorf("the decision's own fields are gone: schema %s", top["schema"])
	}
	set, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d})
	if err != nil {
		t.Fatal(err)
	}
	if m.NotCovered != nil || len(m.Files) != len(set.Files) || m.Stack != set.Stack || len(m.Placeholders) != len(set.Placeholders) {
		t.Fatalf("manifests: %+v", m)
	}
	for i, f := range set.Files {
		g := m.Files[i]
		if g.Path != f.Path || g.Kind != f.Kind || g.Deploys != f.Deploys || g.Format != f.Format || g.APIVersion != f.APIVersion || len(g.Targets) != len(f.Targets) || len(g.Placeholders) != len(f.Placeholders) || g.Placeholders == nil || g.Targets == nil {
			t.Errorf("file %d: %+v, want %+v", i, g, f)
		}
	}
	for _, p := range m.Placeholders {
		if p.Name == "" || p.Explains == "" {
			t.Errorf("a placeholder without its name or explanation: %+v", p)
		}
	}
	_, _, d = deployPreset(t, "last-15-percent")
	// The same shape without files: empty lists, never null.
	if m, _ = decode(d); m.NotCovered == nil || *m.NotCovered == "" || m.Files == nil || len(m.Files) != 0 || m.Placeholders == nil {
		t.Errorf("last-15-percent (TensorRT-LLM under Dynamo: no writer): %+v", m)
	}
}

// A knowledge base without the images a writer needs makes no surface
// crash: the set is an error that says so.
func TestManifestSetTurnsAPanicIntoAnError(t *testing.T) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	s, _ := scenarios.Find(all, "single-node")
	d := decide.Decide(kb, s.Answers)
	kb.Product("vllm").Images = nil
	set, err := report.ManifestSet(manifest.Request{KB: kb, Decision: &d})
	if set != nil || err == nil || !strings.Contains(err.Error(), "stackpick cannot write the files for this stack") {
		t.Errorf("set %v, err %v", set, err)
	}
	var b bytes.Buffer
	if err := report.DecisionJSON(&b, d); err != nil || !strings.Contains(b.String(), `"not_covered": "stackpick cannot write`) {
		t.Errorf("decide's JSON with a broken set: %v\n%s", err, b.String()[max(0, b.Len()-300):])
	}
}

// What the memo and decide's JSON add: generating a preset's set.
//
//	go test ./ui/report -run '^$' -bench ManifestSet
func BenchmarkManifestSet(b *testing.B) {
	kb := knowledge.MustDefault()
	all, _ := scenarios.All(kb)
	s, _ := scenarios.Find(all, "single-node")
	d := decide.Decide(kb, s.Answers)
	for b.Loop() {
		if _, err := report.ManifestSet(manifest.Request{KB: kb, Decision: &d}); err != nil {
			b.Fatal(err)
		}
	}
}

// The summary's fill command pastes as printed at any width: lines break
// between words with a continuation, never inside a word or a quoted
// path, and the folder is named whole.
func TestManifestSummaryFillCommandPastesAsPrinted(t *testing.T) {
	kb, _, d := deployPreset(t, "cpu-box")
	dir := "/srv/a folder/" + strings.Repeat("deep/", 20) + "deploy"
	command := "stackpick manifest --scenario cpu-box --out '" + dir + "'"
	set, err := report.ManifestSet(manifest.Request{KB: kb, Decision: &d, Origin: "scenario cpu-box", Version: "dev", Command: command})
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{40, 80, 200} {
		out := report.ManifestSummary(set, dir, command, width)
		if !strings.Contains(out, "\n  "+dir+"\n") && !strings.Contains(out, " to "+dir+":") {
			t.Errorf("width %d: the folder is not named whole:\n%s", width, out)
		}
		_, fill, ok := strings.Cut(out, "Fill them all with:\n")
		if !ok {
			t.Fatalf("width %d: no fill command:\n%s", width, out)
		}
		lines := strings.Split(strings.TrimRight(fill, "\n"), "\n")
		for i, l := range lines[:len(lines)-1] {
			if !strings.HasSuffix(l, " \\") {
				t.Errorf("width %d: line %d of the command has no continuation: %q", width, i+1, l)
			}
			if strings.Count(l, "'")%2 != 0 {
				t.Errorf("width %d: line %d breaks inside a quoted path: %q", width, i+1, l)
			}
		}
		joined := strings.Join(strings.Fields(strings.ReplaceAll(fill, " \\\n", " ")), " ")
		if !strings.HasPrefix(joined, command+" --force --set ") {
			t.Errorf("width %d: the fill command, joined, is %q; want it to start with %q", width, joined, command+" --force --set ")
		}
	}
}

// The rm for files left from an earlier set names each under the folder,
// quoted for the shell, and never as an option.
func TestRemoveCommandQuotesAndNeverStartsWithADash(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want string
	}{
		{"deploy", "rm deploy/a.yaml 'deploy/b c.yaml'"},
		{"./-rf", "rm ./-rf/a.yaml './-rf/b c.yaml'"},
		{"/srv/my deploy", "rm '/srv/my deploy/a.yaml' '/srv/my deploy/b c.yaml'"},
	} {
		if got := strings.Join(report.RemoveCommand(c.dir, []string{"a.yaml", "b c.yaml"}), " "); got != c.want {
			t.Errorf("RemoveCommand(%q) = %s, want %s", c.dir, got, c.want)
		}
	}
	if got := report.ManifestLeftovers("deploy", nil, 80); got != "" {
		t.Errorf("no files left: %q, want nothing", got)
	}
}

// A command in the memo is one code span even when it holds a backtick
// (a path may).
func TestCodeSpanFencesPastTheBackticksInside(t *testing.T) {
	for in, want := range map[string]string{"a b": "`a b`", "it's `x`.toml": "`` it's `x`.toml ``", "a``b": "``` a``b ```"} {
		if got := report.CodeSpan(in); got != want {
			t.Errorf("CodeSpan(%q) = %s, want %s", in, got, want)
		}
	}
}
