package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stackpick/stackpick/knowledge"
)

var _ = register(ShapeSingleNode, writeSingleNode)

// writeSingleNode writes the engine alone on one host: a Compose file and
// the docker run line that does the same.
func writeSingleNode(g *gen) error {
	if err := g.needContainerGPU(); err != nil {
		return err
	}
	ref, img := g.engineImage()
	c := g.engineContainer("", ref, img)
	svc, vols := g.composeService(c)
	name := g.ec.Engine
	doc := Map(
		W("name", Str(k8sName("stackpick-"+g.ec.Model)), "the Compose project: named after the model it serves (Compose takes lower-case letters, digits, - and _)"),
		F("services", Map(F(name, svc))),
	)
	if vols != nil {
		doc.Add(F("volumes", vols))
	}
	g.finish(File{
		Path:    "compose.yaml",
		Kind:    "Compose file",
		Deploys: fmt.Sprintf("one %s server for %s on this host (docker compose up -d)", g.kb.ProductName(g.ec.Engine), g.ec.Model),
		Format:  FormatCompose,
		Targets: map[string]string{"compose": g.target("compose")},
		Engine:  g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": c.Argv},
	}, "#", YAML(nil, doc))
	g.finish(File{
		Path:    "docker-run.sh",
		Kind:    "docker run line",
		Deploys: "the same server as compose.yaml, with docker run alone (sh docker-run.sh)",
		Format:  FormatShell,
		Engine:  g.ec.Engine, EngineRelease: g.ec.Release,
		Args: map[string][]string{"": c.Argv},
	}, "#", g.dockerRun(c))
	return nil
}

// composeService is the engine's Compose service, and the named volumes it
// needs (nil when none).
func (g *gen) composeService(c container) (*Node, *Node) {
	svc := Map(W("image", Str(c.Image), g.imageWhy(c.img)))
	if len(c.Command) > 0 {
		svc.Add(W("entrypoint", Strs(c.Command...), "the image's own entrypoint does not start this program, so the command's first words replace it"))
	}
	svc.Add(W("command", c.argsNode(c.Args), g.flagsWhy()))
	if g.sharesMemory() {
		svc.Add(W("ipc", Str("host"), g.shmWhy()))
	}
	if c.Port > 0 {
		svc.Add(W("ports", Strs(fmt.Sprintf("%d:%d", c.Port, c.Port)), fmt.Sprintf("the port the server listens on (%s), published on the host's same port", portWhy(c))))
	}
	if g.usesHF() {
		svc.Add(W("environment", Strs("HF_TOKEN"), "a Hugging Face token for gated checkpoints, passed from the shell that runs docker compose (export HF_TOKEN=...); never written into this file"))
	}
	var vols *Node
	switch {
	case g.localModelFile() != "":
		dir := g.ph("MODELS_DIR", phHostDir, fmt.Sprintf("the folder on this host that holds %s, the model file the command loads (mounted read-only at /models)", g.localModelFile()))
		svc.Add(W("volumes", Strs(dir+":/models:ro"), "the command's -m names a file relative to /models"))
		svc.Add(W("working_dir", Str("/models"), "so the command's relative model path resolves in the mounted folder"))
	case c.Cache != "":
		svc.Add(W("volumes", Strs("model-cache:"+c.Cache), "a named volume on the folder where the engine keeps downloaded weights, so a restart does not download them again"))
		vols = Map(F("model-cache", Map(W("name", Str("stackpick-model-cache"), "named outright, so docker-run.sh's -v stackpick-model-cache uses the same download"))))
	}
	if len(c.img.Probe) > 0 && c.Health != "" {
		test := append([]string{"CMD"}, c.img.Probe...)
		svc.Add(W("healthcheck", Map(
			F("test", Strs(test...)),
			F("interval", Str("30s")),
			F("timeout", Str("10s")),
			F("retries", Int(5)),
			W("start_period", Str("20m"), "loading and warming a large model takes minutes; failures before then do not count"),
		), fmt.Sprintf("healthy once %s answers on %s (the probe uses tools the image ships: %s)", c.Health, portWhy(c), sourceText(c.img.Sources))))
	}
	if n := g.gpuCount(); n > 0 && g.answer("gpu_vendor") == "nvidia" {
		svc.Add(W("deploy", Map(F("resources", Map(F("reservations", Map(F("devices", List(Map(
			F("driver", Str("nvidia")),
			W("count", Int(n), g.ec.ServersWhy),
			F("capabilities", Strs("gpu")),
		)))))))), fmt.Sprintf("%d NVIDIA GPUs reserved for the server", n)))
	}
	return svc, vols
}

// localModelFile is the model file the command loads from disk (llama.cpp's
// -m), or "".
func (g *gen) localModelFile() string {
	for _, l := range g.ec.Command {
		if l.FlagID == knowledge.FlagLlamaCppModel {
			return l.Value
		}
	}
	return ""
}

func portWhy(c container) string {
	for _, l := range c.flags {
		if strings.HasSuffix(l.FlagID, "-port") {
			return "the command's " + l.Flag
		}
	}
	return fmt.Sprintf("port %d, the image's default", c.Port)
}

func (g *gen) imageWhy(img *knowledge.Image) string {
	if img.Ref == "" {
		return "no source read gives this image's tag at the release the knowledge base targets: fill the placeholder"
	}
	s := "the published image"
	if img.Release != "" {
		s += " at " + img.Release + ", the release the knowledge base targets"
	}
	if src := sourceText(img.Sources); src != "" {
		s += " [source: " + src + "]"
	}
	return s
}

// sourceText cites sources on one line, short commits, each place once:
// the first two, then how many more the knowledge base holds.
func sourceText(ss knowledge.Sources) string {
	var out []string
	for _, s := range ss {
		var b strings.Builder
		switch {
		case s.Repo != "":
			b.WriteString(s.Repo)
			if s.Commit != "" {
				b.WriteString("@" + s.Commit[:min(8, len(s.Commit))])
			}
			if s.Path != "" {
				b.WriteString(" " + s.Path)
			}
		case s.URL != "":
			b.WriteString(s.URL)
		}
		if b.Len() > 0 && !slices.Contains(out, b.String()) {
			out = append(out, b.String())
		}
	}
	if len(out) > 2 {
		more := len(out) - 2
		noun := "sources"
		if more == 1 {
			noun = "source"
		}
		return fmt.Sprintf("%s (and %d more %s in the knowledge base)", strings.Join(out[:2], "; "), more, noun)
	}
	return strings.Join(out, "; ")
}

// dockerRun writes the docker run line for the container: the same image,
// arguments, port, volume and GPUs as the Compose service.
func (g *gen) dockerRun(c container) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	words := []string{"docker", "run", "--rm", "--name", k8sName("stackpick-" + g.ec.Model)}
	if n := g.gpuCount(); n > 0 && g.answer("gpu_vendor") == "nvidia" {
		if n >= g.d.Answers.Get(knowledge.KeyGPUsPerNode).Int {
			words = append(words, "--gpus", "all")
		} else {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprint(i)
			}
			words = append(words, "--gpus", `"device=`+strings.Join(ids, ",")+`"`)
		}
	}
	if g.sharesMemory() {
		words = append(words, "--ipc=host")
	}
	if c.Port > 0 {
		words = append(words, "-p", fmt.Sprintf("%d:%d", c.Port, c.Port))
	}
	if len(c.img.Probe) > 0 && c.Health != "" {
		// compose.yaml's health check, as docker run's flags.
		words = append(words, "--health-cmd", strings.Join(c.img.Probe, " "), "--health-interval", "30s", "--health-timeout", "10s", "--health-retries", "5", "--health-start-period", "20m")
	}
	if g.usesHF() {
		words = append(words, "-e", "HF_TOKEN")
	}
	switch {
	case g.localModelFile() != "":
		dir := g.ph("MODELS_DIR", phHostDir, "")
		words = append(words, "-v", dir+":/models:ro", "-w", "/models")
	case c.Cache != "":
		words = append(words, "-v", "stackpick-model-cache:"+c.Cache)
	}
	if len(c.Command) > 0 {
		words = append(words, "--entrypoint", c.Command[0])
	}
	words = append(words, c.Image)
	if len(c.Command) > 1 {
		words = append(words, c.Command[1:]...)
	}
	b.WriteString("exec")
	for _, w := range words {
		b.WriteString(" " + shellQuote(w))
	}
	for i, a := range c.Args {
		if strings.HasPrefix(a, "-") || i == 0 {
			b.WriteString(" \\\n  " + shellQuote(a))
			continue
		}
		b.WriteString(" " + shellQuote(a))
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// shellQuote quotes a word for sh when it needs it; ${NAME} placeholders
// stay open so the shell fills them from the environment.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	if strings.Contains(w, "${") || strings.HasPrefix(w, `"device=`) {
		return `"` + strings.ReplaceAll(w, `"`, `\"`) + `"`
	}
	safe := true
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// sharesMemory reports whether the server's processes share memory through
// /dev/shm: a PyTorch engine on more than one GPU (Docker gives a
// container 64 MB of it).
func (g *gen) sharesMemory() bool {
	return g.ec.Engine != knowledge.EngineLlamaCpp && g.gpuCount() > 1
}

func (g *gen) shmWhy() string {
	return fmt.Sprintf("the %d GPUs' processes share memory (PyTorch, tensor parallelism); a container's own /dev/shm is 64 MB, so it uses the host's [source: vllm-project/vllm docs/deployment/docker.md: \"You can either use the ipc=host flag or --shm-size flag to allow the container to access the host's shared memory\"]", g.gpuCount())
}
