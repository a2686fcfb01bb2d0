package story

import (
	"encoding/json"
	"strings"
	"testing"
)

// torch.compile(DDP(nn.Sequential(…))) of one command on 2.14.1 (run 0007-breaks: DDP's wrapper breaks by design
// at distributed.py:1758 in _pre_forward and at contextlib.py:109 for _inside_ddp_forward) and then on 2.6 (run
// 0011-distributed: only the _pre_forward one, at distributed.py:1511), testdata/recorded/ddp-compile. By-design
// items coming or going are no fix or regression, but the log read "no change in graph breaks, recompile classes,
// limit hits, skips, errors or rank agreement" although a by-design break was gone. It says there is nothing to
// fix and which by-design break went, in text, Markdown and JSON (Delta.ByDesign).
func TestDeltaSaysByDesignBreaksDiffer(t *testing.T) {
	runs := "../../testdata/recorded/ddp-compile/runs/"
	store := storeOf(t, runs+"0007-breaks", runs+"0011-distributed")
	s, text, md, js := logOf(t, store)
	if len(s.Runs) != 2 || s.Runs[1].Delta == nil || s.Runs[1].Delta.Base != 1 {
		t.Fatalf("run 2 is not compared with run 1: %+v", s.Runs)
	}
	run2 := text.String()[strings.Index(text.String(), "Run 2"):]
	mdRun2 := md.String()[strings.Index(md.String(), "Run 2"):]
	for form, out := range map[string]string{"text": run2, "markdown": mdRun2} {
		if strings.Contains(out, "no change in graph breaks") {
			t.Errorf("%s says no change in graph breaks, though a by-design break is gone:\n%s", form, out)
		}
		if !strings.Contains(out, "no change to fix in graph breaks") || !strings.Contains(out, "contextlib.py:109") ||
			!strings.Contains(out, "by design") || !strings.Contains(out, "gone") {
			t.Errorf("%s does not say what differs by design:\n%s", form, out)
		}
		if strings.Contains(out, "fixed") {
			t.Errorf("%s calls a by-design break's going a fix:\n%s", form, out)
		}
	}
	var got struct {
		Runs []struct {
			Delta *struct {
				Fixed    []json.RawMessage `json:"fixed"`
				ByDesign []struct {
					Kind     string `json:"kind"`
					Change   string `json:"change"`
					Title    string `json:"title"`
					Expected bool   `json:"expected"`
				} `json:"by_design"`
			} `json:"delta"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	d := got.Runs[1].Delta
	if d == nil || len(d.Fixed) != 0 || len(d.ByDesign) != 1 || d.ByDesign[0].Kind != "graph_break" || d.ByDesign[0].Change != "gone" ||
		!d.ByDesign[0].Expected || !strings.Contains(d.ByDesign[0].Title, "contextlib.py:109") {
		t.Errorf("JSON delta: %+v", d)
	}
}
