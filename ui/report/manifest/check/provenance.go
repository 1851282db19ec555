package check

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// Provenance is a vendored folder's provenance.toml: where each file in
// schemas/<target>/<version>/ came from. Every file in the folder besides
// provenance.toml and the licence has an entry; the provenance test holds
// the folder to it.
type Provenance struct {
	Target  string           `toml:"target"`
	Release string           `toml:"release"`
	Licence string           `toml:"licence"`
	Files   []ProvenanceFile `toml:"file"`
	// Dir is the folder it was read from ("kserve/v0.20.0"); not in the file.
	Dir string `toml:"-"`
}

// ProvenanceFile is one vendored file.
type ProvenanceFile struct {
	// Name is the file in the folder; a ".gz" name is gzip of the content.
	Name         string `toml:"name"`
	UpstreamRepo string `toml:"upstream_repo"`
	UpstreamPath string `toml:"upstream_path"`
	// Commit is the 40-hex commit the upstream file was read at.
	Commit string `toml:"commit"`
	// SHA256 is of the content (decompressed): the upstream file's bytes
	// when Derived is "", else of the derived file itself.
	SHA256 string `toml:"sha256"`
	// Derived is "" for a file vendored as is; else how it was derived,
	// by hand, from what.
	Derived string `toml:"derived"`
}

// licenceFiles are the names a folder's licence notice may have.
var licenceFiles = map[string]bool{"LICENSE": true, "NOTICE": true, "LICENSE.txt": true}

// readProvenance reads dir/provenance.toml from fsys, strictly: an
// unknown key is an error.
func readProvenance(fsys fs.FS, dir string) (*Provenance, error) {
	b, err := fs.ReadFile(fsys, path.Join(dir, "provenance.toml"))
	if err != nil {
		return nil, err
	}
	var p Provenance
	md, err := toml.Decode(string(b), &p)
	if err != nil {
		return nil, fmt.Errorf("%s/provenance.toml: %w", dir, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s/provenance.toml: unknown keys %v", dir, und)
	}
	p.Dir = dir
	return &p, nil
}

// File returns the entry named name, or nil.
func (p *Provenance) File(name string) *ProvenanceFile {
	for i := range p.Files {
		if p.Files[i].Name == name {
			return &p.Files[i]
		}
	}
	return nil
}

// content reads a vendored file, decompressing a ".gz" one.
func content(fsys fs.FS, name string) ([]byte, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(name, ".gz") {
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

var hex40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

// verifyFolder holds one vendored folder to its provenance: the entry for
// every file exists and its sha256 is of the file's (decompressed)
// content; every file in the folder has an entry or is the licence; the
// folder's names match the target and release it declares; a .gz file is
// deterministic (gzip -n: no name, no time). It returns what is wrong.
func verifyFolder(fsys fs.FS, dir string) []string {
	var bad []string
	p, err := readProvenance(fsys, dir)
	if err != nil {
		return []string{err.Error()}
	}
	if want := path.Base(path.Dir(dir)); p.Target != want {
		bad = append(bad, fmt.Sprintf("%s: target %q, but the folder is %q", dir, p.Target, want))
	}
	if want := path.Base(dir); p.Release != want {
		bad = append(bad, fmt.Sprintf("%s: release %q, but the folder is %q", dir, p.Release, want))
	}
	if p.Licence == "" {
		bad = append(bad, dir+": no licence")
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return append(bad, err.Error())
	}
	hasLicence := false
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.IsDir():
			bad = append(bad, fmt.Sprintf("%s/%s: a folder inside a vendored folder", dir, name))
		case name == "provenance.toml":
		case licenceFiles[name]:
			hasLicence = true
		case p.File(name) == nil:
			bad = append(bad, fmt.Sprintf("%s/%s: not in provenance.toml", dir, name))
		}
	}
	if !hasLicence {
		bad = append(bad, dir+": no LICENSE or NOTICE beside the files")
	}
	seen := map[string]bool{}
	for _, f := range p.Files {
		where := dir + "/" + f.Name
		if seen[f.Name] {
			bad = append(bad, where+": listed twice")
		}
		seen[f.Name] = true
		if f.UpstreamRepo == "" || f.UpstreamPath == "" {
			bad = append(bad, where+": no upstream_repo or upstream_path")
		}
		if !hex40.MatchString(f.Commit) {
			bad = append(bad, fmt.Sprintf("%s: commit %q is not 40 hex", where, f.Commit))
		}
		b, err := content(fsys, path.Join(dir, f.Name))
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if sum := fmt.Sprintf("%x", sha256.Sum256(b)); sum != f.SHA256 {
			bad = append(bad, fmt.Sprintf("%s: sha256 %s, provenance says %s (a changed file needs its entry changed, with why)", where, sum, f.SHA256))
		}
		if strings.HasSuffix(f.Name, ".gz") {
			raw, _ := fs.ReadFile(fsys, path.Join(dir, f.Name))
			if zr, err := gzip.NewReader(bytes.NewReader(raw)); err == nil && (zr.Name != "" || !zr.ModTime.IsZero()) {
				bad = append(bad, where+": gzip header has a name or time; vendor with gzip -n -9")
			}
		}
	}
	return bad
}

// vendoredFolders lists the schemas/<target>/<version> folders of fsys.
func vendoredFolders(fsys fs.FS) ([]string, error) {
	targets, err := fs.ReadDir(fsys, "schemas")
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, t := range targets {
		if !t.IsDir() {
			continue
		}
		vs, err := fs.ReadDir(fsys, path.Join("schemas", t.Name()))
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if v.IsDir() {
				dirs = append(dirs, path.Join("schemas", t.Name(), v.Name()))
			}
		}
	}
	return dirs, nil
}
