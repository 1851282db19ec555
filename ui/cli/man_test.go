package cli_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// stackpick man prints one manual page, generated from the commands:
// dated by SOURCE_DATE_EPOCH, every command named in its own subsection,
// and roff that groff reads without a warning.
func TestManPageNamesEveryCommand(t *testing.T) {
	code, page, stderr := run(t, []string{"SOURCE_DATE_EPOCH=1764547200"}, "man")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if !strings.HasPrefix(page, `.TH STACKPICK 1 "2025-12-01" "stackpick dev" "User Commands"`+"\n") {
		t.Errorf("the page does not open with its .TH header:\n%s", page[:min(len(page), 200)])
	}
	for _, section := range []string{".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH GLOBAL FLAGS", ".SH ENVIRONMENT", ".SH EXIT STATUS"} {
		if !strings.Contains(page, "\n"+section+"\n") {
			t.Errorf("the page lacks %s", section)
		}
	}
	for _, cmd := range []string{"compare", "completion bash", "completion zsh", "decide", "diff", "drill", "kb changes", "kb check", "kb rules", "kb verify", "man", "manifest", "open", "questions", "scenarios", "size", "version"} {
		if !strings.Contains(page, "\n.SS \"stackpick "+cmd) {
			t.Errorf("the page has no subsection for stackpick %s", cmd)
		}
	}
	// A text line that starts with a period or an apostrophe is a roff
	// request: only the macros the page means may start one.
	request := regexp.MustCompile(`^\.(TH|SH|SS|PP|TP|B|RS|RE|nf|fi|nh)( |$)`)
	for i, line := range strings.Split(page, "\n") {
		if (strings.HasPrefix(line, ".") && !request.MatchString(line)) || strings.HasPrefix(line, "'") {
			t.Errorf("line %d is read as a roff request: %q", i+1, line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed: the page is not rendered")
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff -man -ww: %v\n%s", err, out)
	}
}
