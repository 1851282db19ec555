package knowledge_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stackpick/stackpick/knowledge"
)

// unknownKeys is an answers file of n keys no question has.
func unknownKeys(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "unknown_%d = %d\n", i, i)
	}
	return []byte(b.String())
}

// unknownRuleKeys is an overlay of n rules, each with a key rules do not have.
func unknownRuleKeys(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[[rule]]\nid = \"r%d\"\nbogus_%d = 1\n", i, i)
	}
	return []byte(b.String())
}

// unknownKeysInOneRule is an overlay of one rule with n keys rules do not have.
func unknownKeysInOneRule(n int) []byte {
	var b strings.Builder
	b.WriteString("[[rule]]\nid = \"r\"\n")
	for i := range n {
		fmt.Fprintf(&b, "bogus_%d = 1\n", i)
	}
	return []byte(b.String())
}

// The time to report n unknown keys grows with n, not n²: compare the
// 1000 and 16000 cases (ns/op per key should be about the same).
func BenchmarkUnknownKeys(b *testing.B) {
	base := knowledge.DecodeBase(knowledge.Embedded())
	for _, n := range []int{1000, 16000} {
		answers := unknownKeys(n)
		b.Run(fmt.Sprintf("answers/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := kb.ParseAnswers("a.toml", answers); err == nil {
					b.Fatal("unknown keys accepted")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
		for name, src := range map[string][]byte{"rules": unknownRuleKeys(n), "one-rule": unknownKeysInOneRule(n)} {
			b.Run(fmt.Sprintf("overlay-%s/%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := base.Build([]knowledge.SourceFile{{Name: "o.toml", Data: src}}); err == nil {
						b.Fatal("unknown keys accepted")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
			})
		}
	}
}
