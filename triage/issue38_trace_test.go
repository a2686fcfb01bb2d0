package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Issue 38, class 5: a limit hit known only from a TORCH_TRACE (2.6 logs a refused compile's recompile reasons and
// never its compilation_metrics) names neither the limit nor its value in the trace: every rendering says so
// instead of "hit config. (0)"; a trace that names them (2.14's fail_reason) still says "config.recompile_limit (3)".
func TestTraceLimitHitNamesWhatItKnows(t *testing.T) {
	for dir, want := range map[string]string{
		"torch-2.6/gb_recompile.trace":  "a recompile limit (the input names neither which nor its value)",
		"torch-2.6/r12_limit_str.trace": "a recompile limit (the input names neither which nor its value)",
		"torch-2.14/gb_recompile.trace": "config.recompile_limit (3)",
	} {
		a := triagetest.ReportPaths(t, testlogs.Path(t, "fixtures", dir))
		for _, format := range []string{"text", "markdown", "json"} {
			out := strings.Join(strings.Fields(triagetest.Render(t, a, format, 200)), " ")
			if strings.Contains(out, "config. (") || strings.Contains(out, "(0)") {
				t.Errorf("%s, %s: says a limit it does not know: %s", dir, format, out)
			}
			if format != "json" && !strings.Contains(out, "hit "+want) {
				t.Errorf("%s, %s: no %q", dir, format, "hit "+want)
			}
		}
	}
}
