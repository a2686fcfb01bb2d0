package triage

import (
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// Old and odd wordings still pasted into issues (pasted-logs.md §5), written from the doc's descriptions.
var syntheticPasteOld = map[string]string{
	// 2022 standalone package
	"synthetic_paste_torchdynamo_cache_limit": "torchdynamo hit recompilation cache limit (64) for function 'forward'\n",
	"synthetic_paste_torchdynamo_config_limit": "torchdynamo hit config.cache_size_limit (64)\n" +
		"   reasons: tensor 'x' size mismatch at index 0. expected 8, actual 16\n",
	// 2.0 warnings: the site on the same line as the reason
	"synthetic_paste_2_0_iadd":        "Graph break: call_function BuiltinVariable(iadd) [...] from user code at   File \"x.py\", line 232, in forward\n",
	"synthetic_paste_2_0_super":       "Graph break: non-function or method super: <slot wrapper '__setitem__' of 'dict' objects> from user code at   File \"x.py\", line 40, in __setitem__\n",
	"synthetic_paste_2_0_user_object": "Graph break: call_method UserDefinedObjectVariable(...) from user code at   File \"x.py\", line 77, in forward\n",
	// PyTorch's own typo
	"synthetic_paste_multple_devices": "skipping cudagraphs due to multple devices\n",
}

func TestPastedOldWordings(t *testing.T) {
	want := map[string]struct {
		kind, playbook, site string
	}{
		"synthetic_paste_torchdynamo_cache_limit":  {"limit_hit", "", ""},
		"synthetic_paste_torchdynamo_config_limit": {"limit_hit", "rc-shape", ""},
		"synthetic_paste_2_0_iadd":                 {"graph_break", "gb-inplace-builtin", "x.py:232"},
		"synthetic_paste_2_0_super":                {"graph_break", "gb-container-subclass", "x.py:40"},
		"synthetic_paste_2_0_user_object":          {"graph_break", "gb-user-object-method", "x.py:77"},
		"synthetic_paste_multple_devices":          {"cudagraph_skip", "cg-multiple-devices", ""},
	}
	for name, text := range syntheticPasteOld {
		w := want[name]
		got := ReportOfText(t, text)
		var hits []string
		for _, f := range got.findings {
			if string(f.Kind) == w.kind {
				hits = append(hits, f.Playbook+" "+f.File+":"+strconv.Itoa(f.Line))
			}
		}
		if len(hits) != 1 || w.playbook != "" && !strings.HasPrefix(hits[0], w.playbook+" ") || w.site != "" && !strings.HasSuffix(hits[0], " "+w.site) {
			t.Errorf("%s: %s findings %q, want one with %s at %q", name, w.kind, hits, w.playbook, w.site)
		}
	}
	lim := ReportOfText(t, syntheticPasteOld["synthetic_paste_torchdynamo_cache_limit"]).report.RecompileLimitHits
	if len(lim) != 1 || lim[0].Function != "forward" || lim[0].Value != 64 || lim[0].Limit != "cache_size_limit" {
		t.Errorf("2022 cache limit: %+v", lim)
	}
}

// genericAllowed are the findings that may fall back to a generic playbook: their reason is genuinely unknown.
var genericAllowed = map[string]string{
	"SpeculationLog diverged": "an internal Dynamo assertion (a PyTorch bug): no cause on the user's side is known",
}

// TestNoGenericFallbacks lists every finding of the fixtures and the synthetic pasted cases that gets a
// generic-* playbook; only the allow-list may.
func TestNoGenericFallbacks(t *testing.T) {
	var fallbacks []string
	check := func(name string, fs []findings.Finding) {
		for _, f := range fs {
			if !strings.HasPrefix(f.Playbook, "generic-") {
				continue
			}
			allowed := false
			for k := range genericAllowed {
				allowed = allowed || strings.Contains(f.Title+"\n"+f.Detail, k)
			}
			if !allowed {
				fallbacks = append(fallbacks, name+": "+f.Playbook+" "+f.Title)
			}
		}
	}
	for _, name := range ExpectedNames(LoadExpected(t)) {
		check(name, AnalyzeFiles(t, name).Findings)
	}
	for name, text := range syntheticPasteOld {
		check(name, ReportOfText(t, text).findings)
	}
	if len(fallbacks) > 0 {
		t.Errorf("%d findings fall back to a generic playbook:\n%s", len(fallbacks), strings.Join(fallbacks, "\n"))
	}
}
