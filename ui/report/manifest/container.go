package manifest

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/stackpick/stackpick/decide"
	"github.com/stackpick/stackpick/knowledge"
)

// container is the engine as a container runs it: the image, the launch
// command split into what replaces the image's entrypoint (nothing when
// the entrypoint starts the program itself) and the arguments after it,
// and the port and health path it serves.
type container struct {
	Image   string
	img     *knowledge.Image
	Command []string
	Args    []string
	// Argv is Command + Args without the image's entrypoint words: the
	// launch command's whole list (decide.EngineConfig.Argv).
	Argv   []string
	Port   int
	Health string
	// Cache is where in the container the engine keeps downloaded
	// weights ("" when the image record does not say).
	Cache string
	// flags are the launch flags this container takes, in order, for the
	// comments that defend them.
	flags []decide.LaunchFlag
}

// image returns the image with id of product, and the reference to write:
// a placeholder, named and explained, when no source gives the tag.
func (g *gen) image(product, id string) (string, *knowledge.Image) {
	p := g.kb.Product(product)
	if p == nil {
		missing("no product %q", product)
	}
	img := p.Image(id)
	if img == nil {
		missing("no image %q of %s", id, g.kb.ProductName(product))
	}
	if img.Ref != "" {
		return img.Ref, img
	}
	name := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(product+"_"+id)) + "_IMAGE"
	return g.ph(name, phImage, fmt.Sprintf("the whole reference of the %s image to run (%s), as registry/name:tag. Not known to stackpick: %s", g.kb.ProductName(product), id, img.NotFound)), img
}

// engineImage is the engine's own image: the one of the engine product
// that runs it, the CUDA build when the answers name an NVIDIA GPU and
// the product publishes one beside a CPU build.
func (g *gen) engineImage() (string, *knowledge.Image) {
	p := g.kb.Product(g.ec.Engine)
	if p == nil || len(p.Images) == 0 {
		missing("no image of %s, the engine", g.kb.ProductName(g.ec.Engine))
	}
	want := p.Images[0].ID
	cpu := g.answer("gpu") == "cpu"
	for _, img := range p.Images {
		if img.Runs != g.ec.Engine && img.Runs != "" {
			continue
		}
		if strings.Contains(img.ID, "cuda") != cpu {
			want = img.ID
			break
		}
	}
	return g.image(g.ec.Engine, want)
}

// engineContainer is the engine's container for role ("" for every
// instance), in the image given.
func (g *gen) engineContainer(role, ref string, img *knowledge.Image) container {
	argv := g.ec.Argv(role)
	c := container{Image: ref, img: img, Argv: argv, Port: img.Port, Health: img.Health, Cache: img.ModelCache}
	if n := len(img.Entrypoint); n > 0 && len(argv) >= n && startsWith(argv, img.Entrypoint) {
		c.Args = argv[n:]
	} else {
		c.Command = argv[:min(len(argv), commandWords(g.ec))]
		c.Args = argv[len(c.Command):]
	}
	for _, l := range g.ec.Command {
		if l.Role == "" || l.Role == role {
			c.flags = append(c.flags, l)
		}
		if l.FlagID != "" && strings.HasSuffix(l.FlagID, "-port") && (l.Role == "" || l.Role == role) {
			if p, err := strconv.Atoi(l.Value); err == nil {
				c.Port = p
			}
		}
	}
	return c
}

// commandWords is how many words of Argv are the program's (its name and
// subcommand), before the model or the first flag.
func commandWords(ec *decide.EngineConfig) int {
	cmd, _ := ec.Program()
	return len(strings.Fields(cmd))
}

// argsNode is the container's arguments as a YAML list, each flag with its
// defense and source above it; the values follow their flags unadorned.
func (c container) argsNode(words []string) *Node {
	n := List()
	fi := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		item := Str(w)
		if fi < len(c.flags) && c.flags[fi].Flag == w {
			l := c.flags[fi]
			why := l.Flag + ": " + l.Defense
			if l.Source != "" {
				why += " [source: " + l.Source + "]"
			}
			item.Because(why)
			fi++
		}
		n.items = append(n.items, item)
	}
	return n
}

// flagsWhy says where the arguments come from, for the field that holds
// them.
func (g *gen) flagsWhy() string {
	s := fmt.Sprintf("the launch command stackpick wrote for %s %s (%s on %s), word for word: the memo's engine card defends each flag", g.kb.ProductName(g.ec.Engine), g.ec.Release, g.ec.Model, g.ec.GPU)
	return s
}

// gpuCount is how many GPUs one server of the command takes.
func (g *gen) gpuCount() int { return g.ec.GPUsPerServer }

// usesHF reports whether the engine downloads the model from Hugging
// Face itself (the command names the checkpoint, not a local file).
func (g *gen) usesHF() bool {
	_, model := g.ec.Program()
	if model != "" {
		return true
	}
	for _, l := range g.ec.Command {
		if strings.Contains(l.FlagID, "model-path") || strings.HasSuffix(l.FlagID, "-hf-repo") {
			return true
		}
	}
	return false
}

// startsWith reports whether argv begins with the entrypoint's words, a
// program named by its path in the image matching the command's bare name
// ("/app/llama-server" runs "llama-server").
func startsWith(argv, entrypoint []string) bool {
	for i, e := range entrypoint {
		if argv[i] != e && path.Base(e) != argv[i] {
			return false
		}
	}
	return true
}
