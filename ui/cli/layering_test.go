package cli

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/stackpick/stackpick"

// layering is the README's map of one-way arrows, as rules over the
// transitive dependencies of each package: a package matching from may not
// depend on any package matching one of banned. A prefix ending in "/"
// matches the package and everything under it.
var layering = []struct {
	from   string
	banned []string
	why    string
}{
	{module + "/knowledge/", []string{module + "/"}, "knowledge imports nothing of ours"},
	{module + "/decide/", []string{module + "/ui/", module + "/scenarios/", "charm.land/", "github.com/charmbracelet/"}, "decide is pure: no ui, no Charm"},
	{module + "/scenarios/", []string{module + "/ui/", "charm.land/", "github.com/charmbracelet/"}, "scenarios is pure: no ui, no Charm"},
	{module + "/ui/store/", []string{module + "/ui/tui/", module + "/ui/cli/", module + "/ui/report/", "charm.land/", "github.com/charmbracelet/"}, "store is files only"},
	{module + "/ui/report/", []string{module + "/ui/tui/", module + "/ui/cli/", module + "/ui/store/", "charm.land/bubbletea/", "charm.land/bubbles/", "charm.land/huh/"}, "report words decisions; it never imports the app"},
	{module + "/ui/tui/", []string{module + "/ui/cli/"}, "the app is started by the command line, never the other way round"},
	{module + "/ui/tui/drills/", []string{module + "/ui/tui", module + "/ui/cli/"}, "the app opens the drills; the drills know only the screen contract"},
	// The validators cost milliseconds of init and hundreds of milliseconds
	// per CRD: tests use them, the binary never links them.
	{module, manifestCheckBanned, "the binary never links the manifest validators (tests only)"},
	{module + "/ui/cli/", manifestCheckBanned, "the binary never links the manifest validators (tests only)"},
	{module + "/ui/tui/", manifestCheckBanned, "the binary never links the manifest validators (tests only)"},
	{module + "/ui/report", manifestCheckBanned, "the binary never links the manifest validators (tests only)"},
	{module + "/ui/report/manifest", manifestCheckBanned, "the binary never links the manifest validators (tests only)"},
	{module + "/ui/tui/screen/", []string{module + "/ui/tui", module + "/ui/tui/drills/", module + "/ui/cli/", "charm.land/huh/"}, "the screen contract knows no screen, and no huh: forms are ui/tui's"},
}

// manifestCheckBanned is what only tests may link: the manifest checks and
// the libraries they are built on.
var manifestCheckBanned = []string{
	module + "/ui/report/manifest/check/",
	"github.com/santhosh-tekuri/jsonschema/",
	"cel.dev/",
	"github.com/bufbuild/protocompile/",
}

func matches(pkg, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return pkg == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(pkg, prefix)
	}
	return pkg == prefix
}

// deps lists every package of the module with its transitive dependencies.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps=false", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

func violations(graph map[string][]string) []string {
	var bad []string
	for pkg, ds := range graph {
		for _, rule := range layering {
			if !matches(pkg, rule.from) {
				continue
			}
			for _, d := range ds {
				for _, b := range rule.banned {
					// A package's own sub-packages are its own business
					// (decide → decide/sizing, knowledge → nothing else).
					if matches(d, b) && !matches(d, rule.from) {
						bad = append(bad, pkg+" → "+d+" ("+rule.why+")")
					}
				}
			}
		}
	}
	return bad
}

func TestPackagesImportOnlyDownTheArrows(t *testing.T) {
	graph := deps(t)
	if len(graph) < 8 {
		t.Fatalf("go list found only %d packages; the test cannot see the module", len(graph))
	}
	for _, v := range violations(graph) {
		t.Errorf("import against the layering: %s", v)
	}
}

// The check itself must be able to fail.
func TestLayeringCatchesAnUpwardImport(t *testing.T) {
	graph := map[string][]string{
		module + "/decide":    {module + "/knowledge", "charm.land/lipgloss/v2"},
		module + "/knowledge": {module + "/decide"},
		module + "/ui/report": {module + "/ui/tui"},
		// The drills reaching back into the app, the screen contract into
		// the drills; the app into either is fine.
		module + "/ui/tui/drills": {module + "/ui/tui", module + "/ui/tui/screen"},
		module + "/ui/tui/screen": {module + "/ui/tui/drills"},
		module + "/ui/tui":        {module + "/ui/tui/drills", module + "/ui/tui/screen"},
		// The binary and the manifest writer linking the validators; the
		// validators' own tests may.
		module:                               {module + "/ui/report/manifest/check"},
		module + "/ui/report/manifest":       {"cel.dev/cel-go/cel"},
		module + "/ui/report/manifest/check": {"cel.dev/cel-go/cel", "github.com/santhosh-tekuri/jsonschema/v6"},
	}
	if got := violations(graph); len(got) != 7 {
		t.Fatalf("want 7 violations, got %d: %v", len(got), got)
	}
}
