package triage_test

import (
	"io"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// reportTo writes the report of paths in a format (as `torchtriage report` does, text 200 columns wide so that
// tests find whole lines; fitting to a width is tested in render_text_test.go and cli); 2 when they cannot be
// read.
func reportTo(w io.Writer, format string, paths ...string) int {
	rep, _, err := triage.BuildReport(paths, nil)
	if err != nil {
		return 2
	}
	if err := render.WriteReport(w, triage.Analyze(rep, nil, nil), format, text.Options{Width: 200}); err != nil {
		return 2
	}
	return 0
}
