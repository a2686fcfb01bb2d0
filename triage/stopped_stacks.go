package triage

// stackPlaces adds to found (a rank's place from its interrupt traceback) the places of the ranks whose stop
// printed none, from the stack dumps the tool asked for before it stopped the run; a rank's first dump counts.
// It returns the places of dumps no rank is known of.
func (a *Analysis) stackPlaces(found map[int]StopPlace) []StopPlace {
	var unranked []StopPlace
	for _, p := range a.Report.Stacks.Places {
		r := a.Report.Stacks.DumpRank(p, a.Run)
		place := StopPlace{Rank: r, File: p.File, Line: p.Line, Class: StackDumpClass}
		if r < 0 {
			place.Processes = 1
			unranked = append(unranked, place)
			continue
		}
		if _, ok := found[r]; !ok {
			found[r] = place
		}
	}
	return unranked
}

// StackDumpClass stands, in a StopPlace, for the stack dump the place comes from (no exception was raised there).
const StackDumpClass = "stack dump"
