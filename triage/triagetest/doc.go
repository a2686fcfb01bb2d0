// Package triagetest builds analyses for the tests of the packages that read them (triage's external tests,
// render, gate, compare, story, tui): from the fixtures under testdata/, from synthetic records, and from inputs
// read exactly as `torchtriage report PATH…` reads them (ReportPaths, rendered by Render). Only tests import it.
package triagetest
