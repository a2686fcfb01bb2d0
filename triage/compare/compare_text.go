package compare

import (
	"fmt"
	"io"

	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// WriteCompareText prints a comparison on one screen: the verdict, then what differs, biggest first.
func WriteCompareText(w io.Writer, nameA, nameB string, res Result) {
	fmt.Fprintf(w, "torchtriage compare · A %s · B %s\n%s\n", nameA, nameB, res.Verdict)
	if res.Same {
		return
	}
	for _, v := range res.Versions {
		fmt.Fprintf(w, "\nversion  %s", v)
	}
	if len(res.Versions) > 0 {
		fmt.Fprintln(w)
	}
	if len(res.Findings.Code) > 0 { // the code that ran changed (stored runs that kept theirs)
		fmt.Fprintf(w, "\ncode     %s\n", text.OneLine(runs.CodeChangesText(res.Findings.Code), 200))
	}
	if len(res.Settings) > 0 {
		fmt.Fprintln(w, "\nSettings that differ (A → B)")
		for i, s := range res.Settings {
			if i == 8 {
				fmt.Fprintf(w, "  … %d more (see --format json)\n", len(res.Settings)-i)
				break
			}
			mark := " "
			if s.Knob {
				mark = "*"
			}
			fmt.Fprintf(w, " %s %s\n", mark, text.OneLine(s.String(), 110))
		}
	}
	if d := res.Compile; d != nil {
		fmt.Fprintf(w, "\nCompile time          A        B        Δ\n")
		writeDelta(w, "total", *d)
		for _, p := range res.Phases {
			writeDelta(w, "  "+p.What, p)
		}
		for _, r := range res.Ranks {
			if r.Rank != nil && len(res.Ranks) > 1 {
				writeDelta(w, "  "+r.What, r)
			}
		}
		if res.PhaseNote != "" {
			fmt.Fprintf(w, "  (%s)\n", res.PhaseNote)
		}
	}
	if len(res.Frames) > 0 {
		fmt.Fprintln(w, "\nFrames (biggest change first)")
		for i, f := range res.Frames {
			if i == render.MaxFrameRows {
				break
			}
			label := f.What
			if f.Rank != nil {
				label = fmt.Sprintf("rank %d %s", *f.Rank, label)
			}
			writeDelta(w, "  "+label, f)
			if f.CacheA != f.CacheB {
				fmt.Fprintf(w, "      cache %s → %s\n", orDash(f.CacheA), orDash(f.CacheB))
			}
		}
	}
	if len(res.Caches) > 0 {
		fmt.Fprintln(w, "\nCaches (A → B)")
		for _, c := range res.Caches {
			fmt.Fprintf(w, "  %-13s %s → %s", c.Cache, orDash(c.A.String()), orDash(c.B.String()))
			if c.Changed() {
				fmt.Fprintf(w, "  (%s)", c.Change())
			}
			fmt.Fprintln(w)
		}
	}
	for _, id := range res.FindingsNew {
		fmt.Fprintf(w, "  new finding %s\n", id)
	}
	for _, id := range res.FindingsGone {
		fmt.Fprintf(w, "  gone finding %s\n", id)
	}
	if res.Findings.New+res.Findings.Gone+res.Findings.Changed > 0 {
		fmt.Fprintf(w, "\nBreaks, recompiles, skips, errors: %d new, %d gone, %d changed (torchtriage diff for detail)\n",
			res.Findings.New, res.Findings.Gone, res.Findings.Changed)
	}
	if c := res.Coverage; c != nil { // beside the breaks: more breaks may be more captured
		fmt.Fprintf(w, "\nCoverage (A → B): %s\n", c.Words())
	}
	if c := res.Findings.Steady; c != nil && c.shown() {
		fmt.Fprintf(w, "\nSteady state (A → B): %s\n", c.Words())
		for _, l := range c.ServingLines() {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	for _, nc := range res.NotCompared {
		fmt.Fprintf(w, "  not compared: %s\n", nc)
	}
	if m := res.Metric; m != nil {
		fmt.Fprintf(w, "\nmetric  %g → %g\n", *m.A, *m.B)
	}
}

func writeDelta(w io.Writer, label string, d Delta) {
	dd, ratio := "", ""
	if d.DeltaS != nil {
		dd = signed(*d.DeltaS)
	}
	if d.Ratio != nil {
		ratio = fmt.Sprintf(" ×%.2f", *d.Ratio)
	}
	fmt.Fprintf(w, "  %-20s %-8s %-8s %s%s\n", text.OneLine(label, 40), render.Secs(d.A), render.Secs(d.B), dd, ratio)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
