package triage

import (
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// tally counts what the verdict and the next step look at.
type tally struct {
	breaks, unexpectedBreaks, expectedBreaks int
	recompiles, unexpectedRecompiles         int
	staticRecompiles                         int // of unexpectedRecompiles, those of torch.compile(dynamic=False)
	limits, skips, errors, fullgraphErrors   int
	runtime, partitions, rerecords           int
	parity                                   int
	caught, caughtFullgraph                  int // compile errors the program caught (no process died of them); fullgraph's of them
	firstCaught                              *findings.Finding
	firstBreak, firstRecompile, firstLimit   *findings.Finding
	firstError, firstRuntime, firstGPU       *findings.Finding
	firstSkip, firstCrashError               *findings.Finding // firstCrashError: the first compile error not fullgraph's break
	firstRerecord                            *findings.Finding
	cgWarnings                               int // CUDA-graph warnings whose playbook says fix (fast path missed)
	firstCGWarning                           *findings.Finding
	peerGone                                 int // processes that died of their peer's failure (not in runtime)
	firstPeerGone                            *findings.Finding
	probeMismatch                            int               // processes whose probe counted breaks the log does not show
	silentFailures                           int               // of them, processes with compile failures the log does not show
	FirstProbeMismatch                       *findings.Finding // the first of them
	hang                                     *findings.Finding // the hang finding (one a run at most)
	suppressed                               int               // frames Dynamo gave up on (WON'T CONVERT): they run eager
	firstSuppressed                          *findings.Finding
	afterWarmup                              int // compiles past the warm-up (compile_after_warmup records)
	firstAfterWarmup                         *findings.Finding
	wrong                                    int // processes whose accuracy check found the compiled result wrong
	firstWrong                               *findings.Finding
}

// count adds f's records to n and keeps f as *first when it is the first such finding.
func count(n *int, first **findings.Finding, f *findings.Finding) {
	*n += f.Records
	if *first == nil {
		*first = f
	}
}

func CountFindings(fs []findings.Finding) tally {
	var t tally
	for i := range fs {
		f := &fs[i]
		switch f.Kind {
		case findings.KindHang:
			t.hang = f
		case findings.KindCompileAfterWarmup:
			count(&t.afterWarmup, &t.firstAfterWarmup, f)
		case findings.KindAccuracy:
			count(&t.wrong, &t.firstWrong, f)
		case findings.KindGraphBreak:
			t.breaks++
			if f.Expected {
				t.expectedBreaks++
			} else {
				t.unexpectedBreaks++
				if t.firstBreak == nil {
					t.firstBreak = f
				}
			}
		case findings.KindRecompile:
			t.recompiles += f.Records
			t.unexpectedRecompiles += f.Unexpected()
			if f.CompiledAt.Static() { // torch.compile(dynamic=False): no automatic dynamic to go beyond
				t.staticRecompiles += f.Unexpected()
			}
			if f.Unexpected() > 0 && t.firstRecompile == nil {
				t.firstRecompile = f
			}
		case findings.KindLimitHit:
			count(&t.limits, &t.firstLimit, f)
		case findings.KindCudagraphSkip:
			count(&t.skips, &t.firstSkip, f)
		case findings.KindCompileError:
			fullgraph := strings.HasSuffix(f.What, "Unsupported") // fullgraph refused a break: the breaks step fixes it
			if f.Suppressed {
				count(&t.suppressed, &t.firstSuppressed, f)
				continue
			}
			if f.Caught {
				count(&t.caught, &t.firstCaught, f)
				if fullgraph {
					t.caughtFullgraph += f.Records
				}
				continue
			}
			t.errors += f.Records
			if fullgraph {
				t.fullgraphErrors += f.Records
			} else if t.firstCrashError == nil {
				t.firstCrashError = f
			}
			if t.firstError == nil {
				t.firstError = f
			}
		case findings.KindRuntimeError:
			if f.PeerGone {
				count(&t.peerGone, &t.firstPeerGone, f)
				continue
			}
			count(&t.runtime, &t.firstRuntime, f)
		case findings.KindCudagraphPartition:
			count(&t.partitions, &t.firstGPU, f)
		case findings.KindCudagraphRerecord:
			t.rerecords += f.Unexpected() // the re-recordings shown, not failed checks
			if f.Unexpected() > 0 && t.firstRerecord == nil {
				t.firstRerecord = f
			}
		case findings.KindGPUWarning:
			if f.CgWarningToFix() {
				count(&t.cgWarnings, &t.firstCGWarning, f)
			}
		case findings.KindConfigParity:
			t.parity++
		case findings.KindProbeMismatch:
			t.probeMismatch++
			if f.SilentFailure {
				t.silentFailures++
			}
			if t.FirstProbeMismatch == nil {
				t.FirstProbeMismatch = f
			}
		}
	}
	return t
}
