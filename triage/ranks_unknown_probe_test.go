package triage_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// perRankLine is the text report's "Per rank" line that starts with who ("rank 2"), unwrapped.
func perRankLine(t *testing.T, a *triage.Analysis, who string) string {
	t.Helper()
	var b strings.Builder
	render.WriteReportText(&b, a, text.Options{Width: 1000})
	out := b.String()
	sec := out[max(strings.Index(out, "\nPer rank\n"), 0):]
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "  "+who+": ") {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf("no Per rank line of %s:\n%s", who, out)
	return ""
}

// The "Per rank" line of a rank no log record names says what its probe counted, quantity by quantity, from the
// source rank agreement compares it by (per_rank_unknown's probe_counts): it read "counts not known" of every
// count while rank agreement, just below, compared it as having no graph break as its probe counted. A 0 is shown
// only where the probe counted none, and marked as the probe's; the rest stays "not known" (runtime errors: no
// probe counts them). Ranks 0,1 log the same break; rank 2's probe counted frames and no graph break.
func TestPerRankSaysWhatTheProbeCounted(t *testing.T) {
	sameBreak := func(agg *report.Aggregator) {
		for r := range 2 {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
		}
	}
	for _, c := range []struct {
		name   string
		frames float64
		breaks int
		line   string
		none   []string
	}{
		{"1 frame", 1, 0, "rank 2: 0 breaks, 0 recompiles, 0 limit hits, 0 skips, 0 compile errors, runtime errors not known; " +
			"no log record names it: the 0s are as its probe counted (1 compiled frame)", ranks.AgreementQuantities},
		{"3 frames", 3, 0, "rank 2: 0 breaks, recompiles not known, limit hits not known, 0 skips, 0 compile errors, runtime errors not known; " +
			"no log record names it: the 0s are as its probe counted (it also counted 3 frame compiles, which may be recompiles)",
			[]string{ranks.QuantityGraphBreaks, ranks.QuantityCompileErrors, ranks.QuantityCudagraphSkips}},
		{"a break", 1, 1, "rank 2: breaks not known, 0 recompiles, 0 limit hits, 0 skips, 0 compile errors, runtime errors not known; " +
			"no log record names it: the 0s are as its probe counted (it also counted 1 graph break)",
			[]string{ranks.QuantityRecompiles, ranks.QuantityCompileErrors, ranks.QuantityCudagraphSkips}},
		{"no counters", -1, 0, "rank 2: counts not known: no log record names it (known from its probe)", nil},
	} {
		a := synthPartialAnalysis(3, sameBreak, nil, c.frames, c.breaks)
		if l := perRankLine(t, a, "rank 2"); l != c.line {
			t.Errorf("%s: Per rank line\n%q\nwant\n%q", c.name, l, c.line)
		}
		u := a.Report.PerRankUnknown
		if len(u) != 1 || u[0].Rank != 2 {
			t.Fatalf("%s: per_rank_unknown %+v", c.name, u)
		}
		var none []string
		if u[0].Probe != nil {
			none = u[0].Probe.None
		}
		if !slices.Equal(none, c.none) {
			t.Errorf("%s: probe counted none of %v, want %v", c.name, none, c.none)
		}
		// the one source: rank agreement compared rank 2 on the quantities its probe counted none of
		for _, pc := range a.RankAgreement.FromProbe {
			if pc.Rank == 2 && !slices.Equal(pc.ComparedOn, none) {
				t.Errorf("%s: compared on %v, the Per rank's 0s are of %v", c.name, pc.ComparedOn, none)
			}
		}
		var b strings.Builder
		if err := render.WriteReport(&b, a, "json", text.Options{}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Unknown []struct {
				Probe *struct {
					None     []string `json:"none"`
					NotKnown []string `json:"not_known"`
					Counted  []string `json:"counted"`
				} `json:"probe_counts"`
			} `json:"per_rank_unknown"`
			Agreement struct {
				FromProbe []map[string]any `json:"from_probe"`
			} `json:"rank_agreement"`
		}
		if err := json.Unmarshal([]byte(b.String()), &doc); err != nil || len(doc.Unknown) != 1 {
			t.Fatalf("%s: JSON %v: %.600s", c.name, err, b.String())
		}
		if p := doc.Unknown[0].Probe; (p == nil) != (c.none == nil) || p != nil && (!slices.Equal(p.None, c.none) ||
			len(p.None)+len(p.NotKnown) != len(ranks.AgreementQuantities) || len(p.NotKnown) != len(p.Counted)) {
			t.Errorf("%s: per_rank_unknown's probe_counts %+v, want none of %v", c.name, p, c.none)
		}
		for _, pc := range doc.Agreement.FromProbe { // from_probe keeps its own fields (compared_on): no copy
			if _, ok := pc["probe_counts"]; ok {
				t.Errorf("%s: from_probe %v", c.name, pc)
			}
		}
	}
}
