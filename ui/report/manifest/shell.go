package manifest

import "strings"

// ShellWords splits a command line into its words, a single-quoted
// word (a path with a space, as the command line quotes it) kept whole.
func ShellWords(command string) []string {
	var words []string
	var cur strings.Builder
	quoted := false
	for _, r := range command {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == ' ' && !quoted:
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// ShellWrap lays words out as one shell command that pastes as printed:
// lines broken only between words, each broken line ending in " \\", a
// flag kept with its value, and no word ever cut (a long path runs past
// the edge rather than break the command).
func ShellWrap(words []string, width, indent, hang int) string {
	var b strings.Builder
	cur := strings.Repeat(" ", indent)
	start := len(cur)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			w += " " + words[i+1]
			i++
		}
		if len(cur) > start && width > 0 && len(cur)+1+len(w)+2 > width {
			b.WriteString(cur + " \\\n")
			cur = strings.Repeat(" ", indent+hang)
			start = len(cur)
		}
		if len(cur) > start {
			cur += " "
		}
		cur += w
	}
	b.WriteString(cur + "\n")
	return b.String()
}
