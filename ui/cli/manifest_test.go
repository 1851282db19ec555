package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
	"github.com/stackpick/stackpick/ui/report"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// runManifest runs stackpick in-process.
func runManifest(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// wantSet is the set Generate writes for the preset, as the command asks.
func wantSet(t *testing.T, scenario, command string, sets map[string]string) *manifest.Set {
	t.Helper()
	kb := knowledge.MustDefault()
	all, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Find(all, scenario)
	if err != nil {
		t.Fatal(err)
	}
	d := decide.Decide(kb, sc.Answers)
	set, err := manifest.Generate(manifest.Request{KB: kb, Decision: &d, Origin: "scenario " + scenario, Version: Version(), Sets: sets, Command: command})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// manifest --scenario single-node --out DIR writes the set's files, byte
// for byte what Generate writes, and MANIFESTS.md, making the folders, and
// says what it wrote: each path with its kind and what it deploys.
func TestManifestWritesEveryFileOfTheSetAndItsIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "deploy")
	code, out, stderr := runManifest(t, "manifest", "--scenario", "single-node", "--out", dir)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	set := wantSet(t, "single-node", "stackpick manifest --scenario single-node --out "+dir, nil)
	if len(set.Files) < 2 {
		t.Fatalf("the single-node set has %d files", len(set.Files))
	}
	for _, f := range set.Files {
		got, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.Body) {
			t.Errorf("%s differs from what Generate writes", f.Path)
		}
		if !strings.Contains(strings.Join(strings.Fields(out), " "), f.Path+" ("+f.Kind+"): "+f.Deploys) {
			t.Errorf("the summary does not name %s with its kind:\n%s", f.Path, out)
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, manifest.IndexPath))
	if err != nil || !bytes.Equal(index, set.Index("scenario single-node", Version())) {
		t.Errorf("MANIFESTS.md is not the set's index (%v)", err)
	}
	if !strings.HasPrefix(out, "Wrote 3 files for ") {
		t.Errorf("summary:\n%s", out)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(set.Files)+1 {
		t.Errorf("the folder holds %d entries, want %d", len(entries), len(set.Files)+1)
	}
}

// A second run refuses while any file of the set is there, naming it, and
// writes none of the others; --force replaces them.
func TestManifestNeverWritesHalfASet(t *testing.T) {
	dir := t.TempDir()
	compose := filepath.Join(dir, "compose.yaml")
	if err := os.WriteFile(compose, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runManifest(t, "manifest", "-s", "single-node", "-o", dir)
	if code != 2 || out != "" || !strings.Contains(stderr, compose+" already exists; nothing written") || !strings.Contains(stderr, "pass --force") {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a refused set left %d entries, want only the file that was there", len(entries))
	}
	if got, _ := os.ReadFile(compose); string(got) != "mine\n" {
		t.Error("the file in the way was changed")
	}
	code, _, stderr = runManifest(t, "manifest", "-s", "single-node", "-o", dir, "--force")
	if got, _ := os.ReadFile(compose); code != 0 || string(got) == "mine\n" {
		t.Errorf("--force: exit %d stderr %q", code, stderr)
	}
	code, _, stderr = runManifest(t, "manifest", "-s", "single-node", "-o", dir)
	if code != 2 || !strings.Contains(stderr, " and 2 more files of the set already exist") {
		t.Errorf("all three in the way: exit %d stderr %q", code, stderr)
	}
}

// A set written with --force over another stack's set leaves that set's
// files that it does not replace: they stay (they may hold edits), and the
// summary and the new index name them with the command that removes them,
// on every later write there too, until they are gone.
func TestManifestOverAnotherStacksSetNamesItsLeftovers(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runManifest(t, "manifest", "-s", "gitops-rollouts", "-o", dir); code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	old := filepath.Join(dir, "kserve", "inferenceservice.yaml")
	before, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runManifest(t, "manifest", "-s", "nvidia-fleet", "-o", dir)
	if code != 2 || !strings.Contains(stderr, "1 file of the set written there before (kserve/inferenceservice.yaml) is not part of this one and would stay") {
		t.Errorf("without --force: exit %d, and the refusal does not say the earlier set's file would stay: %s", code, stderr)
	}
	for run := range 2 {
		code, out, stderr := runManifest(t, "manifest", "-s", "nvidia-fleet", "-o", dir, "--force")
		if code != 0 || stderr != "" {
			t.Fatalf("run %d: exit %d stderr %q", run, code, stderr)
		}
		flat := strings.ReplaceAll(strings.Join(strings.Fields(out), " "), ` \ `, " ") // lines joined, as the shell joins a broken command
		if !strings.Contains(flat, "Left in the folder from the set written there before, not part of this one: kserve/inferenceservice.yaml It is kept") || !strings.Contains(flat, "rm "+old) {
			t.Errorf("run %d: the summary does not name the file left from the earlier set:\n%s", run, out)
		}
		if got, _ := os.ReadFile(old); !bytes.Equal(got, before) {
			t.Errorf("run %d: the earlier set's file was changed", run)
		}
		index, _ := os.ReadFile(filepath.Join(dir, manifest.IndexPath))
		if got := manifest.Listed(index); !slices.Equal(got, []string{"dynamo.yaml", "kserve/inferenceservice.yaml"}) {
			t.Errorf("run %d: the index lists %q", run, got)
		}
	}
	if err := os.Remove(old); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runManifest(t, "manifest", "-s", "nvidia-fleet", "-o", dir, "--force")
	index, _ := os.ReadFile(filepath.Join(dir, manifest.IndexPath))
	if code != 0 || strings.Contains(out, "Left in the folder") || strings.Contains(string(index), "earlier set") {
		t.Errorf("once removed, the file is still named (exit %d):\n%s", code, out)
	}
}

// --out - prints each file after a "==> path <==" line, the index last;
// the summary goes to stderr, so stdout is only the files.
func TestManifestToStdoutSeparatesTheFiles(t *testing.T) {
	code, out, stderr := runManifest(t, "manifest", "--scenario", "single-node", "--out", "-")
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	set := wantSet(t, "single-node", "stackpick manifest --scenario single-node --out -", nil)
	var want strings.Builder
	for i, f := range set.Files {
		if i > 0 {
			want.WriteString("\n")
		}
		want.WriteString("==> " + f.Path + " <==\n" + string(f.Body))
	}
	want.WriteString("\n==> MANIFESTS.md <==\n" + string(set.Index("scenario single-node", Version())))
	if out != want.String() {
		t.Errorf("stdout is not the files with their separators:\n%s", out)
	}
	if !strings.HasPrefix(stderr, "Printed 3 files for ") || !strings.Contains(stderr, "compose.yaml (Compose file): ") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// The placeholders still to fill are listed with what each is and the
// command that fills them all; --set fills one into the files.
func TestManifestNamesThePlaceholdersAndSetFillsThem(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runManifest(t, "manifest", "--scenario", "cpu-box", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	set := wantSet(t, "cpu-box", "", nil)
	unfilled := set.Unfilled()
	if len(unfilled) == 0 {
		t.Fatal("the cpu-box set has no placeholders to test with")
	}
	fill := "stackpick manifest --scenario cpu-box --out " + dir + " --force"
	for _, name := range unfilled {
		fill += " --set " + name + "=..."
		if !strings.Contains(out, "${"+name+"}: ") {
			t.Errorf("the summary does not explain ${%s}:\n%s", name, out)
		}
	}
	// The command is printed to paste: continuations between words, none
	// inside one.
	if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(out, " \\\n", " ")), " "), fill) {
		t.Errorf("the summary does not give %q:\n%s", fill, out)
	}
	value := "/srv/x"
	for _, p := range set.Placeholders {
		if p.Name == unfilled[0] && p.Example != "" {
			value = p.Example
		}
	}
	code, out, stderr = runManifest(t, "manifest", "--scenario", "cpu-box", "--out", dir, "--force", "--set", unfilled[0]+"="+value)
	if code != 0 {
		t.Fatalf("--set: exit %d stderr %q", code, stderr)
	}
	filled := false
	for _, f := range set.Files {
		body, _ := os.ReadFile(filepath.Join(dir, f.Path))
		if strings.Contains(string(body), "${"+unfilled[0]+"}") {
			t.Errorf("%s still holds ${%s}", f.Path, unfilled[0])
		}
		filled = filled || strings.Contains(string(body), value)
	}
	if !filled || strings.Contains(out, "${"+unfilled[0]+"}: ") {
		t.Errorf("--set %s did not fill the files, or the summary still lists it:\n%s", unfilled[0], out)
	}
}

// Mistakes exit 2 with what to type instead; a stack no writer covers
// exits 1 with the reason; neither writes anything.
func TestManifestMistakesAndStacksWithoutFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-s", "single-node"}, 2, "manifest needs --out DIR"},
		{[]string{"--out", dir}, 2, "manifest needs --answers FILE or --scenario NAME"},
		{[]string{"-s", "single-node", "-a", "x.toml", "-o", dir}, 2, "give --answers or --scenario, not both"},
		{[]string{"-s", "single-node", "-o", dir, "--target", "kserve"}, 2, `--target "kserve": not PROJECT@VERSION (for example --target kserve@v0.20.0)`},
		{[]string{"-s", "single-node", "-o", dir, "--target", "nope@1"}, 2, `stackpick writes for no target "nope"`},
		{[]string{"-s", "single-node", "-o", dir, "--set", "namespace=x"}, 2, "not NAME=VALUE with an upper-case placeholder name"},
		{[]string{"-s", "single-node", "-o", dir, "--set", "NOPE=x"}, 2, "the files for this stack have no placeholder NOPE"},
		{[]string{"-s", "single-nod", "-o", dir}, 2, `did you mean "single-node"?`},
		{[]string{"-s", "single-node", "-o", file}, 2, file + ": is a file, not a folder"},
		{[]string{"-s", "last-15-percent", "-o", dir}, 3, "stackpick: no deployable files: "},
	} {
		code, out, stderr := runManifest(t, append([]string{"manifest"}, c.args...)...)
		if code != c.code || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("manifest %v: exit %d (want %d) stdout %q stderr %q, want it to say %q", c.args, code, c.code, out, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the mistakes wrote %d entries", len(entries)-1)
	}
}

// --target completes each target's id at its versions; --set completes the
// placeholders of the files for the answers already on the line.
func TestManifestCompletesTargetsAndPlaceholders(t *testing.T) {
	complete := func(args ...string) []string {
		code, out, stderr := runManifest(t, append([]string{"__complete", "manifest"}, args...)...)
		if code != 0 {
			t.Fatalf("__complete %v: exit %d stderr %q", args, code, stderr)
		}
		var got []string
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for _, l := range lines[:len(lines)-1] {
			v, _, _ := strings.Cut(l, "\t")
			got = append(got, v)
		}
		return got
	}
	kb := knowledge.MustDefault()
	var want []string
	for _, tg := range kb.Targets {
		for i := len(tg.Versions) - 1; i >= 0; i-- {
			want = append(want, tg.ID+"@"+tg.Versions[i])
		}
	}
	if got := complete("--target", ""); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("--target completes %q, want %q", got, want)
	}
	set := wantSet(t, "cpu-box", "", nil)
	var names []string
	for _, p := range set.Placeholders {
		names = append(names, p.Name+"=")
	}
	if got := complete("-s", "cpu-box", "--set", ""); len(names) == 0 || !slices.Equal(got, names) {
		t.Errorf("--set completes %q, want %q", got, names)
	}
	if got := complete("--set", ""); len(got) != 0 {
		t.Errorf("--set with no answers on the line completes %q", got)
	}
}

// The memo's command for a preset writes the files the memo lists.
func TestManifestCommandOfTheMemoIsOneThatRuns(t *testing.T) {
	cmd := report.ManifestCommand("single-node", "", t.TempDir())
	args := strings.Fields(strings.TrimPrefix(cmd, "stackpick "))
	if code, _, stderr := runManifest(t, args...); code != 0 {
		t.Errorf("%s: exit %d stderr %q", cmd, code, stderr)
	}
}

// decide's text ends with the files that deploy the stack and the command
// that writes them, as the memo's consequences do; a stack without files
// says why.
func TestDecideTextListsTheDeployableFiles(t *testing.T) {
	code, out, stderr := runManifest(t, "decide", "--scenario", "k8s-fleet")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	i := strings.Index(out, "── Deployable files (2)")
	if i < 0 {
		t.Fatalf("no deployable files section:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out[i:]), " ")
	for _, want := range []string{"stackpick manifest --scenario k8s-fleet --out deploy", "kserve/llminferenceservice.yaml (LLMInferenceService (serving.kserve.io/v1alpha2)):", "MANIFESTS.md (index)", "${NAMESPACE}"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the section does not say %q:\n%s", want, out[i:])
		}
	}
	// Piped answers are not kept: no command can write the files again.
	_, out, _ = runManifest(t, "decide", "--answers", "-")
	if i := strings.Index(out, "── Deployable files"); i < 0 || strings.Contains(out[i:], "--answers -") || !strings.Contains(out[i:], "save the answers to a file") {
		t.Errorf("answers from stdin: the section should say to save them first:\n%s", out[max(i, 0):])
	}
	_, out, _ = runManifest(t, "decide", "--scenario", "last-15-percent")
	if i := strings.Index(out, "── Deployable files"); i < 0 || !strings.Contains(out[i:], "None: ") {
		t.Errorf("a stack without files should say why in its last section:\n%s", out)
	}
}
