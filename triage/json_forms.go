package triage

import (
	"encoding/json"
	"sort"

	"github.com/torchtriage/torchtriage/triage/text"
)

// evidenceJSON is Evidence with every field present, as the report schema lists them.
type evidenceJSON struct {
	Rank      int    `json:"rank"`
	CompileID string `json:"compile_id"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Input     string `json:"input"`
	InputLine int    `json:"input_line"`
}

// MarshalJSON writes a finding with non-null lists and complete evidence entries.
func (f Finding) MarshalJSON() ([]byte, error) { return json.Marshal(f.jsonForm()) }

// findingAlias is Finding without its methods (no MarshalJSON).
type findingAlias Finding

// findingJSON is a finding as JSON has it (a report's are written by jsonAppender.findingJSON, the same bytes).
type findingJSON struct {
	findingAlias
	Ranks    []int          `json:"ranks"`
	Related  []string       `json:"related"`
	Evidence []evidenceJSON `json:"evidence"`
}

func (f *Finding) jsonForm() findingJSON {
	ev := make([]evidenceJSON, len(f.Evidence))
	for i, e := range f.Evidence {
		ev[i] = evidenceJSON(e)
	}
	ranks, related := f.Ranks, f.Related
	if ranks == nil {
		ranks = []int{}
	}
	if related == nil {
		related = []string{}
	}
	return findingJSON{findingAlias(*f), ranks, related, ev}
}

// MarshalJSON writes a rank group compactly: ranks as ranges ("0,2-7"), first divergent compile ids with the
// ranges of ranks that share them, so the output does not grow with the number of ranks.
func (g RankGroup) MarshalJSON() ([]byte, error) {
	fd := map[string]string{}
	by := map[string][]int{}
	for r, c := range g.FirstDivergent {
		by[c] = append(by[c], r)
	}
	for c, rs := range by {
		sort.Ints(rs)
		fd[c] = text.ASCIIRanges(rs)
	}
	extra, missing := g.Extra, g.Missing
	if extra == nil {
		extra = []string{}
	}
	if missing == nil {
		missing = []string{}
	}
	return json.Marshal(struct {
		Ranks          string            `json:"ranks"`
		Size           int               `json:"size"`
		Extra          []string          `json:"extra"`
		Missing        []string          `json:"missing"`
		FirstDivergent map[string]string `json:"first_divergent"`
	}{text.ASCIIRanges(g.Ranks), len(g.Ranks), extra, missing, fd})
}

// UnmarshalJSON reads the compact form back (saved reports).
func (g *RankGroup) UnmarshalJSON(data []byte) error {
	var raw struct {
		Ranks          string            `json:"ranks"`
		Extra          []string          `json:"extra"`
		Missing        []string          `json:"missing"`
		FirstDivergent map[string]string `json:"first_divergent"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	g.Ranks = text.ParseRanges(raw.Ranks)
	g.Extra, g.Missing = raw.Extra, raw.Missing
	g.FirstDivergent = map[int]string{}
	for c, rs := range raw.FirstDivergent {
		for _, r := range text.ParseRanges(rs) {
			g.FirstDivergent[r] = c
		}
	}
	return nil
}
