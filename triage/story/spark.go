package story

// Sparkline returns the distinct graph breaks and the recompiles of every run, oldest first; -1 where a run
// has no value: no analysis, the eager baseline or a run that compiled nothing, or its words give no count of
// that kind ("not logged", "not in the log", "not counted (…)"). Each value is its words' (trendPoint).
func (s *Story) Sparkline() (breaks, recompiles []int) {
	breaks, _ = s.series(CountGraphBreaks)
	recompiles, _ = s.series(CountRecompiles)
	return breaks, recompiles
}

// SparkFloors says, per run and per series of Sparkline, whether the value is a floor: exactly where the run's
// words say "≥N" (it did not complete) or "at least N" (some printed of a kind not, or not all, in the log: the
// kind was not logged, or the log was silenced). No value (-1) is no floor.
func (s *Story) SparkFloors() (breaks, recompiles []bool) {
	_, breaks = s.series(CountGraphBreaks)
	_, recompiles = s.series(CountRecompiles)
	return breaks, recompiles
}

// series is every run's trendPoint of one count (CountGraphBreaks or CountRecompiles), oldest first.
func (s *Story) series(key string) (vals []int, floors []bool) {
	vals, floors = make([]int, len(s.Runs)), make([]bool, len(s.Runs))
	for i := range s.Runs {
		vals[i], floors[i] = s.Runs[i].trendPoint(key)
	}
	return vals, floors
}

// trendPoint is one count of a run as a trend draws it, the sparkline and the log's trend line alike: none (-1)
// for a run that compiled nothing or has no analysis (compiled), else Rules.Point, the decision its words
// (CountWords, Rules.Word) say: no count, a count, or a floor.
func (r *Run) trendPoint(key string) (value int, floor bool) {
	if !r.compiled() {
		return -1, false
	}
	count := r.Counts.GraphBreaks
	if key == CountRecompiles {
		count = r.Counts.Recompiles
	}
	return RulesOf(r.an).Point(key, count)
}
