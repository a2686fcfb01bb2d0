package ranks

import (
	"encoding/json"
	"sort"

	"github.com/torchtriage/torchtriage/triage/text"
)

// compileGroupJSON is a CompileGroup in the JSON: its ranks as ranges ("0,2-7"), as a rank group's are.
type compileGroupJSON struct {
	Ranks      string `json:"ranks"`
	Size       int    `json:"size"`
	Compiles   int    `json:"compiles"` // compiles that ended, done or failed
	Phase      string `json:"phase"`    // "idle" (the last compile finished) or "compiling" (this one not yet)
	CompileID  string `json:"compile_id,omitempty"`
	Function   string `json:"function"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	AfterBreak string `json:"after_break,omitempty"` // the graph-break finding's id its resume function follows
}

// MarshalJSON writes the ranks as ranges.
func (g CompileGroup) MarshalJSON() ([]byte, error) {
	return json.Marshal(compileGroupJSON{text.ASCIIRanges(g.Ranks), len(g.Ranks), g.Compiles, g.Phase, g.CompileID, g.Function,
		g.File, g.Line, g.AfterBreak})
}

// UnmarshalJSON reads the compact form back (saved reports).
func (g *CompileGroup) UnmarshalJSON(data []byte) error {
	var raw compileGroupJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*g = CompileGroup{Ranks: text.ParseRanges(raw.Ranks), Compiles: raw.Compiles, Phase: raw.Phase, CompileID: raw.CompileID,
		Function: raw.Function, File: raw.File, Line: raw.Line, AfterBreak: raw.AfterBreak}
	return nil
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
