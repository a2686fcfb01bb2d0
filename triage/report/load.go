package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/logparse/trace"
)

// LoadOptions say how Load reads its inputs.
type LoadOptions struct {
	Stdin io.Reader // what "-" reads (os.Stdin when nil)
	// OnInputs, when set, is told the inputs found before they are parsed (the UI indexes their lines meanwhile).
	OnInputs func([]logparse.Input)
	// OnRecord, when set, is given every record built, one at a time (the UI's timeline). Records are built as
	// for counting (no text, none of unknown kind), by the same parallel engine as report's.
	OnRecord func(*logparse.Record)
}

// Loaded is what Load read: the report of all inputs together.
type Loaded struct {
	Report   *Report
	Paths    []string // the paths given, less those naming the same file or directory as one before them
	Inputs   []logparse.Input
	Warnings []string   // inputs that are readable but look wrong (binary), sorted
	Skipped  []Skipped  // log-named entries of the directories that are not regular files (FIFOs, devices)
	ReadOnce []ReadOnce // paths to what another input holds (links, the same path twice, copies): read once
}

// ReadOnce is a path that was not read because another input holds what it holds (logparse.Alias): the report
// says so in every format (AliasesText; JSON evidence.read_once).
type ReadOnce struct {
	Path   string `json:"path"`
	SameAs string `json:"same_as"` // the input read instead
	// Why: "same_file" (a link or hard link to it, or a file inside a directory also named), "named_twice",
	// "same_bytes" (a copy beside it), "tee_copy" (a torchrun --log-dir rank file whose lines the console copy
	// holds again behind its --tee prefix).
	Why string `json:"why"`
}

// Skipped is an entry of a named directory that was not read (logparse.Skip): the report says so in every format
// (render.SkippedText; JSON evidence.skipped).
type Skipped struct {
	Path string `json:"path"`
	// Why: fifo, socket, device, directory (what the entry is, or what its link names), dangling_link, not_regular.
	Why string `json:"why"`
}

func readOnceOf(aliases []logparse.Alias) []ReadOnce {
	var out []ReadOnce
	for _, a := range aliases {
		why := "same_file"
		switch {
		case a.Copy:
			why = "tee_copy"
		case a.SameBytes:
			why = "same_bytes"
		case filepath.Clean(a.Path) == filepath.Clean(a.SameAs):
			why = "named_twice"
		}
		out = append(out, ReadOnce{Path: a.Path, SameAs: a.SameAs, Why: why})
	}
	return out
}

// foldAside: Load folds recompiles on the aggregator's lane (lane.go); tests compare with it off.
var FoldAside = true

// Load discovers and parses paths (files, directories, "-" for stdin) into one report: the one loader behind
// report, check, diff and open. A path that cannot be read is an error.
func Load(paths []string, opt LoadOptions) (*Loaded, error) {
	found, err := logparse.Find(paths)
	if err != nil {
		return nil, err
	}
	if err := refuseBinary(found.Paths); err != nil {
		return nil, err
	}
	inputs := found.Inputs
	agg := NewAggregator()
	agg.readOnce = readOnceOf(found.Aliases)
	for _, sk := range found.Skipped {
		agg.skipped = append(agg.skipped, Skipped{Path: sk.Path, Why: sk.Why})
	}
	if found.TextOnly {
		agg.TextOnly()
	}
	for _, in := range inputs {
		rank := in.Rank
		if in.Trace {
			rank = -1 // a trace's records carry its one rank: its envelopes', or else the file name's
		}
		agg.AddInput(in.Name, rank)
	}
	out := &Loaded{Paths: found.Paths, Inputs: inputs, Skipped: agg.skipped, ReadOnce: agg.readOnce}
	if opt.OnInputs != nil {
		opt.OnInputs(inputs)
	}
	var mu sync.Mutex
	emit := agg.Add
	if opt.OnRecord != nil {
		emit = func(r *logparse.Record) {
			mu.Lock()
			opt.OnRecord(r)
			mu.Unlock()
			agg.Add(r)
		}
	}
	sink := logparse.Sink{Emit: emit, OnRank: agg.AddRank, OnFacts: agg.AddFacts, Trace: trace.Parse, OnWarning: func(w string) {
		mu.Lock()
		out.Warnings = append(out.Warnings, w)
		mu.Unlock()
	}}
	if FoldAside {
		agg.FoldAside()
	}
	errs := logparse.ParseInputs(inputs, 16, false, opt.Stdin, sink)
	agg.Settle()               // no goroutine of the aggregator outlives the load, whatever the parse gave
	sort.Strings(out.Warnings) // inputs are parsed concurrently
	if len(errs) > 0 {
		return out, errs[0]
	}
	out.Report = agg.Report()
	return out, nil
}

// refuseBinary is an error for a file named itself whose start is not text (logparse.LooksBinary): a core dump or
// an archive given by mistake is refused, not reported as a run that printed nothing. A binary file found inside a
// named directory, and standard input, are read as before, with a warning.
func refuseBinary(paths []string) error {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue // Find stated it; the parse says why it cannot be read
		}
		st, err := f.Stat()
		var head []byte
		if err == nil && st.Mode().IsRegular() {
			head = make([]byte, 8192)
			n, _ := f.ReadAt(head, 0)
			head = head[:n]
		}
		f.Close()
		if logparse.LooksBinary(head) {
			return fmt.Errorf("%s is a binary file, not a text log", p)
		}
	}
	return nil
}

// AliasesText says which paths repeated what another input holds, each read once: "read once: a.log is the same
// file as b.log", the count and the first few, and the torchrun --log-dir rank files whose lines the console copy
// of their run holds.
func AliasesText(aliases []ReadOnce) string {
	const show = 4
	few := func(list []string) string {
		if len(list) > show {
			return strings.Join(list[:show], ", ") + fmt.Sprintf(" and %d more", len(list)-show)
		}
		return strings.Join(list, ", ")
	}
	var parts, same []string
	var consoles []string
	copies := map[string][]string{}
	for _, a := range aliases {
		switch a.Why {
		case "tee_copy":
			if copies[a.SameAs] == nil {
				consoles = append(consoles, a.SameAs)
			}
			copies[a.SameAs] = append(copies[a.SameAs], a.Path)
		case "same_bytes":
			same = append(same, fmt.Sprintf("%s holds the same bytes as %s", a.Path, a.SameAs))
		case "named_twice":
			same = append(same, a.Path+" was named twice")
		default:
			same = append(same, fmt.Sprintf("%s is the same file as %s", a.Path, a.SameAs))
		}
	}
	switch {
	case len(same) == 1:
		parts = append(parts, same[0])
	case len(same) > 1:
		parts = append(parts, fmt.Sprintf("%d paths repeat what was named before: %s", len(same), few(same)))
	}
	for _, c := range consoles {
		files := copies[c]
		what := "the lines of " + files[0]
		if len(files) > 1 {
			what = fmt.Sprintf("the lines of %d torchrun --log-dir rank files (%s)", len(files), few(files))
		}
		parts = append(parts, fmt.Sprintf("%s are all in %s, where torchrun --tee printed them again", what, c))
	}
	return "read once: " + strings.Join(parts, "; ")
}
