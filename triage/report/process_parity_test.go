package report

import (
	"reflect"
	"testing"
)

func parityInfo(rank int, limit float64, env map[string]string) ProcessInfo {
	return ProcessInfo{
		Rank: rank, PID: 100 + rank, Torch: "2.14.1", Python: "3.14.0", CUDA: "12.8",
		Config: map[string]any{"dynamo.recompile_limit": limit, "inductor.triton.cudagraphs": true},
		Env:    env,
	}
}

func TestConfigParityFindsTheRankThatDiffers(t *testing.T) {
	infos := []ProcessInfo{
		parityInfo(0, 8, map[string]string{"NCCL_ALGO": "Ring", "TORCH_LOGS": "graph_breaks", "CUDA_VISIBLE_DEVICES": "0"}),
		parityInfo(1, 8, map[string]string{"TORCH_LOGS": "graph_breaks", "CUDA_VISIBLE_DEVICES": "1"}),
		parityInfo(2, 3, map[string]string{"NCCL_ALGO": "Ring", "TORCH_LOGS": "graph_breaks", "CUDA_VISIBLE_DEVICES": "2"}),
	}
	got := ConfigParity(infos)
	want := []Difference{
		{Key: "dynamo.recompile_limit", Values: map[string][]int{"8": {0, 1}, "3": {2}}},
		{Key: "env.NCCL_ALGO", Values: map[string][]int{"Ring": {0, 2}, Missing: {1}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ConfigParity =\n%#v\nwant\n%#v", got, want)
	}
	if s := got[0].String(); s != "dynamo.recompile_limit: 8 on ranks 0,1; 3 on rank 2" {
		t.Errorf("String() = %q", s)
	}
	if s := got[1].String(); s != "env.NCCL_ALGO: Ring on ranks 0,2; (unset) on rank 1" {
		t.Errorf("String() = %q", s)
	}
}

func TestConfigParityGroupsRanksAndChecksVersions(t *testing.T) {
	var infos []ProcessInfo
	for r := 0; r < 64; r++ {
		in := parityInfo(r, 8, nil)
		if r == 17 {
			in.Torch = "2.13.0"
		}
		infos = append(infos, in)
	}
	got := ConfigParity(infos)
	if len(got) != 1 || got[0].Key != "version.torch" || len(got[0].Values) != 2 || len(got[0].Values["2.14.1"]) != 63 {
		t.Fatalf("want one grouped version difference, got %+v", got)
	}
	if !reflect.DeepEqual(got[0].Values["2.13.0"], []int{17}) {
		t.Errorf("odd rank out: %v", got[0].Values)
	}
}

func TestConfigParityQuietWhenEqual(t *testing.T) {
	a := parityInfo(0, 8, map[string]string{"NCCL_DEBUG": "WARN"})
	b := parityInfo(1, 8, map[string]string{"NCCL_DEBUG": "WARN"})
	if d := ConfigParity([]ProcessInfo{a, b}); d != nil {
		t.Errorf("equal ranks: %+v", d)
	}
	if d := ConfigParity([]ProcessInfo{a}); d != nil {
		t.Errorf("one rank: %+v", d)
	}
}

// A process that recorded no settings (it never compiled, or died before the probe wrote them) is unknown, not
// different: no parity finding from what it did not record. An unset variable in a recorded environment still is.
func TestConfigParityIgnoresWhatWasNotRecorded(t *testing.T) {
	full := ProcessInfo{Rank: 0, Torch: "2.14.1", CUDA: "12.8", Config: map[string]any{"dynamo.recompile_limit": 8.0},
		Env: map[string]string{"TORCHINDUCTOR_MAX_AUTOTUNE": "1", "HOME": "/root"}}
	bare := ProcessInfo{Rank: 1, Torch: "2.14.1"}
	if d := ConfigParity([]ProcessInfo{full, bare}); len(d) != 0 {
		t.Errorf("differences from an unrecorded process: %v", d)
	}
	other := ProcessInfo{Rank: 1, Torch: "2.14.1", CUDA: "12.8", Config: map[string]any{"dynamo.recompile_limit": 8.0},
		Env: map[string]string{"HOME": "/root"}}
	d := ConfigParity([]ProcessInfo{full, other})
	if len(d) != 1 || d[0].Key != "env.TORCHINDUCTOR_MAX_AUTOTUNE" {
		t.Errorf("an unset variable on one rank: %v", d)
	}
}
