package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// ranksStrip is the main screen's status line: per-rank counts, disagreement highlighted, and the guided step.
// Where not all fits, its items give way in this order, each in its longest form that fits: the step's title (cut
// at a word, then dropped); the wording of the checklist's progress ("2 of 6 done · step 4/6" becomes "step 4/6 ·
// 2 done"); the agreement's detail, down to its shortest form ("not compared (R)", "⚠ disagree (R)", "compiles
// differ (R)"); the reason of "nothing compiled (…)" (the verdict says it); the checklist's progress ("step 4/6"
// alone). Where even the shortest forms do not fit, whole items of the left part give way to "· …".
func (m *Model) ranksStrip(w int) string {
	th := m.th
	left := ""
	var agree []string // the ranks' agreement, its whole words first, then shorter forms (R's view says the rest)
	if r := m.cur; r != nil && r.snap != nil {
		s := r.snap
		// the counts by the bringup log's and the runs list's rules (story.RulesOf, countItems): floors while the
		// run goes on or where it stopped short, "no torch output yet", no count of a kind not logged
		switch a := s.analysis; {
		case a == nil || a.Report == nil:
			left = "no findings yet"
		case !a.Evidence.TorchSeen:
			left = story.Uncounted(a) // as the report says: "no torch output yet", "no torch output: nothing counted"
		case len(s.ranks) == 0:
			procs := "1 process"
			if a.Evidence.Torchrun || a.Evidence.Processes > 1 {
				procs = a.Evidence.ProcessesText() // the report's words: "torchrun job, no rank prefix"
			} else if n := processes(r); n > 1 { // the probe saw several start; no line says a rank
				procs = fmt.Sprintf("%d processes, no rank prefix", n)
			}
			left = procs + " · " + strings.Join(countItems(a, story.CountGraphBreaks, story.CountRecompiles), " · ")
		default:
			rl := story.RulesOf(a)
			var parts []string
			for _, rk := range s.ranks {
				p := fmt.Sprintf("r%d", rk)
				if c, ok := s.perRank[rk]; ok { // a rank no record names: its counts are not known
					p += rankCount(rl, story.CountGraphBreaks, c.GraphBreaks, "b") + rankCount(rl, story.CountRecompiles, c.Recompiles, "rc")
				}
				parts = append(parts, p)
			}
			left = "ranks " + strings.Join(parts, " · ")
			if none := story.Uncounted(a); none != "" { // no rank has a count: "nothing compiled (…)"
				left += " · " + none
			}
			notCompared := []string{th.dim.Render("not compared (R)"), th.dim.Render("not compared")}
			switch {
			case len(s.agree.SoFar) > 0: // a difference so far that triage did not earn yet: never "agree"
				agree = soFarForms(th, s.agree)
			case s.agree.Compiles != nil: // the ranks' probes recorded different compiles: never plain "agree"
				agree = compilesForms(th, s.agree)
			case s.agree.Live: // nothing differs yet
				agree = []string{th.good.Render("agree so far")}
			case s.agree.Cut: // the header says how it ended
				agree = append([]string{th.dim.Render("not compared: the run did not complete")}, notCompared...)
			case s.agree.NotCompared != "":
				agree = append([]string{th.dim.Render("not compared: " + s.agree.NotCompared)}, notCompared...)
			case s.agree.Disagree():
				agree = []string{th.warn.Render("⚠ disagree: "+shortAgreement(s.agree)) + th.dim.Render(" (R)"),
					th.warn.Render("⚠ disagree") + th.dim.Render(" (R)")}
			case len(s.agree.SettingsDiffer) > 0: // they logged the same, with different settings
				agree = []string{th.warn.Render("⚠ settings differ") + th.dim.Render(" (R)")}
			case len(s.ranks) > 1:
				agree = []string{th.good.Render("agree")}
			}
		}
	}
	bases := []string{left} // the counts, then with "nothing compiled (…)" short of its reason (the verdict says it)
	if r := m.cur; r != nil && r.snap != nil && r.snap.analysis != nil {
		if none := story.Uncounted(r.snap.analysis); strings.HasSuffix(none, ")") && strings.Contains(left, none) {
			if i := strings.Index(none, " ("); i > 0 {
				bases = append(bases, strings.Replace(left, none, none[:i], 1))
			}
		}
	}
	if c := m.compileText(); c != "" {
		for i := range bases {
			bases[i] = th.warn.Render("⚙ "+c) + " · " + bases[i]
		}
	}
	note := ""
	if r := m.cur; r != nil && r.snap != nil && r.note != "" {
		note = " · " + th.dim.Render(r.note)
	}
	if len(agree) == 0 {
		agree = []string{""}
	}
	// the first forms that fit, in the order the doc comment gives (the step's title fits in what the others leave)
	var line, right string
	fits := false
	for _, levels := range [][]int{{0, 1}, {2}} { // the checklist's progress kept (long, then short), then dropped
		for _, b := range bases {
			for _, a := range agree {
				line = " " + b
				if a != "" {
					line += " · " + a
				}
				line += note
				for _, level := range levels {
					right = m.stepText(w-cells.Width(line)-stripGap-1, level)
					if fits = cells.Width(line)+stripGap+cells.Width(right)+1 <= w; fits {
						break
					}
				}
				if fits {
					break
				}
			}
			if fits {
				break
			}
		}
		if fits {
			break
		}
	}
	if !fits { // even the shortest forms do not fit: the left part gives way, whole items first
		line = cutItems(line, max(w-stripGap-cells.Width(right)-1, 0))
	}
	return cells.Spread(line, right+" ", w)
}

// cutItems cuts a styled "item · item · item" line to at most w cells after its last whole item that fits,
// ending in " · …", else at a word (cutWords): cutParts for a styled line, through the same lastPart.
func cutItems(s string, w int) string {
	if cells.Width(s) <= w {
		return s
	}
	plain := ansi.Strip(s)
	if best := cells.LastPart(plain, w); best > 0 && strings.TrimSpace(plain[:best]) != "" {
		return ansi.Truncate(s, cells.Width(plain[:best]), "") + cells.PartSep + cells.Ellipsis
	}
	return cells.CutWords(s, w)
}

// stripGap is the least room between the ranks strip's two parts: three spaces, so they never read as one.
const stripGap = 3

// stepText is the strip's right part at a level: 0 "2 of 6 done · step 4/6 Check CUDA graphs ▸ n", the step's
// title cut at a word to fit w cells, else without it ("2 of 6 done · step 4/6 ▸ n"); 1 "step 4/6 · 2 done ▸ n";
// 2 "step 4/6 ▸ n". A step before the six (the crash, no torch output) has its phrase for "step 4/6" and no short
// count ("0 done" beside a phrase says not of what): level 1 is level 0. With no step left it is "6 of 6 done ▸ n"
// at every level. A level's form may be wider than w: the caller measures.
func (m *Model) stepText(w, level int) string {
	th := m.th
	step, done := m.nextStep()
	if step.ID == "" {
		return th.good.Render(doneCount(done)) + " ▸ n"
	}
	key := " ▸ " + th.key.Render("n")
	what := fmt.Sprintf("step %d/6", step.N)
	if step.N == 0 { // a step before the six: no number, no title
		what = step.Phrase()
	}
	switch {
	case level == 1 && step.N > 0:
		return what + fmt.Sprintf(" · %d done", len(done)) + key
	case level >= 2:
		return what + key
	}
	head := doneCount(done) + " · " + what
	if step.N == 0 {
		return head + key
	}
	if s := head + " " + step.Title + key; cells.Width(s) <= w {
		return s
	}
	if room := w - cells.Width(head+" "+key); room >= 8 {
		if t := cells.WordPrefix(step.Title, room-1); cells.Width(t) >= 5 {
			return head + " " + t + cells.Ellipsis + key
		}
	}
	return head + key
}

// ranksText is the rank view: groups of identical ranks, what each group has extra or lacks, the first divergent
// compile, per-rank counts, config parity from the probe, and a ranks × findings matrix.
func (m *Model) ranksText(w int) (string, []string) {
	th := m.th
	r := m.cur
	if r == nil || r.snap == nil {
		return "Ranks", []string{" no run yet"}
	}
	s := r.snap
	var lines []string
	if len(s.ranks) < 2 {
		switch {
		case len(s.ranks) == 1:
			lines = append(lines, fmt.Sprintf(" only rank %d seen: nothing to compare", s.ranks[0]))
		case s.analysis != nil && s.analysis.Evidence.Torchrun:
			lines = append(lines, " torchrun job: no rank prefixes in the log ([rankN]:), ranks not compared")
		case s.analysis != nil && s.analysis.Evidence.Processes > 1: // torch's lines name several pids
			lines = append(lines, fmt.Sprintf(" %d processes: no rank prefixes in the log ([rankN]:), ranks not compared",
				s.analysis.Evidence.Processes))
		case r.done && s.analysis != nil && !s.analysis.Evidence.TorchSeen:
			lines = append(lines, " no torch output: no process to compare")
		default: // the report's "Rank agreement: single process"
			lines = append(lines, " single process: no ranks to compare")
		}
	} else {
		st := th.good
		switch {
		case len(s.agree.SoFar) > 0, s.agree.Compiles != nil: // a difference so far, not earned yet; compiles differ
			st = th.warn
		case s.agree.NotCompared != "":
			st = th.dim
		case s.agree.Disagree() || len(s.agree.SettingsDiffer) > 0:
			st = th.warn
		}
		for _, l := range hang(s.agree.Summary, max(w-4, 20), " ", " ") { // the report's words, whole
			lines = append(lines, st.Render(l))
		}
		groups := s.agree.Groups
		if s.agree.NotCompared != "" && len(groups) < 2 { // one group of ranks not compared: the summary says it all
			groups = nil
		}
		soFar := len(s.agree.SoFar) > 0 // the groups as they differ so far (triage's SoFar), each item said so
		if soFar {
			groups = s.agree.SoFar
		}
		if len(groups) > 0 { // a blank line before them (the per-rank table brings its own)
			lines = append(lines, "")
		}
		for i, g := range groups {
			head := fmt.Sprintf(" %s %s", rankWord(g.Ranks), text.RankRanges(g.Ranks))
			if i == 0 && (s.agree.Disagree() || soFar) {
				head += th.dim.Render(" (reference)")
			}
			lines = append(lines, th.title.Render(head))
			lines = append(lines, groupLines(g, soFar)...)
		}
	}
	if head, places := s.analysis.StoppedAtWords(); head != "" { // a hang the tool stopped: the report's lines
		lines = append(lines, "", th.title.Render(" "+head))
		for _, p := range places {
			lines = append(lines, legend(th.dim, p, w)...)
		}
	}
	lines = append(lines, m.perRankTable(s, w)...)
	lines = append(lines, "", th.title.Render(" Config parity (probe)"))
	missing := "" // processes that imported torch but wrote no config, where others did
	if s.analysis != nil {
		missing = s.analysis.ConfigMissing
	}
	switch {
	case len(r.probes) == 0:
		lines = append(lines, legend(th.dim, m.noProbeText(r), w)...)
	case len(r.probes) == 1 && missing != "": // others imported torch but recorded none (below)
		lines = append(lines, legend(th.dim, "1 process's config recorded: nothing to compare its versions, compile config and environment with", w)...)
	case len(r.probes) == 1: // nothing to match: no comparison was made
		lines = append(lines, legend(th.dim, "1 process probed: no other to compare its versions, compile config and environment with", w)...)
	case len(r.parity) == 0:
		lines = append(lines, legend(th.good, fmt.Sprintf("%d processes: versions, compile config and environment match", len(r.probes)), w)...)
	default:
		for _, d := range r.parity {
			var vals []string
			for v, ranks := range d.Values {
				vals = append(vals, fmt.Sprintf("%s on %s", v, joinInts(ranks)))
			}
			sort.Strings(vals)
			for i, l := range cells.Wrap(d.Key+": "+strings.Join(vals, " · "), max(w-7, 20)) {
				if i == 0 { // the key in colour, as before
					k, rest, _ := strings.Cut(l, ": ")
					lines = append(lines, th.warn.Render("   "+k)+": "+rest)
					continue
				}
				lines = append(lines, "     "+l)
			}
		}
	}
	if len(r.probes) > 0 && missing != "" {
		lines = append(lines, legend(th.warn, missing, w)...)
	}
	if len(s.ranks) > 1 {
		lines = append(lines, "")
		lines = append(lines, m.rankMatrix(s, w-2)...)
	}
	return "Ranks", lines
}
