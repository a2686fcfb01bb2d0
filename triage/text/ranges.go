package text

import (
	"strconv"
	"strings"
)

func ASCIIRanges(ranks []int) string { return strings.ReplaceAll(RankRanges(ranks), "–", "-") }

// parseRanges reads "0,2-7" (or with en dashes); bad parts are skipped.
func ParseRanges(s string) []int {
	var out []int
	for _, part := range strings.Split(strings.ReplaceAll(s, "–", "-"), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, found := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if found {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<20 {
				continue
			}
		}
		for r := a; r <= b; r++ {
			out = append(out, r)
		}
	}
	return out
}
