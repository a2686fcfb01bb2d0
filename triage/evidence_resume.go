package triage

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// resumeBreaks lists, sorted, the distinct breaks the resume functions of recompiles and limit hits show.
func resumeBreaks(rep *Report, snap *detailSnap) []ResumeBreak {
	seen := map[ResumeBreak]bool{}
	if snap != nil {
		for _, g := range snap.groups {
			if g.key.resume > 0 {
				seen[ResumeBreak{Function: g.key.fn, File: g.key.file, Line: g.key.resume}] = true
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		if fn, line := FoldFunction(l.Function); line > 0 {
			seen[ResumeBreak{Function: fn, File: l.File, Line: line}] = true
		}
	}
	out := make([]ResumeBreak, 0, len(seen))
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
func resumeText(bs []ResumeBreak) string {
	var parts []string
	for i, b := range bs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(bs)-i))
			break
		}
		parts = append(parts, b.Function+" at "+siteText(b.File, b.Line))
	}
	return strings.Join(parts, ", ")
}

// resumeHint follows why graph breaks were not counted with the breaks resume functions show ("; a resume
// function shows one at r01_branch_print.py:6"), "" for other kinds or none.
func (a *Analysis) resumeHint(k Kind) string {
	rb := a.Evidence.ResumeBreaks
	switch {
	case k != KindGraphBreak || len(rb) == 0:
		return ""
	case len(rb) == 1:
		return "; a resume function shows one at " + siteText(rb[0].File, rb[0].Line)
	}
	return "; resume functions show " + strconv.Itoa(len(rb)) + " (" + resumeText(rb) + ")"
}
