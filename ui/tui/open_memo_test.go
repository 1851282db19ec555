package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An answers file with a [memo] title is titled by it, and saving it back
// keeps the story its leading comment told, once, above stackpick's own
// lines (which a second save replaces, never repeats).
func TestOpenedFileKeepsItsTitleAndStory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memo.toml")
	src := "# The exit test: four H200 nodes, three tenants' fine-tunes\n# told by the platform team\n\nnodes = 4\ngpus_per_node = 8\ngpu = \"h200\"\n\n[memo]\ntitle = \"Serving stack for the tenant fleet\"\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, 80, 24)
	d.press("o").typeText(path).press("enter")
	if _, ok := d.screen().(*resultScreen); !ok {
		t.Fatalf("the file should open at its result, got %s:\n%s", d.screen().Title(), d.view())
	}
	if v := d.view(); !strings.Contains(v, "Decision · Serving stack for the tenant fleet") {
		t.Errorf("the result is not titled by the [memo] title:\n%s", v)
	}
	for range 2 {
		d.press("s")
		d.press("enter")         // the file exists: replace it?
		d.press("left", "enter") // yes
		d.press("enter")         // back from the saved screen
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "# The exit test: four H200 nodes, three tenants' fine-tunes\n# told by the platform team\n# stackpick answers: Serving stack for the tenant fleet\n") {
		t.Errorf("the saved file lost its story or its title:\n%s", text)
	}
	if n := strings.Count(text, "# Stack: "); n != 1 || strings.Count(text, "The exit test") != 1 {
		t.Errorf("saving twice repeats the header (%d stack lines):\n%s", n, text)
	}
	if !strings.Contains(text, `title = "Serving stack for the tenant fleet"`) {
		t.Errorf("the [memo] table is lost:\n%s", text)
	}
}
