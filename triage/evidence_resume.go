package triage

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// resumeBreaks lists, sorted, the distinct breaks the resume functions of recompiles and limit hits show.
func resumeBreaks(rep *report.Report, snap *report.DetailSnap) []report.ResumeBreak {
	seen := map[report.ResumeBreak]bool{}
	if snap != nil {
		for _, g := range snap.Groups {
			if g.Key.Resume > 0 {
				seen[report.ResumeBreak{Function: g.Key.Fn, File: g.Key.File, Line: g.Key.Resume}] = true
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		if fn, line := guard.FoldFunction(l.Function); line > 0 {
			seen[report.ResumeBreak{Function: fn, File: l.File, Line: line}] = true
		}
	}
	out := make([]report.ResumeBreak, 0, len(seen))
	for b := range seen {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// resumeText words the breaks resume functions show: "f at r01_branch_print.py:6", the first few.
func resumeText(bs []report.ResumeBreak) string {
	var parts []string
	for i, b := range bs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(bs)-i))
			break
		}
		parts = append(parts, b.Function+" at "+findings.SiteText(b.File, b.Line))
	}
	return strings.Join(parts, ", ")
}

// resumeHint follows why graph breaks were not counted with the breaks resume functions show ("; a resume
// function shows one at r01_branch_print.py:6"), "" for other kinds or none.
func (a *Analysis) resumeHint(k findings.Kind) string {
	rb := a.Evidence.ResumeBreaks
	switch {
	case k != findings.KindGraphBreak || len(rb) == 0:
		return ""
	case len(rb) == 1:
		return "; a resume function shows one at " + findings.SiteText(rb[0].File, rb[0].Line)
	}
	return "; resume functions show " + strconv.Itoa(len(rb)) + " (" + resumeText(rb) + ")"
}
