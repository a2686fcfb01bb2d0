package triage

import (
	"io"
	"os"

	"github.com/torchtriage/torchtriage/logparse"
)

// BuildReport discovers and parses paths ("-" = stdin) into one report. A path that cannot be read is an
// error; inputs that looked binary come back as warnings.
func BuildReport(paths []string, stdin io.Reader) (*Report, []string, error) {
	inputs, err := logparse.Discover(paths)
	if err != nil {
		return nil, nil, err
	}
	agg := NewAggregator()
	var warnings []string
	for _, in := range inputs {
		agg.AddInput(in.Name, in.Rank)
		if in.Path != "-" {
			if w := binaryWarning(in.Path); w != "" {
				warnings = append(warnings, w)
			}
		}
	}
	if errs := logparse.ParseInputs(inputs, 16, false, stdin, agg.Add, agg.AddRank); len(errs) > 0 {
		return nil, warnings, errs[0]
	}
	return agg.Report(), warnings, nil
}

func binaryWarning(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 8192)
	n, _ := io.ReadFull(f, head)
	if logparse.LooksBinary(head[:n]) {
		return path + ": looks like a binary file, not a text log; parsed what text it has"
	}
	return ""
}
