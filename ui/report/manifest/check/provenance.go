package check

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
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
