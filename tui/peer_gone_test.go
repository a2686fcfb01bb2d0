package tui

import (
	"strings"
	"testing"
)

// A rank that died of its peer's failure is no second CRASH (real 2.14.1, testdata/recorded/peer-abort: rank 0's
// "Connection closed by peer" after rank 1's ValueError): its row is tagged PEER, rank 1's stays CRASH.
func TestPeerGoneRowIsNoCrash(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/peer-abort/runs/0001-breaks")
	s := plain(m)
	if strings.Count(s, "CRASH") != 1 || !strings.Contains(s, "PEER") {
		t.Errorf("rows:\n%s", s)
	}
}
