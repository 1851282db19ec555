package cli

import (
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The man page at 80 columns: no line wider (examples continue with " \"
// as --help's do), no markdown headings, no hyphen splitting a word, and a
// footer whose version does not run into the date.
func TestManPageFitsEightyColumns(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed: the page is not rendered")
	}
	const pseudo = "v0.0.0-20261201191137-c60abf093435"
	page := manPage(newApp(IO{}).rootCommand(), pseudo, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	cmd := exec.Command(groff, "-man", "-Tutf8", "-rLL=78n", "-P-cbou")
	cmd.Stdin = strings.NewReader(page)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
		if strings.Contains(l, "####") {
			t.Errorf("line %d is markdown: %q", i+1, l)
		}
		if strings.HasSuffix(strings.TrimSpace(l), "‐") {
			t.Errorf("line %d ends in a hyphen that splits a word: %q", i+1, l)
		}
	}
	footer := strings.Fields(lines[len(lines)-2])
	if len(footer) != 4 || footer[0] != "stackpick" || footer[1] != "c60abf093435" || footer[2] != "2026-12-01" {
		t.Errorf("footer %q: want stackpick, the revision, the date, STACKPICK(1) apart", lines[len(lines)-2])
	}
	if !strings.Contains(page, "\n.SH VERSION\nThis page is stackpick v0.0.0\\-20261201191137\\-c60abf093435's.\n") {
		t.Errorf("the VERSION section does not give the whole version")
	}
	for _, use := range []string{"completion bash [flags]", "completion zsh [flags]"} {
		if !strings.Contains(page, "\n.SS \"stackpick "+use+"\"\n") {
			t.Errorf("no subsection for stackpick %s", use)
		}
	}
}

func TestFooterVersion(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20261201191137-c60abf093435":   "c60abf093435",
		"v1.2.4-0.20261201191137-c60abf093435": "c60abf093435",
		"v1.2.3":                               "v1.2.3",
		"v1.2.3-rc.1":                          "v1.2.3-rc.1",
		"dev":                                  "dev",
		"v0.0.0-20261201191137-c60abf093435+dirty": "c60abf093435+dirty",
	} {
		if got := footerVersion(v); got != want {
			t.Errorf("footerVersion(%q) = %q, want %q", v, got, want)
		}
	}
}
