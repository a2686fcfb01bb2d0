package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A CppCompileError whose compiler output is an error inside the kernel Inductor generated (Inductor's injected
// compile-error bug, real 2.14 and 2.6: "….cpp:16:33: error: ‘compile’ was not declared") is an Inductor codegen
// bug to localise and report, not a C++ toolchain to install; a missing header ("fatal error: ATen/….h: No such
// file") stays the toolchain's. They read "C++ toolchain" with err-cpp-toolchain alike.
func TestCppCodegenErrorIsNoToolchainProblem(t *testing.T) {
	for _, c := range []struct {
		path            []string
		cause, playbook string
	}{
		{[]string{"compile-wrong", "torch-2.14", "ladder.compile_error.inductor.log"}, "Inductor generated C++ that does not compile", "err-inductor-codegen"},
		{[]string{"compile-wrong", "torch-2.6", "ladder.compile_error.inductor.log"}, "Inductor generated C++ that does not compile", "err-inductor-codegen"},
		{[]string{"fixtures", "failures", "torch-2.6.inductor-cpp-compile-error-missing-headers.log"}, "C++ toolchain", "err-cpp-toolchain"},
	} {
		a := triagetest.ReportPaths(t, testlogs.Path(t, c.path...))
		var errs []findings.Finding
		for _, f := range a.Findings {
			if f.Kind == findings.KindCompileError {
				errs = append(errs, f)
			}
		}
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Title, c.cause+":") || errs[0].Playbook != c.playbook {
			t.Errorf("%s: %d compile errors %+v, want %q with %s", strings.Join(c.path, "/"), len(errs), errs, c.cause, c.playbook)
		}
	}
}
