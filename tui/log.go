package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// logState is the log view: scroll position, follow mode, search and rank filter. Update keeps page and off
// (layoutLog) and the rank filter's positions (sync); View only reads them.
type logState struct {
	off    int // first shown position (in the filtered list when a rank filter is on)
	cur    int // marked position (a jump target or search hit), -1 none
	follow bool
	query  string
	rank   int // -1: every line
	page   int // lines shown
	hoff   int // horizontal scroll, cells
	filt   logFilter
	// searchGen numbers the searches: only the latest one's result moves the view; searching is the flash
	// it shows meanwhile
	searchGen int
	searching string
	// hits are the positions of every line the query matches (in the shown order), as the last search found
	// them over hitsOf lines: n and N move among them, and the status says "match i of N"
	hits      []int
	hitsOf    int
	hitsQuery string
	bare      bool // P: lines without their glog head (rank prefix and compile id kept)
	wrap      bool // W: long lines wrapped, not cut
}

// matchOf is the marked line's place among the hits: i of total, when the hits are of the log as shown (n lines)
// and the marked line is one.
func (lv *logState) matchOf(n int) (i, total int, ok bool) {
	if lv.hits == nil || lv.hitsOf != n || lv.cur < 0 {
		return 0, 0, false
	}
	j, found := slices.BinarySearch(lv.hits, lv.cur)
	return j + 1, len(lv.hits), found
}

// logFilter is the positions of one run's lines of one rank, extended as the log grows.
type logFilter struct {
	pos       []int32
	run, rank int
	scanned   int
}

// openLog shows the log; at >= 0 jumps to that line, else follows the end.
func (m *Model) openLog(at int) {
	if m.screen != screenLog {
		m.back = m.screen
	}
	m.screen = screenLog
	lv := &m.logv
	if at >= 0 {
		lv.rank, lv.follow, lv.cur = -1, false, at
		lv.off = max(at-lv.page/2, 0)
		return
	}
	lv.follow, lv.cur = m.cur != nil && !m.cur.done, -1
	lv.rank = -1
	lv.off = 1 << 30
}

// sync brings the rank filter's positions up to date with the run's log (Update only).
func (lv *logState) sync(r *runView) {
	f := &lv.filt
	if lv.rank < 0 {
		return
	}
	if f.run != r.id || f.rank != lv.rank || f.scanned > r.log.Len() {
		*f = logFilter{run: r.id, rank: lv.rank}
	}
	f.pos = appendRank(f.pos, r, lv.rank, f.scanned)
	f.scanned = r.log.Len()
}

// appendRank appends the positions of rank's lines from line from on.
func appendRank(pos []int32, r *runView, rank, from int) []int32 {
	for i := from; i < r.log.Len(); i++ {
		if r.log.Rank(i) == rank {
			pos = append(pos, int32(i))
		}
	}
	return pos
}

// index returns how many lines are shown and the log index of a shown position. It reads the positions sync
// kept; when they are not up to date (a model changed without Update) it computes them without keeping them.
func (lv logState) index(r *runView) (int, func(int) int) {
	if lv.rank < 0 {
		return r.log.Len(), func(i int) int { return i }
	}
	pos := lv.filt.pos
	if f := lv.filt; f.run != r.id || f.rank != lv.rank || f.scanned != r.log.Len() {
		pos = appendRank(nil, r, lv.rank, 0)
	}
	return len(pos), func(i int) int { return int(pos[i]) }
}

// layoutLog computes the log's page from the terminal's height and keeps the offset in range (at the end
// while following).
func (m *Model) layoutLog() {
	lv := &m.logv
	lv.page = max(m.bodyHeight(screenLog)-2, 1)
	n := 0
	if m.cur != nil {
		lv.sync(m.cur)
		n, _ = lv.index(m.cur)
	}
	if lv.follow {
		lv.off = n - lv.page
	}
	lv.off = max(min(lv.off, n-lv.page), 0)
}

func (lv *logState) scrollBy(d int) {
	lv.off = max(lv.off+d, 0)
	lv.follow = false
}

// toggleFollow follows the end of the log of a live run, or stops; a log that cannot grow (opened files, a run
// that ended) has nothing to follow.
func (m *Model) toggleFollow() {
	if !m.logGrows() {
		m.logv.follow = false
		m.flash = "the log is complete: nothing more will come (F follows a live run)"
		return
	}
	m.logv.follow = !m.logv.follow
}

// logGrows reports whether the log on show can still grow: its run is live.
func (m *Model) logGrows() bool { return m.cur != nil && !m.cur.done && m.opt.mode != modeOpen }

// move scrolls the log; the bottom follows a live run again.
func (lv *logState) move(mo motion, m *Model) {
	n := 0
	if m.cur != nil {
		n, _ = lv.index(m.cur)
	}
	lv.off = mo.apply(lv.off, n-lv.page+1, max(lv.page-1, 1))
	lv.follow = mo == toBottom && m.cur != nil && !m.cur.done
}

// searchMsg is a log search's result: the shown line found (-1: none).
type searchMsg struct {
	run, gen, at int
	query        string
	hits         []int // every line that matches, in order
	of           int   // of how many lines
}

// search looks for the next (dir 1) or previous (-1) line containing q (case-insensitive unless q has
// capitals), in a command: it reads the run's files, which may be gigabytes.
func (lv *logState) search(m *Model, q string, dir int, fresh bool) tea.Cmd {
	if m.cur == nil {
		return nil
	}
	if q == "" {
		lv.query = ""
		return nil
	}
	lv.query = q
	n, at := lv.index(m.cur)
	if n == 0 {
		return nil
	}
	start := lv.cur
	if start < 0 || fresh {
		start = lv.off - dir
		if fresh {
			start = lv.off - 1
		}
	}
	if lv.hits != nil && lv.hitsOf == n && q == lv.hitsQuery { // n/N among the hits found: no new read
		lv.moveTo(nextHit(lv.hits, start, dir))
		return nil
	}
	lv.searchGen++
	msg := searchMsg{run: m.cur.id, gen: lv.searchGen, query: q, of: n}
	log := m.cur.log
	lv.searching = "searching for " + q + "…"
	m.flash = lv.searching
	return func() tea.Msg {
		msg.hits = log.Matches(q, n, at)
		msg.at = nextHit(msg.hits, start, dir)
		return msg
	}
}

// nextHit is the first hit after start going dir (1 or -1), wrapping around; -1 when there are none.
func nextHit(hits []int, start, dir int) int {
	if len(hits) == 0 {
		return -1
	}
	j, found := slices.BinarySearch(hits, start)
	if dir > 0 {
		if found {
			j++
		}
		return hits[j%len(hits)]
	}
	return hits[(j-1+len(hits))%len(hits)]
}

// moveTo marks line at and centres it.
func (lv *logState) moveTo(at int) {
	if at < 0 {
		return
	}
	lv.cur, lv.follow = at, false
	lv.off = max(at-lv.page/2, 0)
}

// found takes a search's result (the latest search's only, while the run is still on show).
func (lv *logState) found(m *Model, msg searchMsg) {
	if msg.gen != lv.searchGen || m.cur == nil || m.cur.id != msg.run {
		return
	}
	if m.flash == lv.searching { // no other flash came meanwhile
		m.flash = ""
	}
	lv.hits, lv.hitsOf, lv.hitsQuery = msg.hits, msg.of, msg.query
	if msg.at < 0 {
		m.flash = "not found: " + msg.query
		return
	}
	lv.moveTo(msg.at)
}

// nextRankFilter is f: every line, then each rank's in turn.
func (m *Model) nextRankFilter() {
	if m.cur != nil {
		m.logv.rank = nextRank(m.cur.log.Ranks(), m.logv.rank)
		m.logv.cur, m.logv.hits = -1, nil // the hits were positions among the lines shown before
		m.logv.sync(m.cur)
	}
}

func nextRank(ranks []int, cur int) int {
	if len(ranks) == 0 {
		return -1
	}
	if cur < 0 {
		return ranks[0]
	}
	for i, r := range ranks {
		if r == cur && i+1 < len(ranks) {
			return ranks[i+1]
		}
	}
	return -1
}
