package ladder

import (
	"encoding/json"
	"fmt"
	"io"
)

// Schema names the JSON form of a ladder (docs/ladder.md).
const Schema = "torchtriage.ladder/v1"

// WriteJSON writes the ladder as JSON: {schema, experiment, tiers: [{backend, result, run, …}], first_bad,
// accuracy_checked, summary, minifier, bisector}.
func WriteJSON(w io.Writer, l *Ladder) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		Schema string `json:"schema"`
		*Ladder
	}{Schema, l})
}

// WriteText writes the ladder for a terminal: one line per tier, then the verdict and what the tools found.
func WriteText(w io.Writer, l *Ladder) error {
	var err error
	p := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	p("torchtriage ladder · experiment %s", l.Experiment)
	if l.AccuracyChecked {
		p(" · accuracy checked (TORCHDYNAMO_REPRO_AFTER=aot, TORCHDYNAMO_REPRO_LEVEL=4)")
	}
	p("\n\n")
	for _, t := range l.Tiers {
		p("  %-27s %-14s", t.Backend, t.Result)
		switch {
		case t.Result == NotRun:
			p("not run: a tier before it failed")
		case t.Run != "":
			p("%s", t.Run)
		}
		p("\n")
		if t.Why != "" {
			p("  %-27s %-14s%s\n", "", "", t.Why)
		}
		if t.Playbook != "" {
			p("  %-27s %-14splaybook %s\n", "", "", t.Playbook)
		}
	}
	p("\n%s\n", l.Summary)
	if m := l.Minifier; m != nil {
		p("Minifier: %s\n", m.Why)
	}
	if b := l.Bisector; b != nil {
		p("Compiler bisector: %s\n", b.Why)
		if b.Run != "" {
			p("  (%s)\n", b.Run)
		}
	}
	if l.FirstBad != nil && (l.Minifier != nil && l.Minifier.Repro != "" || l.Bisector != nil) {
		p("Pack it for PyTorch: torchtriage bundle %s\n", l.tier(*l.FirstBad).Run)
	}
	return err
}

// Headline is the ladder in one sentence for a status line: "ladder ID: " and its summary, then the first bad
// tier's why ("… — aot_eager: compile error: …").
func Headline(l *Ladder) string {
	s := "ladder " + l.Experiment + ": " + l.Summary
	if l.FirstBad != nil {
		if t := l.tier(*l.FirstBad); t != nil && t.Why != "" {
			s += " — " + t.Backend + ": " + t.Why
		}
	}
	return s
}

// Write writes the ladder in format: "json" (WriteJSON), else text (WriteText).
func Write(w io.Writer, l *Ladder, format string) error {
	if format == "json" {
		return WriteJSON(w, l)
	}
	return WriteText(w, l)
}
