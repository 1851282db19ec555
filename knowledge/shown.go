package knowledge

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How much of a user's text an error message echoes. A value is cut to
// maxValueShown characters; a key or a path to maxKeyShown; any other
// field (a problem that quotes the file, the allowed list) to
// maxFieldShown, a net for text no quoting site has cut.
const (
	maxValueShown = 80
	maxKeyShown   = 200
	maxFieldShown = 2000
)

// Quote is how an error message shows a value from the user's file: in
// double quotes, with control characters, bidirectional overrides and
// other characters that do not print escaped (\u202e), cut after 80
// characters with how long it was ("…(52428800 bytes)"). Every message that
// echoes a value goes through it, so none can reorder or hide what a
// terminal shows, nor echo a 50 MB value whole.
func Quote(s string) string {
	cut, rest := cutRunes(s, maxValueShown)
	q := strconv.Quote(cut)
	q = escapeUnprintable(q)
	if rest {
		q += fmt.Sprintf("…(%d bytes)", len(s))
	}
	return q
}

// Shown is text from the user's file (a key, a path, words a decoder
// echoed) as an error shows it unquoted: every character that does not
// print escaped, as in Quote, and the whole cut after 200 characters.
func Shown(s string) string { return shownField(s, maxKeyShown) }

// shownField is how Error shows each of its fields, the one place every
// message passes through whatever built it: characters that do not print
// are escaped, a quoted value longer than maxValueShown characters (as
// %q wrote it) is cut as Quote cuts it, and the field is cut after limit
// characters.
func shownField(s string, limit int) string {
	if len(s) <= maxValueShown && allPrintable(s) {
		return s // the usual message: nothing to do
	}
	s = cutQuoted(s)
	clean := allPrintable(s)
	if clean && len(s) <= limit {
		return s
	}
	cut, rest := cutRunes(s, limit)
	var b strings.Builder
	for i, w := 0, 0; i < len(cut); i += w {
		r, size := utf8.DecodeRuneInString(cut[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, cut[i])
		case printable(r):
			b.WriteRune(r)
		default:
			b.WriteString(escapeRune(r))
		}
	}
	if rest {
		fmt.Fprintf(&b, "…(%d bytes)", len(s))
	}
	return b.String()
}

func allPrintable(s string) bool {
	for _, r := range s {
		if !printable(r) {
			return false
		}
	}
	return true
}

// cutQuoted shortens every double-quoted Go string in s (what %q writes)
// that holds more than maxValueShown characters to Quote's form.
func cutQuoted(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			break
		}
		if j-i-1 > maxValueShown {
			if v, err := strconv.Unquote(s[i : j+1]); err == nil && utf8.RuneCountInString(v) > maxValueShown {
				b.WriteString(s[last:i])
				b.WriteString(Quote(v))
				last = j + 1
			}
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// printable reports whether r can be shown as itself: a graphic character
// or a plain space, and not a formatting character (the bidirectional
// overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width
// joiners), which changes how the rest of a line reads.
func printable(r rune) bool {
	return r == ' ' || (unicode.IsPrint(r) && !unicode.Is(unicode.Cf, r))
}

func escapeRune(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\r':
		return `\r`
	}
	if r < 0x10000 {
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// escapeUnprintable escapes what strconv.Quote leaves as itself but does
// not print (strconv keeps nothing of Cf as itself today; this is the net).
func escapeUnprintable(q string) string {
	for _, r := range q {
		if !printable(r) {
			var b strings.Builder
			for _, r := range q {
				if printable(r) {
					b.WriteRune(r)
				} else {
					b.WriteString(escapeRune(r))
				}
			}
			return b.String()
		}
	}
	return q
}

// cutRunes returns the first n characters of s and whether there were more.
func cutRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i], i < len(s)
}

// cutWords cuts every run of text without a space longer than
// maxValueShown characters (a value a decoder echoed bare: a 900 KB number)
// to its first 80 characters and its length.
func cutWords(s string) string {
	if len(s) <= maxValueShown {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], " \t\n")
		if j < 0 {
			j = len(s) - i
		}
		word := s[i : i+j]
		if cut, rest := cutRunes(word, maxValueShown); rest {
			fmt.Fprintf(&b, "%s…(%d bytes)", cut, len(word))
		} else {
			b.WriteString(word)
		}
		i += j
		if i < len(s) {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}
