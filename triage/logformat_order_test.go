package triage

import (
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The mixed log format lists the inputs' formats in one order whatever the map's: by their lowest version, then
// their highest ("2.5–2.13" before "2.5+"), so that a report of the same inputs reads the same every time.
func TestLogFormatOfMixedInputsIsOneOrder(t *testing.T) {
	inputs := map[string]logparse.Era{"a.log": logparse.EraRange(5, 13), "b.log": logparse.EraRange(5, 14),
		"c.log": logparse.EraRange(0, 2), "d.log": logparse.EraRange(6, 7)}
	var all logparse.Era
	for _, e := range inputs {
		all = all.Merge(e)
	}
	want := report.LogFormatOf(all, inputs)
	if want == "" || want[:7] != "mixed: " {
		t.Fatalf("not mixed: %q", want)
	}
	for range 200 {
		if got := report.LogFormatOf(all, inputs); got != want {
			t.Fatalf("log format %q, then %q: the order follows the map's", want, got)
		}
	}
}
