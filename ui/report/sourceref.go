package report

import "strings"

// shortHex is how many hex digits of a commit id body text keeps: enough
// to find the commit (git accepts it), short enough not to drown the
// sentence around it.
const shortHex = 8

// ShortRefs shortens every full commit id in s (a run of 40 or more hex
// digits) to its first eight, so "vllm-project/vllm@c1d86421174a…:path"
// reads "vllm-project/vllm@c1d86421:path". Body text (cards, product
// pages, the memo's reasons, the rules table) cites sources this way; the
// full ids stay in the memo's Sources section and in JSON.
func ShortRefs(s string) string {
	if len(s) < 40 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isHex(s[j]) {
			j++
		}
		switch {
		case j-i >= 40 && (i == 0 || !isWordByte(s[i-1])) && (j == len(s) || !isWordByte(s[j])):
			b.WriteString(s[i : i+shortHex])
			i = j
		case j > i:
			b.WriteString(s[i:j])
			i = j
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// HasFullRef reports whether s holds a full commit id, for the tests that
// keep them out of body text.
func HasFullRef(s string) bool { return ShortRefs(s) != s }

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isWordByte(c byte) bool {
	return isHex(c) || 'g' <= c && c <= 'z' || 'G' <= c && c <= 'Z' || c == '_'
}
