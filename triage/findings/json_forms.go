package findings

import (
	"encoding/json"
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
