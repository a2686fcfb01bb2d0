package triage_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

func TestVerdictAndNextStep(t *testing.T) {
	cases := []struct {
		name   string
		state  string
		next   string
		done   string
		reason string
	}{
		{"torch-2.14/r05_dist_c10d.triage.log", triage.StateNotSteady, "breaks", "recompiles", "ranks disagree"},
		// no graph-break record: nothing shows graph_breaks was on, so that step is not done
		{"torch-2.6/r12_limit_str.triage.log", triage.StateNotSteady, "recompiles", "", "recompile limit hit"},
		// a trace records every compile: evidence that breaks and recompiles would show
		{"tlparse/comp_metrics.log", triage.StateSteady, "baseline", "breaks,recompiles", ""},
		// a clean 2-rank run's log under graph_breaks,recompiles shows no record: from the log alone nothing says
		// logging was on (the run dir's meta.json would): no evidence, and no step is ticked; the next step is the one
		// the verdict asks for (preset breaks), not the eager baseline
		{"torch-2.14/r06_dist_funcol.triage.log", triage.StateNoEvidence, "breaks", "", "nothing shows that graph breaks and recompiles were being logged"},
		{"torch-2.14/r07_fullgraph.triage.log", triage.StateNotSteady, "breaks", "", "compile error"},
	}
	for _, c := range cases {
		a := triage.AnalyzeFiles(t, c.name)
		if a.Verdict.State != c.state || a.Verdict.Steady != (c.state == triage.StateSteady) || a.NextStep.ID != c.next || strings.Join(a.Done, ",") != c.done {
			t.Errorf("%s: state %v next %q done %v; want %v %q %q\n%+v", c.name, a.Verdict.State, a.NextStep.ID, a.Done, c.state, c.next, c.done, a.Verdict)
		}
		if c.reason != "" && !strings.Contains(a.Verdict.Summary, c.reason) {
			t.Errorf("%s: summary %q lacks %q", c.name, a.Verdict.Summary, c.reason)
		}
		// without a probe, only a TORCH_TRACE input knows the graphs: comp_metrics.log has 3 compiles with ops
		if want := map[bool]int{true: 3, false: -1}[strings.HasPrefix(c.name, "tlparse/")]; a.Verdict.UniqueGraphs != want {
			t.Errorf("%s: unique graphs %d without probe, want %d", c.name, a.Verdict.UniqueGraphs, want)
		}
		if st := a.State(); st.Ranks != len(a.Evidence.Ranks) || st.BaselineMeasured || st.SteadyRerun {
			t.Errorf("%s: state %+v", c.name, st)
		}
	}
}

// Probe files of a 2-rank run whose ranks ran with different recompile limits and counted breaks the log
// does not show: config_parity and probe_mismatch findings, the unique graph count, and a verdict that is not
// steady.
func TestProbeFindings(t *testing.T) {
	rep, _, err := triage.BuildReport([]string{filepath.Join(triage.Fixtures, "torch-2.14/r06_dist_funcol.triage.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	probes := []report.ProcessInfo{
		{Rank: 0, PID: 10, File: "probe/rank0-10.json", Config: map[string]any{"dynamo.recompile_limit": 8},
			Counters: map[string]map[string]float64{"stats": {"unique_graphs": 3}, "graph_break": {"builtin print": 2}}},
		{Rank: 1, PID: 11, File: "probe/rank1-11.json", Config: map[string]any{"dynamo.recompile_limit": 3},
			Counters: map[string]map[string]float64{"stats": {"unique_graphs": 2}}},
	}
	a := triage.Analyze(rep, nil, probes)
	cp := triage.FindingsOf(a, findings.KindConfigParity)
	if len(cp) != 1 || cp[0].ID != "config_parity:dynamo.recompile_limit" || cp[0].Playbook != "dist-config-parity" || cp[0].Severity != "high" {
		t.Errorf("config parity: %+v", cp)
	}
	pm := triage.FindingsOf(a, findings.KindProbeMismatch)
	if len(pm) != 1 || pm[0].Ranks[0] != 0 || pm[0].Playbook != "probe-fewer-breaks-logged" {
		t.Errorf("probe mismatch: %+v", pm)
	}
	if a.Verdict.Steady || a.Verdict.UniqueGraphs != 3 || !strings.Contains(a.Verdict.Summary, "settings differ") {
		t.Errorf("verdict %+v", a.Verdict)
	}
}

// The report JSON has the schema: findings with kind, severity, category, title, playbook, related and
// evidence entries with all six keys; rank_agreement, verdict, next_step; the counts contract unchanged.
func TestReportJSONSchema(t *testing.T) {
	var out, errb bytes.Buffer
	f := filepath.Join(triage.Fixtures, "torch-2.6/r05_dist_c10d.triage.log")
	if code := reportTo(&out, "json", f); code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "counts", "per_rank", "per_rank_unknown", "graph_breaks", "recompiles", "exceptions", "findings", "rank_agreement", "verdict", "next_step"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("report JSON lacks %q", k)
		}
	}
	fs := doc["findings"].([]any)
	if len(fs) != 4 {
		t.Fatalf("%d findings", len(fs))
	}
	kinds := map[string]bool{}
	for _, x := range fs {
		m := x.(map[string]any)
		for _, k := range []string{"kind", "severity", "category", "title", "playbook", "related", "evidence"} {
			if _, ok := m[k]; !ok {
				t.Errorf("finding lacks %q: %v", k, m)
			}
		}
		kinds[m["kind"].(string)] = true
		for _, e := range m["evidence"].([]any) {
			em := e.(map[string]any)
			for _, k := range []string{"rank", "compile_id", "file", "line", "input", "input_line"} {
				if _, ok := em[k]; !ok {
					t.Errorf("evidence lacks %q: %v", k, em)
				}
			}
		}
	}
	if !kinds["rank_disagreement"] || !kinds["graph_break"] || !kinds["recompile"] {
		t.Errorf("kinds %v", kinds)
	}
	ra := doc["rank_agreement"].(map[string]any)
	groups := ra["groups"].([]any)
	if ra["agree"] != false || len(groups) != 2 || groups[1].(map[string]any)["ranks"] != "0" ||
		groups[1].(map[string]any)["first_divergent"].(map[string]any)["0/0"] != "0" {
		t.Errorf("rank_agreement %v", ra)
	}
	if doc["next_step"].(map[string]any)["id"] != "breaks" || doc["verdict"].(map[string]any)["steady"] != false {
		t.Errorf("next_step %v verdict %v", doc["next_step"], doc["verdict"])
	}
	// the rank agreement round-trips (saved reports)
	var back struct {
		RankAgreement ranks.RankAgreement `json:"rank_agreement"`
	}
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.RankAgreement.Groups[1].FirstDivergent[0] != "0/0" || back.RankAgreement.Groups[0].Ranks[0] != 1 {
		t.Errorf("round trip %+v %v", back.RankAgreement, err)
	}
}

func TestReportTextAndMarkdown(t *testing.T) {
	f := filepath.Join(triage.Fixtures, "torch-2.14/gb_recompile.triage.log")
	var out, errb bytes.Buffer
	if code := reportTo(&out, "text", f); code != 0 {
		t.Fatalf("code %d %s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"Findings (11)", "HIGH   fix      .item() breaks the graph in f (gb_recompile.py:18)",
		"playbook rc-stack-float", "Verdict: not steady: 3 graph breaks to fix or consider, 1 recompile beyond automatic dynamic, recompile limit hit",
		"Next step (2 of 6): Find graph breaks and recompiles", "Rank agreement: single process"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	out.Reset()
	if code := reportTo(&out, "markdown", f); code != 0 {
		t.Fatalf("markdown code %d", code)
	}
	md := out.String()
	for _, want := range []string{"## torchtriage report", "| severity | category | finding | where | records | playbook |",
		"| high | fix | .item() breaks the graph in f (gb\\_recompile.py:18) |", "<details><summary>", "**Next step (2 of 6):**"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.Count(md, "\n| ") < 12 {
		t.Errorf("markdown table too short:\n%s", md)
	}
}

// BenchmarkAnalyze: 10,000 distinct breaks and 100,000 records over 8 ranks, as the TUI analyses on every
// batch (target: well under 100 ms).
func BenchmarkAnalyze(b *testing.B) {
	agg := report.NewAggregator()
	reasons := []string{"Unsupported: builtin: print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False",
		"Unsupported: Tensor.item", "Data-dependent jump", "Unsupported: Input tensor for tolist must be an integer tensor"}
	n := 0
	for site := 0; site < 10000; site++ {
		for k := 0; k < 8; k++ {
			r := testlogs.SynthBreak(k, site%50, k%3, 1000+site, n)
			r.Break.Reason = reasons[site%len(reasons)]
			agg.Add(r)
			n++
		}
	}
	for i := 0; n < 100000; i++ {
		g := fmt.Sprintf("tensor 'L['x%d']' size mismatch at index 0. expected %d, actual %d", i%200, i, i+1)
		agg.Add(testlogs.SynthRecompile(i%8, i%20, 1+i%7, fmt.Sprintf("fn%d", i%40), g, n))
		n++
	}
	rep := agg.Report()
	if rep.Counts.GraphBreaks != 10000 {
		b.Fatalf("%d breaks", rep.Counts.GraphBreaks)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := triage.Analyze(rep, nil, nil)
		if len(a.Findings) < 10000 {
			b.Fatal(len(a.Findings))
		}
	}
}

// Reports not built by an Aggregator (empty, nil, decoded from saved JSON) analyse without panicking; a
// decoded report keeps its breaks, skips and errors (recompiles need the records, which JSON does not hold).
func TestAnalyzeHandMadeReports(t *testing.T) {
	if a := triage.Analyze(nil, nil, nil); len(a.Findings) != 0 || a.Verdict.State != triage.StateNoEvidence || a.NextStep.ID != "evidence" || len(a.Done) != 0 {
		t.Errorf("nil report: %+v", a)
	}
	if a := triage.Analyze(&report.Report{Ranks: []int{0, 1}}, nil, nil); a.RankAgreement.Disagree() || a.RankAgreement.NotCompared == "" { // nothing logged
		t.Errorf("empty 2-rank report: %+v", a.RankAgreement)
	}
	var out bytes.Buffer
	if code := reportTo(&out, "json", filepath.Join(triage.Fixtures, "torch-2.6/r05_dist_c10d.triage.log")); code != 0 {
		t.Fatal(code)
	}
	var rep report.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	a := triage.Analyze(&rep, nil, nil)
	br := triage.FindingsOf(a, findings.KindGraphBreak)
	if len(br) != 1 || br[0].Playbook != "gb-print" || br[0].Ranks[0] != 0 || a.RankAgreement.Agree {
		t.Errorf("decoded report: %+v %+v", br, a.RankAgreement)
	}
}
