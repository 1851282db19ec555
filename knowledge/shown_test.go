package knowledge_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stackpick/stackpick/knowledge"
)

// bidi is every bidirectional override and isolate a terminal obeys.
var bidi = []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}

// noHiddenText fails when msg holds a character that does not print as
// itself (a control character, a bidirectional override) apart from the
// newlines between problems.
func noHiddenText(t *testing.T, msg string) {
	t.Helper()
	for _, r := range msg {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x200b || r == 0xfeff || strings.ContainsRune(string(bidi), r) {
			t.Fatalf("the message shows %U as itself:\n%.400q", r, msg)
		}
	}
}

// An error that echoes a value from the file shows it short and escaped:
// a 1 MB value with a bidirectional override is cut to 80 characters and
// its length, and the override is written \u202e, so the message can
// neither flood the terminal nor reorder what it shows.
func TestAnErrorShowsAValueShortAndEscaped(t *testing.T) {
	huge := "\u202e" + strings.Repeat("x", 1_000_000)
	cases := []struct {
		name, src, want string
	}{
		{"a long value with an override", "gpu = \"" + huge + "\"\n",
			`a.toml:1: gpu: "\u202exxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"…(1000003 bytes) is not an allowed value`},
		{"a key with an override", "\"no\u202edes\" = 1\n",
			`a.toml:1: no\u202edes: unknown answer key`},
		{"a key with a control character", `"\u001b[2Jnodes" = 1` + "\n",
			`a.toml:1: \u001b[2Jnodes: unknown answer key`},
		{"a long list item", "other_model_types = [\"" + huge + "\"]\n",
			`"…(1000003 bytes) is not an allowed value`},
		{"a long string for a number", "nodes = \"" + huge + "\"\n",
			`"…(1000003 bytes) is not a number`},
		{"a long bare number", "nodes = " + strings.Repeat("1", 900_000) + "\n",
			"a.toml:1: nodes: TOML syntax: " + strings.Repeat("1", 80) + "…(9000"},
		{"a long memo date", "[memo]\ndate = \"" + huge + "\"\n",
			`a.toml:2: memo.date: "\u202exxx`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kb.ParseAnswers("a.toml", []byte(tc.src))
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if len(msg) > 1000 {
				t.Fatalf("the message is %d bytes: %.300s…", len(msg), msg)
			}
			noHiddenText(t, msg)
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("got\n%s\nwant it to contain\n%s", msg, tc.want)
			}
		})
	}
}

// An overlay's values are shown the same way.
func TestAnOverlayErrorShowsAValueShortAndEscaped(t *testing.T) {
	src := "[[rule]]\nid = \"r\u2066\"\nlayer = \"engine\"\neffect = \"" + strings.Repeat("p", 1_000_000) + "\"\nproduct = \"vllm\"\nreason = \"r\"\n" +
		"\"bad\u202ekey\" = 1\n"
	_, err := knowledge.Build(knowledge.Embedded(), []knowledge.SourceFile{{Name: "o.toml", Data: []byte(src)}})
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	if len(msg) > 2000 {
		t.Fatalf("the message is %d bytes: %.300s…", len(msg), msg)
	}
	noHiddenText(t, msg)
	if want := `rule."bad\u202ekey": unknown key`; !strings.Contains(msg, want) {
		t.Fatalf("got\n%s\nwant it to contain %s", msg, want)
	}
}

func TestQuoteEscapesAndCuts(t *testing.T) {
	for in, want := range map[string]string{
		"h100":                   `"h100"`,
		"a\u202eb\u2069c":        `"a\u202eb\u2069c"`,
		"tab\there\x00\x1b":      `"tab\there\x00\x1b"`,
		"zero\u200bwidth":        `"zero\u200bwidth"`,
		strings.Repeat("é", 100): `"` + strings.Repeat("é", 80) + `"…(200 bytes)`,
	} {
		if got := knowledge.Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		if got := knowledge.Quote(in); !utf8.ValidString(got) {
			t.Errorf("Quote(%q) is not valid UTF-8", in)
		}
	}
	if got := knowledge.Shown("bad\u202ekey\n"); got != `bad\u202ekey\n` {
		t.Errorf("Shown = %s", got)
	}
}
