package check

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

var update = flag.Bool("update", false, "rewrite the README's generated provenance table (review the diff)")

// Every folder under schemas/, on disk (so the non-Kubernetes folders too),
// is held to its provenance.toml.
func TestEveryVendoredFileMatchesItsProvenance(t *testing.T) {
	dirs, err := vendoredFolders(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d vendored folders; the walk misses some", len(dirs))
	}
	for _, d := range dirs {
		for _, b := range verifyFolder(os.DirFS("."), d) {
			t.Error(b)
		}
	}
	// Files loose in schemas/<target>/ belong to no version.
	targets, _ := fs.ReadDir(os.DirFS("."), "schemas")
	for _, tg := range targets {
		ents, _ := fs.ReadDir(os.DirFS("."), path.Join("schemas", tg.Name()))
		for _, e := range ents {
			if !e.IsDir() {
				t.Errorf("schemas/%s/%s: a file outside any version folder", tg.Name(), e.Name())
			}
		}
	}
}

// The check itself fails on a changed file, an unlisted one, a missing
// licence and a non-deterministic gzip.
func TestProvenanceCatchesAChangedOrUnlistedFile(t *testing.T) {
	base := func() fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, name := range []string{"provenance.toml", "LICENSE", "inference.networking.k8s.io_inferencepools.yaml.gz"} {
			b, err := os.ReadFile("schemas/gaie/v1.6.0/" + name)
			if err != nil {
				t.Fatal(err)
			}
			fsys["schemas/gaie/v1.6.0/"+name] = &fstest.MapFile{Data: b}
		}
		return fsys
	}
	if bad := verifyFolder(base(), "schemas/gaie/v1.6.0"); len(bad) != 0 {
		t.Fatalf("the copy of a good folder fails: %v", bad)
	}
	pool := "schemas/gaie/v1.6.0/inference.networking.k8s.io_inferencepools.yaml.gz"
	cases := map[string]struct {
		change func(fstest.MapFS)
		want   string
	}{
		"changed file": {func(f fstest.MapFS) {
			f[pool] = &fstest.MapFile{Data: gz(t, append(unzip(t, f[pool].Data), '\n'), true)}
		}, "provenance says"},
		"unlisted file":   {func(f fstest.MapFS) { f["schemas/gaie/v1.6.0/extra.yaml"] = &fstest.MapFile{Data: []byte("x")} }, "extra.yaml: not in provenance.toml"},
		"missing licence": {func(f fstest.MapFS) { delete(f, "schemas/gaie/v1.6.0/LICENSE") }, "no LICENSE"},
		"missing file":    {func(f fstest.MapFS) { delete(f, pool) }, "inferencepools.yaml.gz"},
		"gzip with a name and time": {func(f fstest.MapFS) {
			f[pool] = &fstest.MapFile{Data: gz(t, unzip(t, f[pool].Data), false)}
		}, "gzip -n -9"},
		"wrong release": {func(f fstest.MapFS) {
			p := f["schemas/gaie/v1.6.0/provenance.toml"]
			p.Data = []byte(strings.Replace(string(p.Data), `release = "v1.6.0"`, `release = "v1.5.0"`, 1))
		}, `release "v1.5.0"`},
		"unknown key": {func(f fstest.MapFS) {
			p := f["schemas/gaie/v1.6.0/provenance.toml"]
			p.Data = append([]byte("licence_url = \"x\"\n"), p.Data...)
		}, "unknown keys"},
	}
	for name, c := range cases {
		fsys := base()
		c.change(fsys)
		bad := verifyFolder(fsys, "schemas/gaie/v1.6.0")
		if !slices.ContainsFunc(bad, func(s string) bool { return strings.Contains(s, c.want) }) {
			t.Errorf("%s: want a complaint containing %q, got %v", name, c.want, bad)
		}
	}
}

// provenanceTable is the README's table of every vendored file.
func provenanceTable(t *testing.T) string {
	dirs, err := vendoredFolders(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(dirs, func(a, b string) int {
		ta, tb := path.Base(path.Dir(a)), path.Base(path.Dir(b))
		if ta != tb {
			return strings.Compare(ta, tb)
		}
		return compareVersions(path.Base(a), path.Base(b))
	})
	var sb strings.Builder
	sb.WriteString("| target | release | file (upstream path) | upstream | commit | sha256 | licence | derived |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, d := range dirs {
		p, err := readProvenance(os.DirFS("."), d)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range p.Files {
			derived := "no"
			if f.Derived != "" {
				derived = "yes (see provenance.toml)"
			}
			fmt.Fprintf(&sb, "| %s | %s | `%s` | %s | `%s` | `%s…` | %s | %s |\n",
				p.Target, p.Release, f.UpstreamPath, f.UpstreamRepo, f.Commit[:min(12, len(f.Commit))], f.SHA256[:min(16, len(f.SHA256))], p.Licence, derived)
		}
	}
	return sb.String()
}

// The README's provenance table is generated from the provenance files;
// regenerate it with: go test ./ui/report/manifest/check -run README -update
func TestREADMEProvenanceTableMatchesTheVendoredFiles(t *testing.T) {
	const begin, end = "<!-- provenance:begin -->\n", "<!-- provenance:end -->"
	readmePath := "../../../../README.md"
	raw, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatal("README lacks the provenance markers")
	}
	table := provenanceTable(t)
	if readme[i+len(begin):j] == table {
		return
	}
	if *update {
		if err := os.WriteFile(readmePath, []byte(readme[:i+len(begin)]+table+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("README's provenance table is out of date: run go test ./ui/report/manifest/check -run README -update, then review the diff")
}

func unzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// gz compresses b, as gzip -n does when deterministic, else with a name
// and a time in the header.
func gz(t *testing.T, b []byte, deterministic bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if !deterministic {
		zw.Name = "x.yaml"
		zw.ModTime = time.Unix(1700000000, 0)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
