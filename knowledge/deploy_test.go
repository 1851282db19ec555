package knowledge

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const okCommit = "0123456789abcdef0123456789abcdef01234567"

// okTarget is a valid [[target]] with one feature; its lines are counted
// in the cases below (line 1 is [[target]], 13 is [[target.feature]]).
const okTarget = "[[target]]\nid = \"t\"\nname = \"T\"\nrepo = \"o/t\"\nversions = [\"v1.0.0\", \"v1.1.0\"]\n" +
	"[[target.source]]\nkind = \"repo\"\nrepo = \"o/t\"\ncommit = \"" + okCommit + "\"\npath = \"crd.yaml\"\nquote = \"kind: T\"\nchecked_on = \"2026-12-01\"\n" +
	"[[target.feature]]\nid = \"f\"\nwhat = \"T spec.f\"\nsince = \"v1.1.0\"\n" +
	"[[target.feature.source]]\nkind = \"repo\"\nrepo = \"o/t\"\ncommit = \"" + okCommit + "\"\npath = \"crd.yaml\"\nquote = \"f:\"\nchecked_on = \"2026-12-01\"\n"

// okImage is a valid [[product.image]] for okProd (release v1.0.0); it
// runs vllm. Its header is the first line of the block.
const okImage = "[[product.image]]\nid = \"p-vllm\"\nref = \"ghcr.io/o/p-vllm:v1.0.0\"\nrelease = \"v1.0.0\"\nruns = \"vllm\"\n" +
	"entrypoint = [\"vllm\", \"serve\"]\nport = 8000\nhealth = \"/health\"\nprobe = [\"curl\", \"-f\", \"http://localhost:8000/health\"]\nmodel_cache = \"/root/.cache/huggingface\"\n" +
	"[[product.image.source]]\nkind = \"repo\"\nrepo = \"o/p\"\ncommit = \"" + okCommit + "\"\npath = \"Dockerfile\"\nquote = \"ENTRYPOINT\"\nchecked_on = \"2026-12-01\"\n"

func buildKB(src string) string {
	_, err := Build(Embedded(), []SourceFile{{Name: "kb/x.toml", Data: []byte(src)}})
	if err != nil {
		return err.Error()
	}
	return "<nil>"
}

func TestAValidTargetAndImageLoad(t *testing.T) {
	if got := buildKB(okTarget); got != "<nil>" {
		t.Fatalf("a valid target does not load:\n%s", got)
	}
	kb, err := Build(Embedded(), []SourceFile{{Name: "kb/x.toml", Data: []byte(okTarget + okProd + okProvenance + okImage + placeP)}})
	if err != nil {
		t.Fatalf("a valid image does not load:\n%v", err)
	}
	tg := kb.Target("t")
	if tg == nil || tg.Default() != "v1.1.0" || tg.Feature("f") == nil || tg.Feature("f").Since != "v1.1.0" || tg.Feature("g") != nil {
		t.Fatalf("target t = %+v", tg)
	}
	if tg.Pos.File != "kb/x.toml" || tg.Pos.Line != 1 {
		t.Errorf("target t at %s:%d, want kb/x.toml:1", tg.Pos.File, tg.Pos.Line)
	}
	img := kb.Product("p").Image("p-vllm")
	if img == nil || img.Ref != "ghcr.io/o/p-vllm:v1.0.0" || img.Port != 8000 || !slices.Equal(img.Entrypoint, []string{"vllm", "serve"}) || len(img.Sources) != 1 {
		t.Fatalf("image p-vllm = %+v", img)
	}
	if kb.Product("p").Image("none") != nil {
		t.Error("Image of an unknown id is not nil")
	}
	// What no source gives is left out, saying why; a digest may pin a tag.
	for _, alt := range []string{
		strings.Replace(okImage, "ref = \"ghcr.io/o/p-vllm:v1.0.0\"\n", "not_found = \"no tag is published\"\n", 1),
		strings.Replace(okImage, "release = \"v1.0.0\"\n", "release = \"v0.9.0\"\nnot_found = \"the v1.0.0 image was withdrawn\"\n", 1),
		strings.Replace(okImage, ":v1.0.0\"", ":v1.0.0@sha256:"+strings.Repeat("ab", 32)+"\"", 1),
		strings.Replace(okImage, "port = 8000\nhealth = \"/health\"\nprobe = [\"curl\", \"-f\", \"http://localhost:8000/health\"]\n", "", 1),
	} {
		if got := buildKB(okProd + okProvenance + alt + placeP); got != "<nil>" {
			t.Errorf("%s\ndoes not load:\n%s", alt, got)
		}
	}
}

// Every problem of a [[target]] is reported at its file:line with what to
// type instead.
func TestEveryTargetProblemIsExplained(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"id not a --target id", strings.Replace(okTarget, "id = \"t\"", "id = \"KServe\"", 1),
			`kb/x.toml:2: target "KServe": a target id is what --target names: lower-case letters, digits and hyphens, starting with a letter; for example id = "kserve"`},
		{"duplicate id", okTarget + okTarget,
			`kb/x.toml:24: target: duplicate id "t" (first defined at kb/x.toml:1); give each target its own id, or delete one`},
		{"no id", strings.Replace(okTarget, "id = \"t\"\n", "", 1),
			`kb/x.toml:1: target: missing id; add id = "…"`},
		{"no name", strings.Replace(okTarget, "name = \"T\"\n", "", 1),
			`kb/x.toml:1: target "t": needs a name; add name = "…" (the project's name, such as "KServe")`},
		{"repo not owner/name", strings.Replace(okTarget, "repo = \"o/t\"\nversions", "repo = \"kserve\"\nversions", 1),
			`kb/x.toml:4: target "t" repo: repo "kserve" is not a GitHub owner/name; write repo = "owner/name", such as repo = "kserve/kserve"`},
		{"no versions", strings.Replace(okTarget, "versions = [\"v1.0.0\", \"v1.1.0\"]", "versions = []", 1),
			`kb/x.toml:5: target "t" versions: lists no version; write versions = ["v0.19.0", "v0.20.0"]: each release whose schema is vendored under ui/report/manifest/check/schemas/t/, oldest first`},
		{"a version that is no release", strings.Replace(okTarget, "\"v1.0.0\", ", "\"latest version\", ", 1),
			`kb/x.toml:5: target "t" versions: "latest version" is not a release name; write the release tag as the project names it ("v0.20.0", "1.3.0", a release branch "r26.07"), or "main@<7 hex>" for a project without release tags`},
		{"a version twice", strings.Replace(okTarget, "[\"v1.0.0\", \"v1.1.0\"]", "[\"v1.0.0\", \"v1.0.0\", \"v1.1.0\"]", 1),
			`kb/x.toml:5: target "t" versions: "v1.0.0" is listed twice; list each vendored release once`},
		{"versions newest first", strings.Replace(okTarget, "[\"v1.0.0\", \"v1.1.0\"]", "[\"v1.10.0\", \"v1.9.0\", \"v1.1.0\"]", 1),
			"kb/x.toml:5: target \"t\" versions: \"v1.9.0\" comes after \"v1.10.0\" but is older; list the versions oldest first: the last is the one a manifest is written for by default\n" +
				"kb/x.toml:5: target \"t\" versions: \"v1.1.0\" comes after \"v1.9.0\" but is older; list the versions oldest first: the last is the one a manifest is written for by default"},
		{"since not in versions", strings.Replace(okTarget, "since = \"v1.1.0\"", "since = \"v1.1\"", 1),
			`kb/x.toml:16: target "t" feature "f" since: since "v1.1" is not one of the target's versions (allowed: v1.0.0, v1.1.0); did you mean "v1.1.0"?`},
		{"since far from any version", strings.Replace(okTarget, "since = \"v1.1.0\"", "since = \"2.0\"", 1),
			`kb/x.toml:16: target "t" feature "f" since: since "2.0" is not one of the target's versions (allowed: v1.0.0, v1.1.0); write since = one of versions: the oldest vendored release that has it`},
		{"no since", strings.Replace(okTarget, "since = \"v1.1.0\"\n", "", 1),
			`kb/x.toml:13: target "t" feature "f" since: needs since (the first version that has it) (allowed: v1.0.0, v1.1.0); write since = one of versions: the oldest vendored release that has it`},
		{"feature without what", strings.Replace(okTarget, "what = \"T spec.f\"\n", "", 1),
			`kb/x.toml:13: target "t" feature "f": needs what; add what = "…" naming it as a reader looks for it, such as "LLMInferenceService spec.kvCacheOffloading"`},
		{"duplicate feature", okTarget + "[[target.feature]]\nid = \"f\"\nwhat = \"T spec.g\"\nsince = \"v1.0.0\"\n[[target.feature.source]]\nkind = \"repo\"\nrepo = \"o/t\"\ncommit = \"" + okCommit + "\"\npath = \"crd.yaml\"\nquote = \"g:\"\nchecked_on = \"2026-12-01\"\n",
			`kb/x.toml:25: target "t" feature "f": duplicate feature id "f" (first defined at kb/x.toml:13); give each feature of a target its own id, or delete one`},
		{"feature id not hyphenated words", strings.Replace(okTarget, "id = \"f\"", "id = \"spec.f\"", 1),
			`kb/x.toml:14: target "t" feature "spec.f": feature ids are lower-case words joined by hyphens; for example id = "llmisvc-kv-cache-offloading"`},
		{"target without a source", okTarget[:strings.Index(okTarget, "[[target.source]]")] + okTarget[strings.Index(okTarget, "[[target.feature]]"):],
			`kb/x.toml:1: target "t": needs a source; add [[target.source]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"`},
		{"feature without a source", okTarget[:strings.Index(okTarget, "[[target.feature.source]]")],
			`kb/x.toml:13: target "t" feature "f": needs a source; add [[target.feature.source]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"`},
		{"a source that is not checkable", strings.Replace(okTarget, "quote = \"f:\"\n", "", 1),
			`kb/x.toml:17: target "t" feature "f" source 1 quote: a source needs the exact words read there; quote = "…" (an exact substring of the source), or checked = "not available: why"`},
		{"unknown key in a target", strings.Replace(okTarget, "versions =", "verions =", 1),
			`kb/x.toml:5: target.verions: unknown key (allowed: id, name, repo, versions, feature, source); did you mean "versions"?`},
		{"unknown key in a feature", strings.Replace(okTarget, "since =", "first =", 1),
			`kb/x.toml:16: target.feature.first: unknown key (allowed: id, what, since, source)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := buildKB(c.src); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Every problem of a [[product.image]] is reported at its file:line with
// what to type instead.
func TestEveryImageProblemIsExplained(t *testing.T) {
	base := okProd + okProvenance
	at := strings.Count(base, "\n") + 1 // the [[product.image]] header
	line := func(key string) int {
		for i, l := range strings.Split(okImage, "\n") {
			if strings.HasPrefix(l, key+" =") {
				return at + i
			}
		}
		return at
	}
	const refHint = `write ref = "registry/repository:tag", for example "nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc28" (a Docker Hub image may leave out the registry: "vllm/vllm-openai:v0.33.0")`
	what := `product "p" image "p-vllm"`
	cases := []struct{ name, old, new, want string }{
		{"ref without a tag", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/o/p-vllm"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/o/p-vllm" has no tag; %s`, line("ref"), what, refHint)},
		{"ref with an empty tag", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/o/p-vllm:"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/o/p-vllm:" has an empty tag; %s`, line("ref"), what, refHint)},
		{"ref in upper case", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/O/p-vllm:v1.0.0"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/O/p-vllm:v1.0.0" has "O" in its repository path: repository names are lower case; %s`, line("ref"), what, refHint)},
		{"ref tagged latest", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/o/p-vllm:latest"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/o/p-vllm:latest" is tagged "latest", which names no release; %s`, line("ref"), what, refHint)},
		{"ref with a bad digest", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/o/p-vllm:v1.0.0@sha256:abc"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/o/p-vllm:v1.0.0@sha256:abc" has a digest "sha256:abc" that is not sha256: and 64 lower-case hex digits; %s`, line("ref"), what, refHint)},
		{"ref with spaces", `"ghcr.io/o/p-vllm:v1.0.0"`, `"ghcr.io/o/p-vllm v1.0.0"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: "ghcr.io/o/p-vllm v1.0.0" has spaces in it; %s`, line("ref"), what, refHint)},
		{"no ref and no reason", "ref = \"ghcr.io/o/p-vllm:v1.0.0\"\n", "",
			fmt.Sprintf(`kb/x.toml:%d: %s: no ref and no reason; add ref = "registry/repository:tag", for example "nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc28" (a Docker Hub image may leave out the registry: "vllm/vllm-openai:v0.33.0"), or not_found = "…" saying what was looked for and why no source gives it`, at, what)},
		{"another release", "release = \"v1.0.0\"", "release = \"v0.9.0\"",
			fmt.Sprintf(`kb/x.toml:%d: %s release: release "v0.9.0" is not the product's release "v1.0.0"; set release = "v1.0.0" and the tag that release publishes, or add not_found = "…" saying why the image is of another release`, line("release"), what)},
		{"no release", "release = \"v1.0.0\"\n", "",
			fmt.Sprintf(`kb/x.toml:%d: %s release: names no release (the product's release is "v1.0.0"); set release = "v1.0.0" and the tag that release publishes, or add not_found = "…" saying why the image is of another release`, at, what)},
		{"a tag of another release", `:v1.0.0"`, `:v1.1.0"`,
			fmt.Sprintf(`kb/x.toml:%d: %s ref: the tag "v1.1.0" does not name the release "v1.0.0"; write the tag the v1.0.0 release publishes, or add not_found = "…" saying why the tag does not name it`, line("ref"), what)},
		{"runs no engine", "runs = \"vllm\"", "runs = \"kserve\"",
			fmt.Sprintf(`kb/x.toml:%d: %s runs: runs "kserve", which is not an engine product (allowed: vllm, sglang, tensorrt-llm, llama-cpp)`, line("runs"), what)},
		{"runs a misspelt engine", "runs = \"vllm\"", "runs = \"vlm\"",
			fmt.Sprintf(`kb/x.toml:%d: %s runs: runs "vlm", which is not an engine product (allowed: vllm, sglang, tensorrt-llm, llama-cpp); did you mean "vllm"?`, line("runs"), what)},
		{"no id", "id = \"p-vllm\"\n", "",
			fmt.Sprintf(`kb/x.toml:%d: product "p" image 1: missing id; add id = "…" (the image's name within the product, such as "vllm-openai")`, at)},
		{"id not hyphenated words", "id = \"p-vllm\"", "id = \"P_vllm\"",
			fmt.Sprintf(`kb/x.toml:%d: product "p" image "P_vllm": image ids are lower-case words joined by hyphens; for example id = "vllm-openai"`, line("id"))},
		{"port out of range", "port = 8000", "port = 80000",
			fmt.Sprintf(`kb/x.toml:%d: %s port: port 80000 is not a TCP port (allowed: 1-65535); write the port the server listens on by default, such as port = 8000`, line("port"), what)},
		{"health not a path", "health = \"/health\"", "health = \"health\"",
			fmt.Sprintf(`kb/x.toml:%d: %s health: health "health" is not an HTTP path; write the path alone, such as health = "/health"`, line("health"), what)},
		{"health without a port", "port = 8000\n", "",
			fmt.Sprintf(`kb/x.toml:%d: %s health: a health path needs the port it is served on; add port = … (the port the server listens on by default)`, line("health")-1, what)},
		{"probe without health", "health = \"/health\"\n", "",
			fmt.Sprintf(`kb/x.toml:%d: %s probe: a probe checks the health path, and there is none; add health = "/health" (the path the server answers on once ready), or drop probe`, line("probe")-1, what)},
		{"an empty word in the entrypoint", `entrypoint = ["vllm", "serve"]`, `entrypoint = ["vllm", " "]`,
			fmt.Sprintf(`kb/x.toml:%d: %s entrypoint: has an empty word; write entrypoint as the list of words the image runs, such as ["vllm", "serve"]`, line("entrypoint"), what)},
		{"a relative model cache", `model_cache = "/root/.cache/huggingface"`, `model_cache = "~/.cache/huggingface"`,
			fmt.Sprintf(`kb/x.toml:%d: %s model_cache: model_cache "~/.cache/huggingface" is not an absolute path; write the folder inside the container, such as model_cache = "/root/.cache/huggingface"`, line("model_cache"), what)},
		{"no source", okImage[strings.Index(okImage, "[[product.image.source]]"):], "",
			fmt.Sprintf(`kb/x.toml:%d: %s: needs a source; add [[product.image.source]] with kind = "repo" (and repo, commit, path), "docs" (a versioned url), "pr" or "issue" (repo, number; a PR's first_release), "release" (repo, ref) or "notes" (section), then quote = "the exact words" and checked_on = "YYYY-MM-DD"`, at, what)},
		{"a source without its commit", "commit = \"" + okCommit + "\"\npath = \"Dockerfile\"", "path = \"Dockerfile\"",
			fmt.Sprintf(`kb/x.toml:%d: %s source 1 commit: "" is not a 40-hex commit; the full commit id the file was read at, in lower case (git rev-parse HEAD)`, line("model_cache")+1, what)},
		{"unknown key", "entrypoint =", "entry_point =",
			fmt.Sprintf(`kb/x.toml:%d: product.image.entry_point: unknown key (allowed: id, ref, release, runs, entrypoint, port, health, probe, model_cache, not_found, source); did you mean "entrypoint"?`, line("entrypoint"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img := strings.Replace(okImage, c.old, c.new, 1)
			if img == okImage {
				t.Fatalf("the case changes nothing: %q not in the image", c.old)
			}
			if got := buildKB(base + img + placeP); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	dup := okImage + strings.Replace(okImage, "[[product.image.source]]", "[[product.image.source]]", 1)
	want := fmt.Sprintf(`kb/x.toml:%d: %s: duplicate image id "p-vllm" (first defined at kb/x.toml:%d); give each image of a product its own id, or delete one`, at+strings.Count(okImage, "\n")+1, what, at)
	if got := buildKB(base + dup + placeP); got != want {
		t.Errorf("duplicate image: got\n%s\nwant\n%s", got, want)
	}
	// An engine's image runs that engine.
	eng := strings.Replace(okProd, "layer = \"orchestrator\"", "layer = \"engine\"", 1) + okProvenance + okImage +
		"[[tiebreak]]\nid = \"engine-order\"\ncriterion = \"order\"\nlayer = \"engine\"\norder = [\"vllm\", \"sglang\", \"tensorrt-llm\", \"llama-cpp\", \"p\"]\nargument = \"a\"\nsource = [{ kind = \"notes\", section = \"s\", quote = \"q\", checked_on = \"2026-12-01\" }]\n"
	if got := buildKB(eng); !strings.Contains(got, fmt.Sprintf(`kb/x.toml:%d: %s runs: an image of the engine "p" runs "vllm" (allowed: p); write runs = "p", or leave runs out`, line("runs"), what)) {
		t.Errorf("an engine's image running another engine: got\n%s", got)
	}
}

func TestParseImageRef(t *testing.T) {
	digest := "sha256:" + strings.Repeat("0f", 32)
	good := []struct {
		ref  string
		want ImageRef
	}{
		{"vllm/vllm-openai:v0.33.0", ImageRef{Repository: "vllm/vllm-openai", Tag: "v0.33.0"}},
		{"docker.io/vllm/vllm-openai:v0.33.0", ImageRef{Registry: "docker.io", Repository: "vllm/vllm-openai", Tag: "v0.33.0"}},
		{"nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc28", ImageRef{Registry: "nvcr.io", Repository: "nvidia/tensorrt-llm/release", Tag: "1.3.0rc28"}},
		{"localhost:5000/x:1", ImageRef{Registry: "localhost:5000", Repository: "x", Tag: "1"}},
		{"ghcr.io/ggml-org/llama.cpp:server-cuda-b8770", ImageRef{Registry: "ghcr.io", Repository: "ggml-org/llama.cpp", Tag: "server-cuda-b8770"}},
		{"lmsysorg/sglang:v0.5.23@" + digest, ImageRef{Repository: "lmsysorg/sglang", Tag: "v0.5.23", Digest: digest}},
	}
	for _, c := range good {
		got, problem := ParseImageRef(c.ref)
		if problem != "" || got != c.want {
			t.Errorf("ParseImageRef(%q) = %+v, %q; want %+v", c.ref, got, problem, c.want)
		}
	}
	for _, ref := range []string{"", "vllm", "vllm/vllm-openai", "vllm/vllm-openai:", "vllm/vllm-openai:latest", "Vllm/x:1", "a//b:1", "-a/b:1", "a/b:.x", "a/b:1@sha256:zz", "a/b@" + digest, " a/b:1", "a/b:1\n", "a/b:" + strings.Repeat("x", 129), "bad_host.io:x/y:1", "/a:1", ":1"} {
		if _, problem := ParseImageRef(ref); problem == "" {
			t.Errorf("ParseImageRef(%q) found no problem", ref)
		}
	}
}

func FuzzParseImageRef(f *testing.F) {
	for _, s := range []string{"vllm/vllm-openai:v0.33.0", "a:1@sha256:", "localhost:/:", "::::", "a/b:c@d@e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, problem := ParseImageRef(s)
		if problem == "" && (r.Tag == "" || r.Repository == "") {
			t.Fatalf("ParseImageRef(%q) = %+v with no problem", s, r)
		}
	})
}

// An overlay adds a target, replaces one by id, and an overlay product
// brings its own images.
func TestAnOverlayAddsAndReplacesTargets(t *testing.T) {
	replaced := strings.Replace(okTarget, "id = \"t\"", "id = \"kserve\"", 1)
	kb, err := Build(Embedded(), []SourceFile{{Name: "kb/x.toml", Data: []byte(okTarget + replaced)}})
	if err != nil {
		t.Fatal(err)
	}
	base := MustDefault()
	if len(kb.Targets) != len(base.Targets)+1 || kb.Targets[len(kb.Targets)-1].ID != "t" {
		t.Errorf("the new target is not appended: %d targets, last %q", len(kb.Targets), kb.Targets[len(kb.Targets)-1].ID)
	}
	k := kb.Target("kserve")
	if k == nil || k.Pos.File != "kb/x.toml" || !slices.Equal(k.Versions, []string{"v1.0.0", "v1.1.0"}) {
		t.Errorf("the overlay's kserve does not replace the built-in one: %+v", k)
	}
	if slices.Index(base.TargetIDs(), "kserve") != slices.Index(kb.TargetIDs(), "kserve") {
		t.Error("a replaced target moved")
	}
	if kb.Target("nope") != nil {
		t.Error("Target of an unknown id is not nil")
	}
}

func TestReleaseOrder(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"v0.9.0", "v0.10.0", true}, {"v0.10.0", "v0.9.0", false}, {"1.3.0rc24", "1.3.0rc28", false},
		{"r26.06", "r26.07", true}, {"main@170098b", "v1.0.0", false}, {"v1.6.2", "v1.7.0", true},
	} {
		if got := releaseLess(c.a, c.b); got != c.less {
			t.Errorf("releaseLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// The built-in knowledge base writes for the deployment APIs the issue
// names, each at the versions vendored for it, and every engine has an
// image a manifest can run, with its port and health check.
func TestTheBuiltInTargetsAndEngineImages(t *testing.T) {
	kb := MustDefault()
	want := []string{"kserve", "gaie", "llm-d", "lws", "kuberay", "compose", "triton", "dynamo", "ray", "kubernetes"}
	if got := kb.TargetIDs(); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for _, tg := range kb.Targets {
		if tg.Name == "" || tg.Repo == "" || len(tg.Versions) == 0 || len(tg.Sources) == 0 || tg.Default() != tg.Versions[len(tg.Versions)-1] {
			t.Errorf("target %q is incomplete: %+v", tg.ID, tg)
		}
		for _, f := range tg.Features {
			if !slices.Contains(tg.Versions, f.Since) || len(f.Sources) == 0 || f.What == "" {
				t.Errorf("target %q feature %q: since %q of %v, %d sources", tg.ID, f.ID, f.Since, tg.Versions, len(f.Sources))
			}
		}
	}
	// The version skew the issue names: KServe's KV-cache offloading is
	// v0.20.0's; LWS's role scaling is v0.10.0's.
	for _, c := range []struct{ target, feature, since string }{
		{"kserve", "llmisvc-kv-cache-offloading", "v0.20.0"},
		{"lws", "disaggregatedset-role-scaling", "v0.10.0"},
		{"lws", "disaggregatedset", "v0.9.0"},
		{"kuberay", "rayservice-suspend", "v1.7.0"},
	} {
		if f := kb.Target(c.target).Feature(c.feature); f == nil || f.Since != c.since {
			t.Errorf("%s feature %s: %+v, want since %s", c.target, c.feature, f, c.since)
		}
	}
	for _, p := range kb.ProductsOn(LayerEngine) {
		if len(p.Images) == 0 {
			t.Errorf("engine %q has no image", p.ID)
		}
		for _, img := range p.Images {
			if img.Runs != p.ID || img.Port <= 0 || img.Health == "" || len(img.Probe) == 0 || len(img.Sources) == 0 {
				t.Errorf("engine %q image %q: runs %q, port %d, health %q, probe %v", p.ID, img.ID, img.Runs, img.Port, img.Health, img.Probe)
			}
			if img.Ref != "" && img.Release != p.Release.Tag && img.NotFound == "" {
				t.Errorf("engine %q image %q is of release %q, not %q", p.ID, img.ID, img.Release, p.Release.Tag)
			}
			if img.Ref == "" && img.NotFound == "" {
				t.Errorf("engine %q image %q has no ref and no reason", p.ID, img.ID)
			}
		}
	}
	for id, ref := range map[string]string{"vllm": "vllm/vllm-openai:v0.33.0", "sglang": "lmsysorg/sglang:v0.5.23", "tensorrt-llm": "nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc28"} {
		if img := kb.Product(id).Images[0]; img.Ref != ref {
			t.Errorf("engine %q image %q, want %q", id, img.Ref, ref)
		}
	}
}

// Every key the deploy types decode is one the unknown-key check allows,
// and the other way round: a field added to deploy.go is added to
// knownKeys (or the loader would call it unknown).
func TestTheDeployKeysAreKnown(t *testing.T) {
	for table, v := range map[string]any{"product.image": Image{}, "target": Target{}, "target.feature": TargetFeature{}} {
		var tags []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("toml"), ","); tag != "" && tag != "-" {
				tags = append(tags, tag)
			}
		}
		slices.Sort(tags)
		known := slices.Sorted(slices.Values(knownKeys[table]))
		if !slices.Equal(tags, known) {
			t.Errorf("%s: the type decodes %v, knownKeys allows %v", table, tags, known)
		}
	}
	if !slices.Contains(knownKeys["product"], "image") || !slices.Contains(knownKeys[""], "target") {
		t.Error("[[product.image]] or [[target]] is not a known table")
	}
}
