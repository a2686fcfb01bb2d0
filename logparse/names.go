package logparse

// names makes the emitters and artifacts of records into strings once: a log names a few code locations and
// TORCH_LOGS artifacts over and over. It is bounded (past maxNames distinct ones it copies each).
type names map[string]string

const maxNames = 4096

func (n *names) of(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := (*n)[string(b)]; ok { // no copy to look up
		return s
	}
	s := string(b)
	if *n == nil {
		*n = names{}
	}
	if len(*n) < maxNames {
		(*n)[s] = s
	}
	return s
}
