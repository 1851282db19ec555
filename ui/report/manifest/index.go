package manifest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// IndexPath is the index file every set carries beside its files.
const IndexPath = "MANIFESTS.md"

// Index is the set's index in Markdown: what each file deploys and the
// command that applies it, the placeholders still to fill, and what was
// and was not checked, file by file. It carries the header of the files that cannot hold
// comments (JSON).
func (s *Set) Index(origin, version string) []byte {
	var b strings.Builder
	if version == "" {
		version = "dev"
	}
	fmt.Fprintf(&b, "# Deployable files for %s\n\n", s.Stack)
	fmt.Fprintf(&b, "Written by stackpick %s from %s.\n\n", version, origin)
	b.WriteString("| File | What it is | What it deploys |\n|---|---|---|\n")
	for _, f := range s.Files {
		kind := f.Kind
		if f.APIVersion != "" {
			kind += " (" + f.APIVersion + ")"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Path, cell(kind), cell(f.Deploys))
	}
	if len(s.Earlier) > 0 {
		b.WriteString("\n## Left from an earlier set\n\nThese files in this folder are from a set written here before and are not part of this one. stackpick kept them as they were (they may hold edits); remove them if this stack does not use them.\n\n| File |\n|---|\n")
		for _, p := range s.Earlier {
			fmt.Fprintf(&b, "| `%s` |\n", p)
		}
	}
	if len(s.Omits) > 0 {
		b.WriteString("\n## Not in these files\n\n")
		for _, o := range s.Omits {
			fmt.Fprintf(&b, "- %s.\n", capital(o))
		}
	}
	if len(s.Placeholders) > 0 {
		b.WriteString("\n## Placeholders\n\nValues stackpick cannot know. Fill them with `stackpick manifest ... --set NAME=VALUE`, by editing, or with `envsubst`.\n\n")
		for _, p := range s.Placeholders {
			state := "to fill"
			if p.Value != "" {
				state = "set to `" + p.Value + "`"
			}
			fmt.Fprintf(&b, "- `${%s}` (%s): %s\n", p.Name, state, strings.ReplaceAll(p.Explains, "<", `\<`))
		}
	}
	b.WriteString("\n## What was checked\n\n")
	b.WriteString(capital(Checked) + ".\n\n")
	for _, f := range s.Files {
		fmt.Fprintf(&b, "- `%s`: %s.\n", f.Path, indexed(f.Checked))
	}
	b.WriteString("\n## What only the place a file runs can check\n\n")
	for _, f := range s.Files {
		fmt.Fprintf(&b, "- `%s`: %s.\n", f.Path, capital(f.Unchecked))
	}
	return []byte(b.String())
}

// indexed is a file's own sentence as the index says it of the file.
func indexed(s string) string {
	return strings.NewReplacer("named here", "its header names", "this file itself", "the file itself").Replace(s)
}

// cell makes text safe in a Markdown table cell: pipes escaped, bare URLs
// made autolinks.
func cell(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			url := strings.TrimRight(w, ".,;:)")
			words[i] = "<" + url + ">" + w[len(url):]
		}
	}
	return strings.ReplaceAll(strings.Join(words, " "), "|", `\|`)
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Listed is the files an index lists in its tables (as Index writes it:
// the set's files and those left from an earlier set), without the index
// itself: what was written in a folder before, so a new set written over
// it can name the files it does not replace. Only relative paths inside
// the folder are returned.
func Listed(index []byte) []string {
	var paths []string
	for _, line := range strings.Split(string(index), "\n") {
		rest, ok := strings.CutPrefix(line, "| `")
		if !ok {
			continue
		}
		path, _, ok := strings.Cut(rest, "` |")
		if !ok || path == "" || path == IndexPath || !filepath.IsLocal(filepath.FromSlash(path)) || strings.ContainsAny(path, "\\\x00\n") {
			continue
		}
		paths = append(paths, path)
	}
	return paths
}
