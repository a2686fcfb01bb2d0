package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

func TestLiveFeedMatchesReport(t *testing.T) {
	f := filepath.Join(fixtures, "torch-2.14/gb_recompile.triage.log")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLive(3, "run3")
	taken := 0
	for i := 0; i < len(data); i += 333 {
		l.Feed("stderr", data[i:min(i+333, len(data))])
		taken += len(l.TakeNew())
	}
	l.Close()
	taken += len(l.TakeNew())
	if taken != len(l.Records()) || taken == 0 {
		t.Fatalf("batches gave %d records, %d kept", taken, len(l.Records()))
	}
	want, err := triage.Load([]string{f}, triage.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Report().Counts; got != want.Report.Counts {
		t.Fatalf("live counts %+v, file counts %+v", got, want.Report.Counts)
	}
	kept, err := triage.Load([]string{f}, triage.LoadOptions{KeepRecords: true})
	if err != nil || kept.Report.Counts != want.Report.Counts || len(kept.Records) < taken {
		t.Fatalf("Load with records: %v %+v", err, kept.Report.Counts)
	}
}
