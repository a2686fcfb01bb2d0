// Package triagetest builds analyses for the tests of the packages that read them (triage's external tests,
// render, gate, compare, story, tui): from the fixtures under testdata/, from synthetic records, and from inputs
// read exactly as the commands read them: ReportPaths and Render (`report`), CheckPaths (`check`), Pair, Diff and
// Compare (`diff`, `compare`); cli's report_helper_test.go proves each byte-identical to its command's output.
// Only tests import it.
package triagetest
