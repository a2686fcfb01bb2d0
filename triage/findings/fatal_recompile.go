package findings

import (
	"cmp"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

var (
	// torch._dynamo.exc.RecompileError (error_on_recompile), 2.6 and 2.14: "Recompiling function f in /r.py:7"
	recompileErrorFn = regexp.MustCompile(`Recompiling function (\S+) in (.+?):(\d+)`)
	// the stance's RuntimeError, 2.6 and 2.14: "… stance is 'fail_on_recompile'. filename: '/r.py', function name: 'f'"
	stanceFn = regexp.MustCompile(`filename: '([^']+)', function name: '([^']+)'`)
)

// fatalRecompiles marks the recompile a fatal-recompile setting turned into the error that ended the call
// (error_on_recompile's RecompileError, set_stance("fail_on_recompile")'s RuntimeError): that recompile is no
// "expected once" one — it is why the run stopped; and the error names the guard that failed, where the log shows
// it. It makes no findings of its own: it rewords those the builders before it made.
func fatalRecompiles(in *Input, before []Finding) []Finding {
	for i := range before {
		e := &before[i]
		if e.Kind != KindCompileError && e.Kind != KindRuntimeError || e.Caught {
			continue
		}
		fn, file, setting := fatalRecompileOf(e)
		if setting == "" {
			continue
		}
		var failed *Finding
		for j := range before {
			r := &before[j]
			if fn != "" && r.Kind == KindRecompile && r.Function == fn && (file == "" || sameBase(r.Evidence, file)) {
				failed = r
				r.Expected, r.expectedAssumed, r.Variants = false, false, false
				r.unexpected = r.Records
				r.Severity, r.Category = "high", CategoryFix
				r.Title = FnDisplay(fn, r.Resume) + "'s recompile was fatal: " + setting + " raised at it — " +
					DescribeClasses(r.Classes)
				r.Detail += "\n" + setting + " turned this recompile into the error that ended the call: it did not " +
					"compile, and no automatic dynamic absorbs it."
			}
		}
		if failed != nil {
			e.Title += " — the guard that failed: " + DescribeClasses(failed.Classes)
			e.Detail += "\nThe guard that failed: " + DescribeClasses(failed.Classes) + " (the recompile finding of " + fn + ")."
		} else {
			e.Detail += "\nNo guard failure of " + cmp.Or(fn, "the function") + " shows in the log (the setting raised before the recompile's " +
				"guards were logged, or TORCH_LOGS had no recompiles): rerun without it, preset recompiles, to see which guard failed."
		}
	}
	return nil
}

// fatalRecompileOf reads the function, file and setting of an error a fatal-recompile setting raised (fn "" where
// the message names none); setting is "" for any other error.
func fatalRecompileOf(e *Finding) (fn, file, setting string) {
	msg := e.Detail // "Class: message …" as newErrorFinding wrote it
	switch {
	case strings.HasSuffix(firstField(msg), "RecompileError"):
		if m := recompileErrorFn.FindStringSubmatch(msg); m != nil {
			return m[1], m[2], "torch._dynamo.config.error_on_recompile"
		}
	case strings.Contains(msg, "stance is 'fail_on_recompile'"):
		if m := stanceFn.FindStringSubmatch(msg); m != nil { // 2.14 names the function; 2.6 does not
			return m[2], m[1], `set_stance("fail_on_recompile")`
		}
		return "", "", `set_stance("fail_on_recompile")`
	}
	return "", "", ""
}

func firstField(s string) string {
	c, _, _ := strings.Cut(s, ":")
	return c
}

// sameBase reports evidence in a file of file's base name (the log may name it by another path), or no evidence.
func sameBase(ev []report.Evidence, file string) bool {
	for _, e := range ev {
		if filepath.Base(e.File) == filepath.Base(file) {
			return true
		}
	}
	return len(ev) == 0
}
