package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
	"github.com/stackpick/stackpick/scenarios"
)

// overlayGPU is a knowledge overlay that adds an accelerator: answers that
// pick it decide only with the overlay.
const overlayGPU = `[[gpu]]
id = "lab-gpu"
name = "Lab GPU 80GB"
vendor = "nvidia"
memory_gib = 79.19
bandwidth_tbs = 3.35
fp8 = true
non_torch_gib = 0.13
non_torch_multi_gib = 0.55
non_torch_source = [{ kind = "notes", section = "s", quote = "as the H100", checked_on = "2026-12-01" }]
source = [{ kind = "notes", section = "s", quote = "q", checked_on = "2026-12-01" }]
`

// withOverlay writes overlayGPU into the folder kbDir and loads the
// knowledge base and the presets with it, as --kb kbDir does.
func withOverlay(t *testing.T, kbDir string) (*knowledge.KB, []scenarios.Scenario) {
	t.Helper()
	if err := os.MkdirAll(kbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kbDir, "gpus.toml"), []byte(overlayGPU), 0o644); err != nil {
		t.Fatal(err)
	}
	kb, err := knowledge.Load(kbDir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := scenarios.All(kb)
	if err != nil {
		t.Fatal(err)
	}
	return kb, list
}

// Answers saved from an app started with --kb replay with it: the file's
// replay line names the overlay (as an absolute folder), and running that
// line decides what the app showed; the same command without --kb fails.
func TestSavedAnswersReplayWithTheOverlay(t *testing.T) {
	dir := t.TempDir()
	kbDir := filepath.Join(dir, "my kb") // a space: the line must quote it
	kb, list := withOverlay(t, kbDir)
	d := drive(t, New(kb, list, Options{Now: testNow, KBDir: kbDir}))
	d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	d.press("n").focusField("gpu").press("end", "enter", "ctrl+r")
	if got := d.m.c.session.answers.Get("gpu").Str; got != "lab-gpu" {
		t.Fatalf("gpu = %q, want the overlay's lab-gpu:\n%s", got, d.view())
	}
	shown := d.m.c.session.decision
	path := filepath.Join(dir, "lab.toml")
	d.press("s", "ctrl+u").typeText(path).press("enter")
	if s, ok := d.screen().(*saveScreen); !ok || !strings.HasPrefix(s.replay, "stackpick decide --kb '"+kbDir+"' --answers") {
		t.Errorf("the saved screen should give the replay with --kb:\n%s", d.view())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Replay: stackpick decide --kb '" + kbDir + "' --answers lab.toml"
	if !strings.Contains(string(data), want+"\n") {
		t.Fatalf("the file should say %q:\n%s", want, data)
	}
	bin := stackpickBinary(t)
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command(bin, append(args, "--format", "json")...)
		cmd.Dir = dir // where the file is, as the line assumes
		cmd.Env = append(os.Environ(), knowledge.EnvKB+"=")
		return cmd.Output()
	}
	out, err := run("decide", "--kb", kbDir, "--answers", "lab.toml")
	if err != nil {
		t.Fatalf("the replay line fails: %v", err)
	}
	sameJSON(t, "the replay line", json.RawMessage(out), shown)
	if _, err := run("decide", "--answers", "lab.toml"); err == nil {
		t.Error("without the overlay the answers should not replay; the test proves nothing")
	}
}

// The replay command quotes what the shell would split, and names no
// overlay when there is none.
func TestReplayCommand(t *testing.T) {
	abs, _ := filepath.Abs("kb")
	for _, tc := range []struct{ dir, path, want string }{
		{"", "answers.toml", "stackpick decide --answers answers.toml"},
		{"/srv/kb", "a.toml", "stackpick decide --kb /srv/kb --answers a.toml"},
		{"kb", "a.toml", "stackpick decide --kb " + abs + " --answers a.toml"},
		{"/srv/my kb", "it's.toml", `stackpick decide --kb '/srv/my kb' --answers 'it'\''s.toml'`},
	} {
		if got := replayCommand(tc.dir, tc.path); got != tc.want {
			t.Errorf("replayCommand(%q, %q) = %q, want %q", tc.dir, tc.path, got, tc.want)
		}
	}
}

// Accessible mode's save names the overlay in its replay line too.
func TestAccessibleSaveNamesTheOverlay(t *testing.T) {
	kb, _ := loadKB(t)
	path := filepath.Join(t.TempDir(), "a.toml")
	var prompts strings.Builder
	a := kb.Defaults()
	d := decide.Decide(kb, a)
	if err := offerSave(&lineReader{lines: []string{path}}, &prompts, 80, kb, a, d, "New decision", "/srv/kb"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "stackpick decide --kb /srv/kb --answers " + path
	if !strings.Contains(string(data), "# Replay: "+want+"\n") || !strings.Contains(prompts.String(), "Replay: "+want) {
		t.Errorf("the replay should name the overlay (%q):\n%s\n%s", want, data, prompts.String())
	}
}
