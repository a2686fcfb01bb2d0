package ladder

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

func shLadder(t *testing.T, script, mismatch string) *Ladder {
	t.Helper()
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := Run(Options{Store: store, Spec: runs.Spec{Argv: []string{"sh", "-c", script}, Dir: t.TempDir()}, Mismatch: mismatch})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The ladder end to end on commands without torch: each tier a stored run of one experiment with its backend
// forced in the environment; it stops at the first tier that is not ok and says nothing of the rest. The
// program's own comparison (--mismatch) makes a tier wrong; without it, a non-zero exit with no error torch
// printed is `failed` (a guess, said so); a run that never ran torch proves nothing.
func TestLadderStopsAtTheFirstBadTier(t *testing.T) {
	l := shLadder(t, "echo 'backend=x max_abs_diff=2.0 MISMATCH'; exit 1", "MISMATCH")
	if l.FirstBad == nil || *l.FirstBad != "eager" || l.Tiers[0].Result != Wrong ||
		!strings.Contains(l.Tiers[0].Why, `the program's own comparison: it printed "backend=x max_abs_diff=2.0 MISMATCH"`) {
		t.Fatalf("%+v", l.Tiers[0])
	}
	for _, tier := range l.Tiers[1:] {
		if tier.Result != NotRun || tier.Run != "" {
			t.Errorf("after the first bad tier: %+v", tier)
		}
	}
	m, err := runs.LoadRun(l.Tiers[0].Run)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Experiment; e == nil || e.ID != l.Experiment || e.Kind != "ladder" || e.Step != "eager" || m.Env["TORCHTRIAGE_BACKEND"] != "eager" {
		t.Errorf("the tier's run: experiment %+v, env %v", m.Experiment, m.Env)
	}
	if l := shLadder(t, "echo 'MISMATCH'; exit 1", ""); l.Tiers[0].Result != Failed || !strings.Contains(l.Tiers[0].Why, "a guess") {
		t.Errorf("without --mismatch: %+v", l.Tiers[0])
	}
	if l := shLadder(t, "echo hello", ""); l.Tiers[0].Result != NotCompiled || !strings.Contains(l.Summary, "eager shows nothing") {
		t.Errorf("no torch: %+v %q", l.Tiers[0], l.Summary)
	}
	store, _ := runs.OpenStore(t.TempDir())
	if _, err := Run(Options{Store: store, Spec: runs.Spec{Argv: []string{"true"}}, Mismatch: "("}); err == nil || !strings.Contains(err.Error(), "--mismatch") {
		t.Errorf("a bad --mismatch: %v", err)
	}
}

// Cancelling Options.Context stops the running tier's process (not left to its end) and the ladder: the tier is
// `stopped` by the user, not judged (never a hang or a failure of the program), the later tiers are not run, and
// Run says ErrStopped. The progress lines name each tier's place ("tier 1/4 eager: running").
func TestLadderStoppedByTheUser(t *testing.T) {
	store, err := runs.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancelWith := context.WithCancelCause(context.Background())
	cancel := func() { cancelWith(ErrStopped) }
	var said []string
	start := time.Now()
	l, err := Run(Options{Store: store, Spec: runs.Spec{Argv: []string{"sh", "-c", "sleep 60"}, Dir: t.TempDir()}, Context: ctx,
		Progress: func(s string) {
			said = append(said, s)
			if strings.HasSuffix(s, "running") {
				go func() { time.Sleep(300 * time.Millisecond); cancel() }()
			}
		}})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the tier ran on for %s after the stop", d)
	}
	if len(l.Tiers) != 1 || l.Tiers[0].Result != Stopped || !strings.Contains(l.Tiers[0].Why, "stopped by the user") ||
		l.FirstBad != nil || !strings.Contains(l.Summary, "stopped by the user during tier eager") {
		t.Errorf("%+v %q", l.Tiers, l.Summary)
	}
	// the tier's stored run says who stopped it, in the cause's words (not "the tool stopped its runs")
	if m, err := runs.LoadRun(l.Tiers[0].Run); err != nil || m.StopReason != ErrStopped.Error() {
		t.Errorf("the stopped tier's meta: %q %v", m.StopReason, err)
	}
	if want := []string{"tier 1/4 eager: running", "tier 1/4 eager: stopped by the user"}; strings.Join(said, "|") != strings.Join(want, "|") {
		t.Errorf("progress %q", said)
	}
}
