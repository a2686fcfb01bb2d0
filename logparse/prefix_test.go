package logparse

import "testing"

// LineHead finds the glog head behind the rank prefix; the rank prefix and the body (compile id first) stay.
func TestLineHead(t *testing.T) {
	for _, c := range []struct{ line, kept string }{
		{"[rank1]:V1127 06:16:51.121000 13530 torch/_dynamo/symbolic_convert.py:5368] [1/0] [__graph_breaks] Graph break", "[rank1]:[1/0] [__graph_breaks] Graph break"},
		{"V1207 20:58:24.060000 21936 torch/_dynamo/guards.py:5621] [0/1] [__recompiles] Recompiling function forward", "[0/1] [__recompiles] Recompiling function forward"},
		{"[W1121 08:33:28.753247456 ProcessGroupGloo.cpp:527] Warning: Unable to resolve", "Warning: Unable to resolve"},
		{"step 3 loss 0.25", ""},
	} {
		from, to, ok := LineHead([]byte(c.line))
		if !ok {
			if c.kept != "" {
				t.Errorf("%q: no head", c.line)
			}
			continue
		}
		if got := c.line[:from] + c.line[to:]; got != c.kept {
			t.Errorf("%q without its head: %q, want %q", c.line, got, c.kept)
		}
	}
}
