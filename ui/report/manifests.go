package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/ui/report/manifest"
)

// ManifestSet is manifest.Generate for every surface (the manifest
// command, the app's manifests screen, the memo, decide's JSON): a writer
// that panics on a knowledge base it does not expect (an overlay that
// drops an engine's images) is an error here, never a crash of the
// command that only wanted the memo.
func ManifestSet(req manifest.Request) (set *manifest.Set, err error) {
	defer func() {
		if r := recover(); r != nil {
			set, err = nil, fmt.Errorf("stackpick cannot write the files for this stack: %v", r)
		}
	}()
	return manifest.Generate(req)
}

// ManifestsFor is the set for a decision as the memo and the JSON name it:
// no --target, no --set; why is the reason when there is none.
func ManifestsFor(kb *knowledge.KB, d decide.Decision, origin, command string) (set *manifest.Set, why string) {
	if kb == nil {
		return nil, "no knowledge base to write the files from"
	}
	set, err := ManifestSet(manifest.Request{KB: kb, Decision: &d, Origin: origin, Command: command})
	if err != nil {
		return nil, err.Error()
	}
	return set, ""
}

// ManifestCommand is the command line that writes the files for answers
// from a preset (scenario) or a file (answers), into dir; "" when the
// answers are neither (typed in the app and not saved).
func ManifestCommand(scenario, answers, dir string) string {
	switch {
	case scenario != "":
		return "stackpick manifest --scenario " + ShellQuote(scenario) + " --out " + ShellQuote(dir)
	case answers != "":
		return "stackpick manifest --answers " + ShellQuote(answers) + " --out " + ShellQuote(dir)
	}
	return ""
}

// ShellQuote leaves a word the shell reads as it is alone and puts any
// other in single quotes, so a command line pastes as the same words.
func ShellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,~", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// FileKind is a file's kind with its apiVersion, as lists show it:
// "InferencePool (inference.networking.k8s.io/v1)".
func FileKind(f manifest.File) string {
	if f.APIVersion != "" {
		return f.Kind + " (" + f.APIVersion + ")"
	}
	return f.Kind
}

// ManifestSummary says what the manifest command wrote (or, with dir "-",
// printed): each file with its kind and what it deploys, the index, then
// the placeholders still to fill, each with what it explains, and the
// command that fills them all (again, with --force and a --set for each).
func ManifestSummary(s *manifest.Set, dir, command string, width int) string {
	var b strings.Builder
	line := func(text string, indent, hang int) {
		for _, l := range Wrap(text, width, indent, hang) {
			b.WriteString(l + "\n")
		}
	}
	where := "to " + dir
	verb := "Wrote"
	if dir == "-" {
		where, verb = "to standard output", "Printed"
	}
	head := fmt.Sprintf("%s %s for %s %s:", verb, count(len(s.Files)+1, "file", "files"), s.Stack, where)
	if width > 0 && len(head) > width && dir != "-" {
		// The folder on a line of its own, whole: a path is never cut.
		head = fmt.Sprintf("%s %s for %s to:", verb, count(len(s.Files)+1, "file", "files"), s.Stack)
		line(head, 0, 0)
		b.WriteString("  " + dir + "\n")
	} else {
		line(head, 0, 0)
	}
	// Paths in the folder named above, so a long folder does not push
	// every line past the edge.
	for _, f := range s.Files {
		line(fmt.Sprintf("%s (%s): %s", f.Path, FileKind(f), f.Deploys), 2, 4)
	}
	line(fmt.Sprintf("%s (index): what each file deploys, the placeholders, what was checked and what only the place each file runs can check", manifest.IndexPath), 2, 4)
	for _, o := range s.Omits {
		line("Not in these files: "+o+".", 0, 2)
	}
	unfilled := s.Unfilled()
	if len(unfilled) == 0 {
		if len(s.Placeholders) > 0 {
			line("Every placeholder is filled by --set.", 0, 0)
		}
		return b.String()
	}
	b.WriteString("\n")
	line(fmt.Sprintf("%s to fill (edit the files, use envsubst, or write them again with --set NAME=VALUE):", count(len(unfilled), "placeholder", "placeholders")), 0, 0)
	for _, p := range s.Placeholders {
		if p.Value == "" {
			line("${"+p.Name+"}: "+p.Explains, 2, 4)
		}
	}
	if command != "" {
		fill := manifest.ShellWords(command)
		if dir != "-" {
			fill = append(fill, "--force")
		}
		for _, name := range unfilled {
			fill = append(fill, "--set", name+"=...")
		}
		b.WriteString("\n")
		line("Fill them all with:", 0, 0)
		b.WriteString(manifest.ShellWrap(fill, width, 2, 4))
	}
	return b.String()
}

// manifestsMD writes the memo's paragraph on the deployable files: the
// files and what each deploys, the command that writes them, and the
// placeholders; or why there are none.
func (m *memo) manifestsMD() {
	cmd := m.in.Manifest
	write := codeSpan(cmd) + " writes them"
	if cmd == "" {
		write = "save the answers, then `stackpick manifest --answers FILE --out DIR` writes them"
	}
	set, why := ManifestsFor(m.kb, m.d, m.in.Source, cmd)
	if set == nil {
		m.para("Deployable files: none. " + sentence(why))
		return
	}
	m.line("Deployable files (" + write + ", each headed by what it deploys, what was checked and what only the place it runs can check):")
	m.blank()
	m.line("| File | What it is | What it deploys |")
	m.line("| --- | --- | --- |")
	for _, f := range set.Files {
		m.line(fmt.Sprintf("| `%s` | %s | %s |", f.Path, cell(FileKind(f)), cell(f.Deploys)))
	}
	m.line(fmt.Sprintf("| `%s` | index | what each file deploys and the command that applies it, the placeholders, what was checked |", manifest.IndexPath))
	m.blank()
	for _, o := range set.Omits {
		m.para("Not in these files: " + sentence(o))
	}
	if len(set.Placeholders) > 0 {
		var names []string
		for _, p := range set.Placeholders {
			names = append(names, "`${"+p.Name+"}`")
		}
		m.line(fmt.Sprintf("%s that stackpick cannot know, named in each file's header: %s; `--set NAME=VALUE` fills them.", Capitalize(count(len(names), "value", "values")), strings.Join(names, ", ")))
		m.blank()
	}
}

// manifestsJSON is decide's "manifests": the files that deploy the
// decision, or why there are none.
type manifestsJSON struct {
	NotCovered string             `json:"not_covered,omitempty"`
	Stack      string             `json:"stack,omitempty"`
	Files      []manifestFileJSON `json:"files"`
	// Index is the file every set carries beside these, saying what each
	// deploys (manifest writes it too).
	Index        string                 `json:"index,omitempty"`
	Placeholders []manifest.Placeholder `json:"placeholders"`
	Omits        []string               `json:"omits,omitempty"`
}

type manifestFileJSON struct {
	Path         string            `json:"path"`
	Kind         string            `json:"kind"`
	APIVersion   string            `json:"api_version,omitempty"`
	Deploys      string            `json:"deploys"`
	Format       string            `json:"format"`
	Targets      map[string]string `json:"targets"`
	Placeholders []string          `json:"placeholders"`
	Checked      string            `json:"checked"`
	Unchecked    string            `json:"unchecked"`
}

func manifestsOf(d decide.Decision) manifestsJSON {
	set, why := ManifestsFor(d.Answers.KB(), d, "", "")
	if set == nil {
		return manifestsJSON{NotCovered: why, Files: []manifestFileJSON{}, Placeholders: []manifest.Placeholder{}}
	}
	out := manifestsJSON{Stack: set.Stack, Files: []manifestFileJSON{}, Index: manifest.IndexPath, Placeholders: set.Placeholders, Omits: set.Omits}
	if out.Placeholders == nil {
		out.Placeholders = []manifest.Placeholder{}
	}
	for _, f := range set.Files {
		ph := f.Placeholders
		if ph == nil {
			ph = []string{}
		}
		t := f.Targets
		if t == nil {
			t = map[string]string{}
		}
		out.Files = append(out.Files, manifestFileJSON{Path: f.Path, Kind: f.Kind, APIVersion: f.APIVersion, Deploys: f.Deploys, Format: f.Format, Targets: t, Placeholders: ph, Checked: f.Checked, Unchecked: f.Unchecked})
	}
	return out
}

// ManifestLeftovers words the files of a set written in dir before that a
// new set did not replace (store.Leftovers): they stay, since they may
// hold edits, and the command that removes them is laid out to paste. ""
// when there are none.
func ManifestLeftovers(dir string, paths []string, width int) string {
	if len(paths) == 0 {
		return ""
	}
	var b strings.Builder
	kept := "They are kept as they were (they may hold edits); remove them if this stack does not use them:"
	if len(paths) == 1 {
		kept = "It is kept as it was (it may hold edits); remove it if this stack does not use it:"
	}
	// The folder is named above and in the rm below, whole: never in
	// prose, where a long one would be cut.
	for _, l := range Wrap("Left in the folder from the set written there before, not part of this one:", width, 0, 0) {
		b.WriteString(l + "\n")
	}
	for _, p := range paths {
		b.WriteString("  " + p + "\n")
	}
	for _, l := range Wrap(kept, width, 0, 0) {
		b.WriteString(l + "\n")
	}
	b.WriteString(manifest.ShellWrap(RemoveCommand(dir, paths), width, 2, 4))
	return b.String()
}

// RemoveCommand is the rm that removes paths (relative to dir), each word
// quoted for the shell; a path that would start with '-' (--out ./-x) keeps
// "./" so rm does not read it as an option.
func RemoveCommand(dir string, paths []string) []string {
	rm := []string{"rm"}
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasPrefix(full, "-") {
			full = "." + string(filepath.Separator) + full
		}
		rm = append(rm, ShellQuote(full))
	}
	return rm
}

// manifestSection is the command line decision's last section: the files
// that deploy the stack (what each is and deploys), what they leave out,
// the placeholders, and the command that writes them; or why there are
// none. The memo says the same in its consequences.
func manifestSection(kb *knowledge.KB, d decide.Decision, h Header, st Styles, width int) Section {
	sec := Section{ID: "manifests", Title: "Deployable files"}
	line := func(text string, indent, hang int) {
		sec.Lines = append(sec.Lines, Wrap(text, width, indent, hang)...)
	}
	set, why := ManifestsFor(kb, d, h.Source, h.Manifest)
	if set == nil {
		line("None: "+sentence(why), 0, 2)
		return sec
	}
	sec.Title = fmt.Sprintf("Deployable files (%d)", len(set.Files)+1)
	if h.Manifest != "" {
		line("Written by:", 0, 0)
		sec.Lines = append(sec.Lines, strings.Split(strings.TrimSuffix(manifest.ShellWrap(manifest.ShellWords(h.Manifest), width, 2, 4), "\n"), "\n")...)
		line("Files:", 0, 0)
	} else {
		line("Files (save the answers to a file, then stackpick manifest --answers FILE --out DIR writes them):", 0, 0)
	}
	for _, f := range set.Files {
		line(fmt.Sprintf("%s (%s): %s", st.Key.Render(f.Path), FileKind(f), f.Deploys), 2, 4)
	}
	line(fmt.Sprintf("%s (index): what each file deploys and the command that applies it, the placeholders, what was checked", st.Key.Render(manifest.IndexPath)), 2, 4)
	for _, o := range set.Omits {
		line("Not in these files: "+sentence(o), 0, 2)
	}
	if len(set.Placeholders) > 0 {
		var names []string
		for _, p := range set.Placeholders {
			names = append(names, "${"+p.Name+"}")
		}
		line(fmt.Sprintf("%s stackpick cannot know, explained in each file's header: %s; --set NAME=VALUE fills them.", Capitalize(count(len(names), "value", "values")), strings.Join(names, ", ")), 0, 2)
	}
	return sec
}

// codeSpan is s as one Markdown code span, fenced with more backticks than
// any run in s (a path may hold one).
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if len(fence) > 1 || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
