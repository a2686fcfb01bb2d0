package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// TorchVersion is the PyTorch version of every recording.
const TorchVersion = "2.14.1"

// Banner is the first stdout line of a replay.
func Banner(scenario, label string) string {
	return fmt.Sprintf("torchtriage demo: replaying a recording of PyTorch %s (%s, %s) — not a live run", TorchVersion, scenario, label)
}

// ReproMain is `torchtriage __demo-repro [--scenario NAME]`: it replays the
// scenario's recording chosen by TORCH_LOGS / TORCHDYNAMO_DISABLE (see
// PickRecording), writes the recorded TORCH_TRACE files when TORCH_TRACE
// names a directory, and paces lines by their recorded time stamps (each gap
// at most MaxGap) divided by TORCHTRIAGE_DEMO_SPEED (default 1). env reads
// the environment (nil: os.Getenv). Exit status: 0 done, 1 the recorded
// invalid-TORCH_LOGS failure or a write error, 2 bad arguments, 130/143 when
// SIGINT/SIGTERM stopped it.
func ReproMain(args []string, stdout, stderr io.Writer, env func(string) string) int {
	if env == nil {
		env = os.Getenv
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	var got os.Signal
	done := make(chan struct{})
	defer close(done)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case got = <-signals:
			cancel()
		case <-done:
		}
	}()
	code := run(ctx, args, stdout, stderr, env, sleepContext)
	if ctx.Err() != nil {
		<-stopped // got is set before cancel
		if got == syscall.SIGTERM {
			return 143
		}
		return 130
	}
	return code
}

// run is ReproMain without the signal wiring.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, env func(string) string,
	sleep func(context.Context, time.Duration) error) int {
	fl := flag.NewFlagSet("__demo-repro", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name := fl.String("scenario", DefaultScenario, "recording to replay")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "torchtriage demo: unexpected argument %q\n", fl.Arg(0))
		return 2
	}
	scn, err := findScenario(*name)
	if err != nil {
		fmt.Fprintf(stderr, "torchtriage demo: %v\n", err)
		return 2
	}
	speed := 1.0
	if s := env("TORCHTRIAGE_DEMO_SPEED"); s != "" {
		speed, err = strconv.ParseFloat(s, 64)
		if err != nil || !(speed > 0) {
			fmt.Fprintf(stderr, "torchtriage demo: TORCHTRIAGE_DEMO_SPEED=%q: want a number above 0 (1 = recorded speed)\n", s)
			return 2
		}
	}
	torchLogs := env("TORCH_LOGS")
	preset := PickRecording(torchLogs, env("TORCHDYNAMO_DISABLE") == "1")
	if preset == PresetInvalid {
		if _, err := fmt.Fprintln(stdout, Banner(scn.Name, "invalid TORCH_LOGS")); err != nil {
			return 1
		}
		stderr.Write(failureOutput(torchLogs))
		return 1
	}
	traceDir := env("TORCH_TRACE")
	rec, ok := scn.recordingFor(preset, traceDir != "" && preset != PresetEager)
	if !ok { // another recording would show records this TORCH_LOGS does not print
		fmt.Fprintf(stderr, "torchtriage demo: scenario %s has no recording of what TORCH_LOGS=%s prints; "+
			"its recordings replay presets %s, or another scenario has it (torchtriage demo --help)\n", scn.Name, torchLogs, strings.Join(scn.toolPresets(), ", "))
		return 2
	}
	data, err := readRecording(rec.file)
	if err != nil {
		fmt.Fprintf(stderr, "torchtriage demo: recording %s: %v\n", rec.file, err)
		return 1
	}
	if _, err := fmt.Fprintln(stdout, Banner(scn.Name, rec.label)); err != nil {
		return 1
	}
	if traceDir != "" && preset != PresetEager {
		if err := writeTrace(scn, traceDir); err != nil {
			fmt.Fprintf(stderr, "torchtriage demo: TORCH_TRACE: %v\n", err)
		}
	}
	p := &player{stdout: stdout, stderr: stderr, speed: speed, sleep: sleep}
	if err := p.play(ctx, parseLines(data), rec.keep, rec.pace); err != nil {
		if errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	return 0
}

// writeTrace writes the scenario's recorded TORCH_TRACE files into dir.
func writeTrace(scn Scenario, dir string) error {
	files, err := scn.traceFiles()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}
