package ladder

import (
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// What PyTorch's own debugging tools print: the accuracy check of the minifier (TORCHDYNAMO_REPRO_AFTER with
// TORCHDYNAMO_REPRO_LEVEL=4), the files the minifier writes, the launcher's minification and the compiler
// bisector's verdict (torch/_dynamo/repro/after_aot.py, after_dynamo.py, debug_utils.py, _functorch/fx_minifier.py,
// torch/_inductor/compiler_bisector.py; the strings of 2.6 and 2.14 as recorded, docs: minifier-and-bisector.md
// §4-§5). ScanTools reads them from a log, glog prefixes or not; it knows nothing of what they mean for the user.

// Tools is what one log shows of PyTorch's debugging tools.
type Tools struct {
	// AccuracyFailed: the minifier's accuracy check found the compiled graph differs from eager ("Accuracy failed
	// for the AOT Autograd graph model__0_inference_0", 2.6's "… for the TorchDynamo produced graph. …").
	AccuracyFailed bool
	// Graph is the graph the check failed ("model__0_inference_0"; "" for the TorchDynamo graph, which it does
	// not name); After is the stage it checked after: "aot" or "dynamo".
	Graph, After string
	// RMSE is the first "RMSE (res-fp64): A, (ref-fp64): B … tol: T" line: the compiled result's error against
	// the fp64 reference (A), eager's (B) and the tolerance; nil when none was printed.
	RMSE *RMSE
	// AccuracySkipped: the check itself ran into an exception and counted the graph as passing ("While minifying
	// the program in accuracy minification mode, ran into a runtime exception which is likely an unrelated issue.
	// Skipping this graph."): nothing was checked.
	AccuracySkipped bool
	// Launcher is the minifier launcher torch wrote (after "Writing minified repro to:", or 2.6's "Minifier
	// script written to P."); Repro the repro.py it copied or wrote ("Copying repro file for convenience to P",
	// "Copying P to Q for convenience"); Checkpoints the checkpoints it wrote, in order.
	Launcher, Repro string
	Checkpoints     []string
	// Minify is the launcher's minification: the nodes it started from and ended at, its queries and whether it
	// wrote the minimal repro ("Wrote minimal repro out to repro.py"); nil when the log shows none.
	Minify *Minification
	// Bisect is the compiler bisector's verdict; nil when the log holds none.
	Bisect *Bisection
}

// RMSE is one accuracy comparison of the minifier (torch._dynamo.utils.same): the compiled result's RMSE against
// the fp64 reference, eager's, and the tolerance it was held to.
type RMSE struct {
	Result, Ref, Tol float64
	Line             string // the line as printed, prefix aside
}

// Minification is what the minifier launcher printed of its work.
type Minification struct {
	From, To int  // nodes at "Started off with N nodes", and at the last "SUCCESS: Went from A to B nodes" (From when none)
	Queries  int  // "Made N queries"; 0 when it did not get there
	Wrote    bool // "Wrote minimal repro out to repro.py"
}

// Bisection is the compiler bisector's verdict ("Bisection complete: BisectionResult(backend='inductor',
// subsystem='lowerings', bisect_number=2, debug_info='relu')", the API's "do_bisect returned: …", or "Binary
// search completed for B - S. The bisect number is N. Debug info: D").
type Bisection struct {
	Found     bool   `json:"found"`      // false: "Bisection complete: no issue found" (or "… returned: None")
	Backend   string `json:"backend"`    // the first backend that fails: eager, aot_eager, aot_eager_decomp_partition, …, inductor
	Subsystem string `json:"subsystem"`  // the subsystem that fixes it when disabled ("lowerings", "decomposition"); "" when not found
	Number    int    `json:"number"`     // the bisect number: the 0-based application of the subsystem that breaks; -1 unknown
	DebugInfo string `json:"debug_info"` // what that application was ("relu", "<OpOverload(op='aten.cos', overload='default')>"); "" unknown
	System    string `json:"system"`     // "The issue is in the X system" seen before any verdict: the backend alone
}

var (
	rmseRE      = regexp.MustCompile(`^RMSE \(res-fp64\): ([0-9.eE+-]+|nan|inf), \(ref-fp64\): ([0-9.eE+-]+|nan|inf)\b.*?\btol: ([0-9.eE+-]+)`)
	resultRE    = regexp.MustCompile(`BisectionResult\(backend='([^']*)', subsystem=(?:'([^']*)'|None), bisect_number=(-?\d+|None), debug_info=(.*)\)\s*$`)
	binaryRE    = regexp.MustCompile(`^Binary search completed for (\S+) - (\S+)\. The bisect number is (-?\d+)\. Debug info: (.*)$`)
	issueInRE   = regexp.MustCompile(`^The issue is in the (\S+) system\b`)
	startedRE   = regexp.MustCompile(`^Started off with (\d+) nodes`)
	wentRE      = regexp.MustCompile(`^SUCCESS: Went from (\d+) to (\d+) nodes`)
	queriesRE   = regexp.MustCompile(`^Made (\d+) queries`)
	checkptRE   = regexp.MustCompile(`^Writing checkpoint with \d+ nodes to (\S+)`)
	copyToRE    = regexp.MustCompile(`^Copying repro file for convenience to (\S+)`)
	copyDynRE   = regexp.MustCompile(`^Copying \S+ to (\S+) for convenience`)
	scriptAtRE  = regexp.MustCompile(`Minifier script written to (\S+?)\.? Run this script`)
	launcherEnd = "minifier_launcher.py"
)

// ScanTools reads what r shows of PyTorch's debugging tools.
func ScanTools(r io.Reader) (Tools, error) {
	var t Tools
	s := toolScan{t: &t}
	err := logparse.Parse(r, logparse.Options{KeepText: true, Rank: -1}, func(rec *logparse.Record) {
		for _, l := range rec.Lines {
			s.line(l)
		}
	})
	return t, err
}

type toolScan struct {
	t           *Tools
	wantLauncer bool // the last line was "Writing minified repro to:": the path is the next
}

func (s *toolScan) line(l string) {
	t := s.t
	l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), ">>  "))
	if i := strings.Index(l, "] "); i > 0 && l[0] == '[' { // a compile id "[0/0] " after the glog prefix
		if _, ok := logparse.ParseCompileID(l[1:i]); ok {
			l = l[i+2:]
		}
	}
	if s.wantLauncer {
		s.wantLauncer = false
		if strings.HasSuffix(l, launcherEnd) {
			t.Launcher = l
			return
		}
	}
	switch {
	case l == "":
	case l == "Writing minified repro to:":
		s.wantLauncer = true
	case strings.HasPrefix(l, "Accuracy failed for the AOT Autograd graph "):
		t.AccuracyFailed, t.After = true, "aot"
		t.Graph = strings.TrimSpace(strings.TrimPrefix(l, "Accuracy failed for the AOT Autograd graph "))
	case strings.HasPrefix(l, "Accuracy failed for the TorchDynamo produced graph"):
		t.AccuracyFailed, t.After = true, "dynamo"
	case strings.HasPrefix(l, "While minifying the program in accuracy minification mode, ran into a runtime exception"):
		t.AccuracySkipped = true
	case strings.HasPrefix(l, "RMSE (res-fp64): "):
		if m := rmseRE.FindStringSubmatch(l); m != nil && t.RMSE == nil {
			t.RMSE = &RMSE{Result: num(m[1]), Ref: num(m[2]), Tol: num(m[3]), Line: l}
		}
	case strings.HasPrefix(l, "Writing checkpoint with "):
		if m := checkptRE.FindStringSubmatch(l); m != nil {
			t.Checkpoints = append(t.Checkpoints, m[1])
		}
	case strings.HasPrefix(l, "Copying "):
		if m := copyToRE.FindStringSubmatch(l); m != nil {
			t.Repro = m[1]
		} else if m := copyDynRE.FindStringSubmatch(l); m != nil {
			t.Repro = m[1]
		}
	case strings.Contains(l, "Minifier script written to "):
		if m := scriptAtRE.FindStringSubmatch(l); m != nil {
			t.Launcher = m[1]
		}
	case strings.HasPrefix(l, "Started off with "):
		if m := startedRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			s.minify().From, s.minify().To = n, n
		}
	case strings.HasPrefix(l, "SUCCESS: Went from "):
		if m := wentRE.FindStringSubmatch(l); m != nil {
			s.minify().To, _ = strconv.Atoi(m[2])
		}
	case strings.HasPrefix(l, "Made "):
		if m := queriesRE.FindStringSubmatch(l); m != nil {
			s.minify().Queries, _ = strconv.Atoi(m[1])
		}
	case strings.HasPrefix(l, "Wrote minimal repro out to "):
		s.minify().Wrote = true
	case strings.HasPrefix(l, "Bisection complete: no issue found"), l == "do_bisect returned: None":
		t.Bisect = &Bisection{Number: -1}
	case strings.Contains(l, "BisectionResult("):
		if m := resultRE.FindStringSubmatch(l); m != nil {
			b := &Bisection{Found: true, Backend: m[1], Subsystem: m[2], Number: -1, DebugInfo: unquote(m[4])}
			if n, err := strconv.Atoi(m[3]); err == nil {
				b.Number = n
			}
			t.Bisect = b
		}
	case strings.HasPrefix(l, "Binary search completed for "):
		if m := binaryRE.FindStringSubmatch(l); m != nil && (t.Bisect == nil || !t.Bisect.Found) {
			n, _ := strconv.Atoi(m[3])
			info := m[4]
			if info == "not found" {
				info = ""
			}
			t.Bisect = &Bisection{Found: true, Backend: m[1], Subsystem: m[2], Number: n, DebugInfo: info}
		}
	case strings.HasPrefix(l, "The issue is in the "):
		if m := issueInRE.FindStringSubmatch(l); m != nil && t.Bisect == nil {
			t.Bisect = &Bisection{Backend: m[1], System: m[1], Number: -1}
		}
	}
}

func (s *toolScan) minify() *Minification {
	if s.t.Minify == nil {
		s.t.Minify = &Minification{}
	}
	return s.t.Minify
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// unquote undoes Python's repr of a string ('relu', "<OpOverload(…)>"); anything else is kept as printed.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	if s == "None" {
		return ""
	}
	return s
}
