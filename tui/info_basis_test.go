package tui

import (
	"strings"
	"testing"
)

// The info screen (i) says what the verdict rests on in the report's words ("Based on:", the JSON's
// verdict.basis): of the diverged hang, the probe's compile states its rank agreement read. The TUI said it nowhere.
func TestInfoSaysWhatTheVerdictRestsOn(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 40, recordedRun("diverged-hang", "0001-breaks"))
		press(m, "i")
		s := plain(m)
		joined := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(s)), " ")
		want := "based on torch seen in torch log lines, torch.compile records, a traceback through torch, probe " +
			"(torch imported); TORCH_LOGS from the run: graph_breaks,recompiles; run stopped; 2 ranks; probe compile " +
			"states of ranks 0,1"
		if !strings.Contains(joined, want) {
			t.Errorf("%d columns: info lacks %q:\n%s", w, want, s)
		}
	}
}
