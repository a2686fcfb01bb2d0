package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Rank agreement of the diverged hang (testdata/recorded/diverged-hang, real 2.14.1) states that the ranks' probes
// recorded different compiles: its evidence line named the probe only as "probe (torch imported)", not the compile
// files the difference rests on. The text's "Based on:" and the JSON's verdict.basis name them, in one wording.
func TestDivergedHangBasisNamesTheCompileStates(t *testing.T) {
	const want = "probe compile states of ranks 0,1"
	text := triagetest.ReportText(t, 400, divergedHang)
	based := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Based on: ") {
			based = l
		}
	}
	if !strings.HasSuffix(based, "; 2 ranks; "+want) {
		t.Errorf("text: %q", based)
	}
	js := triagetest.ReportJSON(t, divergedHang)
	var doc struct {
		Verdict struct {
			Basis []string `json:"basis"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("json: %v", err)
	}
	if b := doc.Verdict.Basis; len(b) == 0 || b[len(b)-1] != want || "Based on: "+strings.Join(b, "; ") != based {
		t.Errorf("json basis %q, text %q", b, based)
	}
}
