package drill

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// How a score reads, the same in the app and in the line mode.

// PointsText shows points with at most two decimals: 5.33, not
// 5.333333333333333.
func PointsText(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// Fraction is points over the maximum: "1.5/2".
func Fraction(points, max float64) string { return PointsText(points) + "/" + PointsText(max) }

// Text is "8 of 9 (89%)".
func (s Score) Text() string {
	return fmt.Sprintf("%s of %s (%.0f%%)", PointsText(s.Points), PointsText(s.Max), 100*s.Ratio())
}

// Percent is a ratio as a whole percentage: "89%".
func Percent(ratio float64) string { return fmt.Sprintf("%.0f%%", 100*ratio) }

// Trend is the last n ratios, oldest first: "67% → 89% → 100%".
func Trend(ratios []float64, n int) string {
	var out []string
	for _, r := range ratios[max(0, len(ratios)-n):] {
		out = append(out, Percent(r))
	}
	return strings.Join(out, " → ")
}

// Progress is one drill's line of progress, the same in the app and the
// line mode: "Taxonomy    3 attempts  last  89%  best 100%", and for the
// mock test how many attempts passed.
func Progress(name string, attempts int, last, best float64, passes int) string {
	title := name
	if title != "" {
		title = strings.ToUpper(title[:1]) + title[1:]
	}
	line := fmt.Sprintf("%-9s %3d %-8s  last %3.0f%%  best %3.0f%%", title, attempts, plural(attempts, "attempt"), 100*last, 100*best)
	if name == Mock {
		line += fmt.Sprintf("  %d passed", passes)
	}
	return line
}

// plural is word for n of it: "attempt", "attempts".
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
