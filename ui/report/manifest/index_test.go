package manifest

import (
	"slices"
	"strings"
	"testing"
)

// Listed reads back from an index the files it lists: every file of the
// set, then those left from an earlier set, never the index itself.
func TestListedReadsBackTheIndexsFiles(t *testing.T) {
	kb := drtKB(t)
	for _, c := range drtCases {
		_, s := drtGenerate(t, kb, c)
		var want []string
		for _, f := range s.Files {
			want = append(want, f.Path)
		}
		if got := Listed(s.Index("scenario "+c.name, "test")); !slices.Equal(got, want) {
			t.Errorf("%s: Listed = %q, want %q", c.name, got, want)
		}
		s.Earlier = []string{"old/inferenceservice.yaml", "serve-config.yaml"}
		index := s.Index("scenario "+c.name, "test")
		if got := Listed(index); !slices.Equal(got, append(want, s.Earlier...)) {
			t.Errorf("%s: with files left from an earlier set, Listed = %q", c.name, got)
		}
		if !strings.Contains(string(index), "## Left from an earlier set") {
			t.Errorf("%s: the index does not say which files are left from an earlier set", c.name)
		}
	}
}

// An index edited by hand, or not stackpick's, yields only paths inside
// the folder.
func TestListedTakesOnlyPathsInsideTheFolder(t *testing.T) {
	index := "| File |\n|---|\n| `a.yaml` |\n| `../up.yaml` |\n| `/etc/passwd` |\n| `` |\n| `" + IndexPath + "` |\n| `b\\c.yaml` |\n| `sub/d.yaml` | x |\n|`e.yaml`|\n"
	if got, want := Listed([]byte(index)), []string{"a.yaml", "sub/d.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Listed = %q, want %q", got, want)
	}
}
