package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// logFormat words the era of the records' format: "2.9+" when it reaches the newest format known (later
// versions may print the same), "2.3–2.5" otherwise, "" when no record shows it. A guess, never a version.
// logFormatOf is the inputs' log format: all's merged (logFormat), or, where two inputs show formats no torch version
// shares (logs of two versions given together), "mixed: " and each distinct one ("mixed: 2.6–2.7, 2.9+").
func LogFormatOf(all logparse.Era, inputs map[string]logparse.Era) string {
	var eras []logparse.Era
	for _, e := range inputs {
		eras = append(eras, e)
	}
	sort.Slice(eras, func(i, j int) bool { // by the lowest version, then the highest: one order, not the map's
		alo, ahi, _ := eras[i].Bounds()
		blo, bhi, _ := eras[j].Bounds()
		return alo < blo || alo == blo && ahi < bhi
	})
	var names []string
	disjoint := false
	for i, e := range eras {
		lo, hi, _ := e.Bounds()
		for _, o := range eras[:i] {
			if olo, ohi, _ := o.Bounds(); lo > ohi || hi < olo {
				disjoint = true
			}
		}
		if n := logFormat(e); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if !disjoint {
		return logFormat(all)
	}
	return "mixed: " + strings.Join(names, ", ")
}

// LogFormatWords words a report's log format for a header: "log format of 2.9+", or for inputs of different versions
// "log formats of 2.6, 2.9+: inputs of different torch versions"; of is what comes before the versions ("of ").
func LogFormatWords(lf, of string) string {
	if rest, ok := strings.CutPrefix(lf, "mixed: "); ok {
		return "log formats " + of + rest + ": inputs of different torch versions"
	}
	return "log format " + of + lf
}

func logFormat(e logparse.Era) string {
	lo, hi, ok := e.Bounds()
	if !ok {
		return ""
	}
	if hi >= logparse.NewestMinor {
		return "2." + strconv.Itoa(lo) + "+"
	}
	return e.String()
}
