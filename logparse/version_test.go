package logparse

import "testing"

// torchVersionCases is how a torch version string reads: its major and minor number (ok false when it is no
// version). The patch number, pre-release (a0, rc1, .dev…) and local (+cu130, +git…) parts do not count.
var torchVersionCases = []struct {
	in           string
	major, minor int
	ok           bool
}{
	{"2.6.0", 2, 6, true},
	{"2.14.1", 2, 14, true},
	{"2.11.0+cu130", 2, 11, true},
	{"2.9.0a0+gitabc", 2, 9, true},
	{"2.10.0.dev20250101", 2, 10, true},
	{"2.6rc1", 2, 6, true},
	{"2.5.1", 2, 5, true},
	{"1.13.1", 1, 13, true},
	{"3.0.0", 3, 0, true},
	{"10.1", 10, 1, true},
	{"v2.6", 2, 6, true},     // a tag's spelling
	{" 2.6.0\n", 2, 6, true}, // as a shell prints it
	{"2.300.0", 2, 300, true},
	{"", 0, 0, false},
	{"torch", 0, 0, false},
	{"3abc", 0, 0, false},
	{"3", 0, 0, false},
	{"2.", 0, 0, false},
	{".6", 0, 0, false},
	{"2..6", 0, 0, false},
	{"99999999999999999999.1", 0, 0, false},
	{"2.99999999999999999999", 0, 0, false},
}

// ParseTorchVersion, the one reader of a torch version, reads the table; "at least 2.6" (is create_symbol traced)
// and an era (a trace's: the 2.x minor version its format is) read it through ParseTorchVersion and agree.
func TestTorchVersionReadersAgree(t *testing.T) {
	for _, c := range torchVersionCases {
		r, ok := ParseTorchVersion(c.in)
		if want := (TorchRelease{c.major, c.minor}); ok != c.ok || ok && r != want {
			t.Errorf("ParseTorchVersion(%q) = %v, %v, want %v, %v", c.in, r, ok, want, c.ok)
		}
		for _, at := range [][2]int{{2, 6}, {2, 11}, {3, 0}} {
			want := c.ok && (c.major > at[0] || c.major == at[0] && c.minor >= at[1])
			if got := TorchVersionAtLeast(c.in, at[0], at[1]); got != want {
				t.Errorf("TorchVersionAtLeast(%q, %d, %d) = %v, want %v", c.in, at[0], at[1], got, want)
			}
		}
		want := Era{}
		if c.ok && c.major == 2 && c.minor <= maxEraMinor {
			want = EraRange(c.minor, c.minor)
		}
		var got Era // the trace's era (logparse/trace: traceState.era, TestTraceEraIsTheRelease)
		if r, ok := ParseTorchVersion(c.in); ok {
			got = r.Era()
		}
		if got != want {
			t.Errorf("era(%q) = %q, want %q", c.in, got, want)
		}
	}
}
