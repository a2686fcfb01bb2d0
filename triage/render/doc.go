// Package render writes an analysis out: the text report fitted to a width (through triage/text), Markdown,
// and JSON — the report schema (ReportJSON, written by a streaming appender that gives json.Encoder's exact
// bytes). It decides nothing: every count, finding and verdict it prints comes from triage.
package render
