package triage

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// LoggedBy (are CUDA-graph skips logged without TORCH_LOGS: 2.11 and later) and runs.TorchMinor (which TORCH_LOGS names this
// torch accepts, doctor's knobs) read a version the way logparse does (logparse/version_test.go's table).
func TestTorchVersionReadersAgree(t *testing.T) {
	for _, c := range []struct {
		in           string
		major, minor int
		ok           bool
	}{
		{"2.11.0+cu130", 2, 11, true}, {"2.14.1", 2, 14, true}, {"2.9.0a0+gitabc", 2, 9, true},
		{"2.10.0.dev20250101", 2, 10, true}, {"3.0.0", 3, 0, true}, {"10.1", 10, 1, true}, {"v2.11", 2, 11, true},
		{" 2.11.0\n", 2, 11, true}, {"2.6.0", 2, 6, true}, {"", 0, 0, false}, {"torch", 0, 0, false},
		{"3abc", 0, 0, false}, {"2.99999999999999999999", 0, 0, false},
	} {
		want := c.ok && (c.major > 2 || c.major == 2 && c.minor >= 11)
		if got := report.LoggedBy("", c.in).CudagraphSkips; got != want {
			t.Errorf("LoggedBy(\"\", %q).CudagraphSkips = %v, want %v", c.in, got, want)
		}
		m, ok := runs.TorchMinor(c.in)
		if wantOK := c.ok && c.major == 2; ok != wantOK || ok && m != c.minor {
			t.Errorf("runs.TorchMinor(%q) = %d, %v, want %d, %v", c.in, m, ok, c.minor, wantOK)
		}
	}
}
