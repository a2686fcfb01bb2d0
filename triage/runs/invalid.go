package runs

import (
	"regexp"
	"slices"
	"strings"
)

var (
	// launcher and rank prefixes that may precede each line of the error:
	// "[rank0]: ", "[default0]:", srun's "0: ".
	linePrefixRE = regexp.MustCompile(`^(?:\[[A-Za-z_]*\d+\]:\s?|\d+: )+`)
	listLineRE   = regexp.MustCompile(`^[A-Za-z0-9_.+\-]+(?:,\s*[A-Za-z0-9_.+\-]+)*,?$`)
)

const (
	invalidMarker = "Invalid log settings:"
	validMarker   = "Valid settings:"
)

// ParseInvalidLogSettings reads PyTorch's error for a TORCH_LOGS value it does
// not accept ("Invalid log settings: a,b, must be a comma separated list ..."
// followed by "Valid settings:" and the list) from a failed run's output.
// ok is true when the error is present. valid is PyTorch's list; unknown are
// the names of the rejected value that are not in it (compared without +/-;
// dotted module names count as unknown only when nothing else is).
func ParseInvalidLogSettings(output []byte) (unknown []string, valid []string, ok bool) {
	text := strings.ReplaceAll(string(output), "\r", "\n")
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(linePrefixRE.ReplaceAllString(lines[i], ""))
	}
	settingsAt := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, invalidMarker) })
	if settingsAt < 0 {
		return nil, nil, false
	}
	settings := lines[settingsAt][strings.Index(lines[settingsAt], invalidMarker)+len(invalidMarker):]
	if cut := strings.Index(settings, ", must be"); cut >= 0 {
		settings = settings[:cut]
	}
	valid = readValidList(lines[settingsAt+1:])
	if len(valid) == 0 {
		return nil, nil, true
	}
	var dotted []string
	for _, name := range splitList(settings) {
		base := baseLogName(name)
		switch {
		case slices.Contains(valid, base) || slices.Contains(unknown, name):
		case moduleNameRE.MatchString(base):
			dotted = append(dotted, name)
		default:
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		unknown = dotted
	}
	return unknown, valid, true
}

// readValidList reads the names after "Valid settings:" up to the first line
// that is not part of a comma list.
func readValidList(lines []string) []string {
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, validMarker) })
	if at < 0 {
		return nil
	}
	var names []string
	rest := strings.TrimSpace(lines[at][strings.Index(lines[at], validMarker)+len(validMarker):])
	if rest != "" && listLineRE.MatchString(rest) {
		names = append(names, splitList(rest)...)
	}
	for _, l := range lines[at+1:] {
		if l == "" && len(names) == 0 {
			continue
		}
		if l == "" || !listLineRE.MatchString(l) {
			break
		}
		names = append(names, splitList(l)...)
	}
	return names
}

// RejectedLogNames is which names of a run's TORCH_LOGS value (torchLogs) its torch rejected, as its output says
// (ParseInvalidLogSettings), without their +/- prefixes and each once; nil when the output shows no such error or
// it names none of them.
func RejectedLogNames(output []byte, torchLogs string) []string {
	unknown, _, ok := ParseInvalidLogSettings(output)
	if !ok {
		return nil
	}
	ours := splitList(torchLogs)
	var drop []string
	for _, u := range unknown {
		b := baseLogName(u)
		if slices.ContainsFunc(ours, func(n string) bool { return baseLogName(n) == b }) && !slices.Contains(drop, b) {
			drop = append(drop, b)
		}
	}
	return drop
}
