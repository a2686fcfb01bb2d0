package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/text"
)

// rankWord names ranks: "rank 3", "ranks 0–7".
func RankWord(ranks []int) string {
	if len(ranks) == 1 {
		return "rank " + strconv.Itoa(ranks[0])
	}
	return "ranks " + CompactRanks(ranks)
}

// compactRanks is RankRanges bounded in length: beyond a few ranges it gives the count and the first ones.
func CompactRanks(ranks []int) string {
	s := text.RankRanges(ranks)
	cut := 0 // where the first summaryRangeParts ranges end: counted, not split (every item's ranks are worded)
	for range summaryRangeParts {
		i := strings.IndexByte(s[cut:], ',')
		if i < 0 {
			return s
		}
		cut += i + 1
	}
	return s[:cut] + "… (" + strconv.Itoa(len(ranks)) + " ranks)"
}

// lastRankWords is words remembering its last answer: the items of a chunk of findings (inParallel) mostly share
// one rank set ("ranks 0–7" of every break of an 8-rank run), whose words were made again for each. Make one per
// chunk: it is not safe for several goroutines.
func LastRankWords(words func([]int) string) func([]int) string {
	var last []int
	said, known := "", false
	return func(ranks []int) string {
		if !known || !slices.Equal(ranks, last) {
			last, said, known = slices.Clone(ranks), words(ranks), true
		}
		return said
	}
}

// rankText names the ranks of an item, bounded (compactRanks): "ranks 0–511,513–1023"; every rank is in the JSON.
func RankText(ranks []int) string {
	if len(ranks) == 0 {
		return "single process"
	}
	return RankWord(ranks) // "rank 3" for one ("ranks 3" read as a plural)
}

const (
	MaxGroupItems     = 50 // Extra/Missing entries kept per group
	SummaryGroups     = 3  // groups spelled out in Summary
	SummaryItems      = 3  // items per group in Summary
	summaryRangeParts = 8  // rank ranges before "…" in Summary
)
