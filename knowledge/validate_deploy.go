package knowledge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

var (
	// targetIDRE is a --target id: it starts with a letter.
	targetIDRE = lazyRE(`^[a-z][a-z0-9-]*$`)
	// versionRE is a release name as projects tag them: v0.20.0, 1.3.0,
	// 1.3.0rc28, v1.0.0-rc.1, a release branch (r26.07); or, for a
	// project without release tags, the branch and the commit it was
	// read at: main@1a2b3c4.
	versionRE = lazyRE(`^([a-z]{0,2}[0-9]+(\.[0-9]+)*([-.+]?[0-9A-Za-z]+([.-][0-9A-Za-z]+)*)?|[a-z][a-z0-9._-]*@[0-9a-f]{7,40})$`)
	// imageDomainRE is a registry host, with an optional port.
	imageDomainRE = lazyRE(`^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(:[0-9]+)?$`)
	// imagePathRE is one part of a repository path, as the OCI
	// distribution spec and Docker's reference grammar allow it.
	imagePathRE = lazyRE(`^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*$`)
	imageTagRE  = lazyRE(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
	digestRE    = lazyRE(`^sha256:[0-9a-f]{64}$`)
)

// imageRefExample is the form an image reference takes, for hints.
const imageRefExample = `ref = "registry/repository:tag", for example "nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc28" (a Docker Hub image may leave out the registry: "vllm/vllm-openai:v0.33.0")`

// ImageRef is an image reference taken apart.
type ImageRef struct {
	// Registry is the host ("nvcr.io", "ghcr.io"), or "" for Docker Hub.
	Registry   string
	Repository string
	Tag        string
	// Digest is "sha256:…" when the reference pins one, else "".
	Digest string
}

// ParseImageRef reads registry/repository:tag[@sha256:…]. A reference
// without a tag is refused: a manifest must run the release the knowledge
// base names, never whatever "latest" is on the day. problem says what is
// wrong, in words for the person who wrote it.
func ParseImageRef(ref string) (r ImageRef, problem string) {
	if ref == "" {
		return r, "is empty"
	}
	if strings.TrimSpace(ref) != ref || strings.ContainsAny(ref, " \t\r\n") {
		return r, "has spaces in it"
	}
	name, digest, hasDigest := strings.Cut(ref, "@")
	if hasDigest {
		if !digestRE.MatchString(digest) {
			return r, fmt.Sprintf("has a digest %q that is not sha256: and 64 lower-case hex digits", digest)
		}
		r.Digest = digest
	}
	parts := strings.Split(name, "/")
	if len(parts) > 1 && (strings.ContainsAny(parts[0], ".:") || parts[0] == "localhost") {
		r.Registry, parts = parts[0], parts[1:]
		if !imageDomainRE.MatchString(r.Registry) {
			return r, fmt.Sprintf("has a registry %q that is not a host name", r.Registry)
		}
	}
	last := parts[len(parts)-1]
	if i := strings.LastIndexByte(last, ':'); i >= 0 {
		r.Tag = last[i+1:]
		parts[len(parts)-1] = last[:i]
	}
	for _, p := range parts {
		if !imagePathRE.MatchString(p) {
			if strings.ToLower(p) != p {
				return r, fmt.Sprintf("has %q in its repository path: repository names are lower case", p)
			}
			return r, fmt.Sprintf("has %q in its repository path, which is not a repository name (lower-case letters and digits, joined by . _ or -)", p)
		}
	}
	r.Repository = strings.Join(parts, "/")
	switch {
	case r.Tag == "" && strings.Contains(last, ":"):
		return r, "has an empty tag"
	case r.Tag == "":
		return r, "has no tag"
	case !imageTagRE.MatchString(r.Tag):
		return r, fmt.Sprintf("has a tag %q that is not a tag (letters, digits, _ . -, at most 128, not starting with . or -)", r.Tag)
	case r.Tag == "latest":
		return r, `is tagged "latest", which names no release`
	}
	return r, ""
}

// images checks every product's [[product.image]] records.
func (c *checker) images() {
	engineIDs := []string{}
	for _, p := range c.kb.Products {
		if p.Layer == LayerEngine {
			engineIDs = append(engineIDs, p.ID)
		}
	}
	for _, p := range c.kb.Products {
		seen := map[string]int{}
		for i := range p.Images {
			c.image(p, i, seen, engineIDs)
		}
		for i := range p.RolePorts {
			c.rolePort(p, i)
		}
	}
}

// rolePort checks one [[product.role_port]] record.
func (c *checker) rolePort(p *Product, i int) {
	rp := &p.RolePorts[i]
	at := Pos{p.File, c.subLine(p.Pos, "role_port", i)}
	what := fmt.Sprintf("product %q role_port %d", p.ID, i+1)
	if rp.Role != "prefill" && rp.Role != "decode" {
		c.at(at, what+" role", []string{"role"}, fmt.Sprintf("role %q is not a role of a disaggregated fleet", rp.Role), "prefill, decode", `write role = "decode" (or "prefill")`)
	}
	if rp.Port < 1 || rp.Port > 65535 {
		c.at(at, what+" port", []string{"port"}, fmt.Sprintf("port %d is not a TCP port", rp.Port), "1-65535", "write the port that role's servers must listen on, such as port = 8200")
	}
	if strings.TrimSpace(rp.Why) == "" {
		c.at(at, what, []string{"why"}, "missing why", "", `add why = "…" (what takes the pod's port, and where it forwards): the launch command's --port carries it`)
	}
	for _, id := range rp.Unless {
		if c.kb.productByID[id] == nil {
			ids := make([]string, 0, len(c.kb.Products))
			for _, q := range c.kb.Products {
				ids = append(ids, q.ID)
			}
			c.at(at, what+" unless", []string{"unless"}, fmt.Sprintf("unless names %q, which is no product", id), strings.Join(ids, ", "), didYouMean(id, ids))
		}
	}
	c.checkSources(p.Pos, at.Line, what, rp.Sources)
}

func (c *checker) image(p *Product, i int, seen map[string]int, engineIDs []string) {
	img := &p.Images[i]
	at := Pos{p.File, c.subLine(p.Pos, "image", i)}
	what := fmt.Sprintf("product %q image %q", p.ID, img.ID)
	switch first, dup := seen[img.ID]; {
	case img.ID == "":
		c.at(at, fmt.Sprintf("product %q image %d", p.ID, i+1), nil, "missing id", "", `add id = "…" (the image's name within the product, such as "vllm-openai")`)
	case !idRE.MatchString(img.ID):
		c.at(at, what, []string{"id"}, "image ids are lower-case words joined by hyphens", "", `for example id = "vllm-openai"`)
	case dup:
		c.at(at, what, []string{"id"}, fmt.Sprintf("duplicate image id %q (first defined at %s:%d)", img.ID, p.File, first), "", "give each image of a product its own id, or delete one")
	}
	if _, dup := seen[img.ID]; !dup {
		seen[img.ID] = at.Line
	}

	tag := p.Release.Tag
	switch {
	case img.Ref == "" && img.NotFound == "":
		c.at(at, what, nil, "no ref and no reason", "", "add "+imageRefExample+`, or not_found = "…" saying what was looked for and why no source gives it`)
	case img.Ref != "":
		ref, problem := ParseImageRef(img.Ref)
		if problem != "" {
			c.at(at, what+" ref", []string{"ref"}, fmt.Sprintf("%q %s", img.Ref, problem), "", "write "+imageRefExample)
			break
		}
		if img.NotFound != "" {
			break // the record says why release or tag differ
		}
		switch {
		case img.Release != tag:
			problem := fmt.Sprintf("release %q is not the product's release %q", img.Release, tag)
			if img.Release == "" {
				problem = fmt.Sprintf("names no release (the product's release is %q)", tag)
			}
			if tag == "" {
				problem = fmt.Sprintf("release %q, but the product names no release ([product.release] has no tag)", img.Release)
			}
			hint := fmt.Sprintf(`set release = %q and the tag that release publishes, or add not_found = "…" saying why the image is of another release`, tag)
			c.at(at, what+" release", []string{"release"}, problem, "", hint)
		case tag != "" && !strings.Contains(ref.Tag, strings.TrimPrefix(tag, "v")):
			c.at(at, what+" ref", []string{"ref"}, fmt.Sprintf("the tag %q does not name the release %q", ref.Tag, tag), "", fmt.Sprintf(`write the tag the %s release publishes, or add not_found = "…" saying why the tag does not name it`, tag))
		}
	}
	if img.Runs != "" {
		switch r := c.kb.productByID[img.Runs]; {
		case r == nil || r.Layer != LayerEngine:
			problem := fmt.Sprintf("runs %q, which is not an engine product", img.Runs)
			c.at(at, what+" runs", []string{"runs"}, problem, strings.Join(engineIDs, ", "), didYouMean(img.Runs, engineIDs))
		case p.Layer == LayerEngine && img.Runs != p.ID:
			c.at(at, what+" runs", []string{"runs"}, fmt.Sprintf("an image of the engine %q runs %q", p.ID, img.Runs), p.ID, fmt.Sprintf("write runs = %q, or leave runs out", p.ID))
		}
	}
	c.imageServing(at, what, img)
	c.checkSources(p.Pos, at.Line, what, img.Sources)
}

// imageServing checks what a manifest reads to wire the container: the
// command, the port, the health check and the model cache.
func (c *checker) imageServing(at Pos, what string, img *Image) {
	for _, w := range []struct {
		key   string
		words []string
	}{{"entrypoint", img.Entrypoint}, {"probe", img.Probe}} {
		if slices.Contains(w.words, "") || slices.ContainsFunc(w.words, func(s string) bool { return strings.TrimSpace(s) == "" }) {
			c.at(at, what+" "+w.key, []string{w.key}, "has an empty word", "", fmt.Sprintf(`write %s as the list of words the image runs, such as ["vllm", "serve"]`, w.key))
		}
	}
	if img.Port < 0 || img.Port > 65535 {
		c.at(at, what+" port", []string{"port"}, fmt.Sprintf("port %d is not a TCP port", img.Port), "1-65535", "write the port the server listens on by default, such as port = 8000")
	}
	switch {
	case img.Health != "" && !strings.HasPrefix(img.Health, "/"):
		c.at(at, what+" health", []string{"health"}, fmt.Sprintf("health %q is not an HTTP path", img.Health), "", fmt.Sprintf("write the path alone, such as health = %q", "/"+strings.TrimLeft(img.Health, "/")))
	case img.Health != "" && img.Port <= 0:
		c.at(at, what+" health", []string{"health"}, "a health path needs the port it is served on", "", "add port = … (the port the server listens on by default)")
	}
	if len(img.Probe) > 0 && img.Health == "" {
		c.at(at, what+" probe", []string{"probe"}, "a probe checks the health path, and there is none", "", `add health = "/health" (the path the server answers on once ready), or drop probe`)
	}
	if img.ModelCache != "" && !strings.HasPrefix(img.ModelCache, "/") {
		c.at(at, what+" model_cache", []string{"model_cache"}, fmt.Sprintf("model_cache %q is not an absolute path", img.ModelCache), "", `write the folder inside the container, such as model_cache = "/root/.cache/huggingface"`)
	}
}

// targets checks the [[target]] records of targets.toml.
func (c *checker) targets() {
	for _, t := range c.kb.Targets {
		what := fmt.Sprintf("target %q", t.ID)
		if !targetIDRE.MatchString(t.ID) {
			c.at(t.Pos, what, []string{"id"}, "a target id is what --target names: lower-case letters, digits and hyphens, starting with a letter", "", `for example id = "kserve"`)
		}
		if t.Name == "" {
			c.at(t.Pos, what, nil, "needs a name", "", `add name = "…" (the project's name, such as "KServe")`)
		}
		if !repoRE.MatchString(t.Repo) {
			problem := fmt.Sprintf("repo %q is not a GitHub owner/name", t.Repo)
			if t.Repo == "" {
				problem = "needs the repository its schema comes from"
			}
			c.at(t.Pos, what+" repo", []string{"repo"}, problem, "", `write repo = "owner/name", such as repo = "kserve/kserve"`)
		}
		c.targetVersions(t, what)
		seen := map[string]int{}
		for i := range t.Features {
			c.targetFeature(t, i, what, seen)
		}
		c.checkSources(t.Pos, t.Line, what, t.Sources)
	}
}

func (c *checker) targetVersions(t *Target, what string) {
	if len(t.Versions) == 0 {
		c.at(t.Pos, what+" versions", []string{"versions"}, "lists no version", "", `write versions = ["v0.19.0", "v0.20.0"]: each release whose schema is vendored under ui/report/manifest/check/schemas/`+t.ID+`/, oldest first`)
		return
	}
	seen := map[string]bool{}
	for i, v := range t.Versions {
		switch {
		case !versionRE.MatchString(v):
			c.at(t.Pos, what+" versions", []string{"versions"}, fmt.Sprintf("%q is not a release name", v), "", `write the release tag as the project names it ("v0.20.0", "1.3.0", a release branch "r26.07"), or "main@<7 hex>" for a project without release tags`)
		case seen[v]:
			c.at(t.Pos, what+" versions", []string{"versions"}, fmt.Sprintf("%q is listed twice", v), "", "list each vendored release once")
		case i > 0 && releaseLess(v, t.Versions[i-1]):
			c.at(t.Pos, what+" versions", []string{"versions"}, fmt.Sprintf("%q comes after %q but is older", v, t.Versions[i-1]), "", "list the versions oldest first: the last is the one a manifest is written for by default")
		}
		seen[v] = true
	}
}

func (c *checker) targetFeature(t *Target, i int, what string, seen map[string]int) {
	f := &t.Features[i]
	at := Pos{t.File, c.subLine(t.Pos, "feature", i)}
	fwhat := fmt.Sprintf("%s feature %q", what, f.ID)
	switch first, dup := seen[f.ID]; {
	case f.ID == "":
		c.at(at, fmt.Sprintf("%s feature %d", what, i+1), nil, "missing id", "", `add id = "…" (the name a generator asks for, such as "llmisvc-kv-cache-offloading")`)
	case !idRE.MatchString(f.ID):
		c.at(at, fwhat, []string{"id"}, "feature ids are lower-case words joined by hyphens", "", `for example id = "llmisvc-kv-cache-offloading"`)
	case dup:
		c.at(at, fwhat, []string{"id"}, fmt.Sprintf("duplicate feature id %q (first defined at %s:%d)", f.ID, t.File, first), "", "give each feature of a target its own id, or delete one")
	default:
		seen[f.ID] = at.Line
	}
	if f.What == "" {
		c.at(at, fwhat, nil, "needs what", "", `add what = "…" naming it as a reader looks for it, such as "LLMInferenceService spec.kvCacheOffloading"`)
	}
	if len(t.Versions) > 0 && !slices.Contains(t.Versions, f.Since) { // no versions is reported once, above
		problem := fmt.Sprintf("since %q is not one of the target's versions", f.Since)
		if f.Since == "" {
			problem = "needs since (the first version that has it)"
		}
		hint := didYouMean(f.Since, t.Versions)
		if hint == "" {
			hint = "write since = one of versions: the oldest vendored release that has it"
		}
		c.at(at, fwhat+" since", []string{"since"}, problem, strings.Join(t.Versions, ", "), hint)
	}
	c.checkSources(t.Pos, at.Line, fwhat, f.Sources)
}

// releaseLess orders two release names by their numbers (v0.9.0 before
// v0.10.0); names it cannot compare are not ordered.
func releaseLess(a, b string) bool {
	na, nb := releaseNumbers(a), releaseNumbers(b)
	if na == nil || nb == nil {
		return false
	}
	return slices.Compare(na, nb) < 0
}

// releaseNumbers is the leading dotted numbers of a release name
// ("v1.3.0rc28" is 1, 3, 0; "r26.07" is 26, 7), or nil.
func releaseNumbers(s string) []int {
	s = strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyz")
	var out []int
	for part := range strings.SplitSeq(s, ".") {
		end := 0
		for end < len(part) && part[end] >= '0' && part[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, err := strconv.Atoi(part[:end])
		if err != nil {
			return nil
		}
		out = append(out, n)
		if end < len(part) {
			break
		}
	}
	return out
}
