package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// unmarshalCache is what cacheArtifact read of a payload before cacheFields: json.Unmarshal into a cachePayload.
func unmarshalCache(text string) (p cachePayload, valid, typeErr bool) {
	err := json.Unmarshal([]byte(text), &p)
	var te *json.UnmarshalTypeError
	return p, err == nil || errors.As(err, &te), errors.As(err, &te)
}

// cachePayloads are the payloads of every FX graph and AOTAutograd cache artifact of the TORCH_TRACE files under
// testdata, as Parse collects them.
func cachePayloads(t testing.TB) []string {
	var out []string
	for _, root := range []string{"../../testdata"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			var cur *[]string
			var pls [][]string
			_ = readLines(f, 64<<10, func(line []byte, cut bool) {
				if len(line) > 0 && line[0] == '\t' {
					if cur != nil {
						*cur = append(*cur, logparse.ValidString(line[1:]))
					}
					return
				}
				cur = nil
				if bytes.Contains(line, []byte(`{"artifact": {"name": "fx_graph_cache_`)) || bytes.Contains(line, []byte(`{"artifact": {"name": "aotautograd_cache_`)) {
					pls = append(pls, nil)
					cur = &pls[len(pls)-1]
				}
			})
			for _, pl := range pls {
				out = append(out, strings.Join(pl, "\n"))
			}
			return nil
		})
	}
	if len(out) < 100 {
		t.Fatalf("%d cache payloads under testdata: the test would prove little", len(out))
	}
	return out
}

// cacheFields reads what json.Unmarshal read: the same fields, the same validity, of every cache payload of
// testdata, of every cut of a few of them (a line cut at the reader's limit), and of the shapes torch does not
// write: fields named twice or in capitals, null, a number, escapes, nested objects with a "key", nothing after a
// backslash run, and text after the object.
func TestCacheFieldsIsUnmarshal(t *testing.T) {
	check := func(text string) {
		t.Helper()
		p, valid, typeErr, _ := cacheFields(text)
		wp, wvalid, wtypeErr := unmarshalCache(text)
		if !wvalid {
			wp = cachePayload{}
		}
		if p != wp || valid != wvalid || typeErr != wtypeErr {
			t.Fatalf("cacheFields(%.300q) = %+v, %v, %v; Unmarshal %+v, %v, %v", text, p, valid, typeErr, wp, wvalid, wtypeErr)
		}
	}
	payloads := cachePayloads(t)
	for _, text := range payloads {
		check(text)
		if _, ok, _ := unmarshalCache(text); !ok {
			t.Errorf("a payload of testdata that is no JSON: %.200q", text)
		}
	}
	for _, text := range payloads[:3] { // cut anywhere, as a line longer than the reader's limit is
		if len(text) > 4000 {
			text = text[:2000] + text[len(text)-2000:] // a short one that may no longer be JSON: fine, both say so
		}
		for i := range len(text) {
			check(text[:i])
		}
	}
	for _, text := range []string{
		``, ` `, `{}`, ` { } `, `[]`, `"key"`, `{"key": "a"} x`, `{"key": "a",}`, `{"key" "a"}`, `{"key": "a"`,
		`{"key": "a", "key": "b"}`, `{"KEY": "a", "Cache_State": "hit"}`, `{"key": null, "cache_state": "miss"}`,
		`{"key": 12, "cache_state": "miss"}`, `{"cache_state": ["hit"], "key": "k"}`, `{"cache_state": {"a": 1}}`,
		`{"key": "a\"b\\", "cache_bypass_reason": "\u00e9 \ud83d\ude00 \/ \n"}`, `{"key": "a\\\"", "x": "\\\\"}`,
		`{"components": [{"key": "inner"}, ["x", 1, -2.5e3, true, false, null]], "key": "outer"}`,
		`{"components": ["a\\\\\"b", "c"], "cache_state": "bypass", "cache_bypass_reason": "Can't cache \"x\""}`,
		`{"k\u0065y": "escaped key"}`, `{"key": "a", "n": 01}`, `{"key": "a", "n": -}`, `{"key": "a", "t": tru}`,
		`{"key": "a", "t": nul}`, `{"key": nul}`, `{"key": "\x"}`, `{"cache_status_detailed": "hit", "key": "f"}`,
		strings.Repeat("[", 50) + strings.Repeat("]", 50), `{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `, "key": "deep"}`,
	} {
		check(text)
	}
}

// FuzzCacheFields: where Unmarshal reads a payload, cacheFields reads the same; where cacheFields finds no JSON,
// Unmarshal finds none either (what it skips it checks for structure only, so it may take what Unmarshal refuses:
// a control byte or a bad escape inside a skipped string). go test ./logparse -run '^$' -fuzz FuzzCacheFields
func FuzzCacheFields(f *testing.F) {
	for _, s := range []string{`{"key": "a", "components": ["x\"y"], "cache_state": "hit"}`, `{"cache_bypass_reason": "r\u00e9"}`,
		`{"key": 1}`, `{"a": {"key": "b"}, "key": null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, valid, typeErr, ascii := cacheFields(text)
		wp, wvalid, wtypeErr := unmarshalCache(text)
		if wvalid && (p != wp || !valid || typeErr != wtypeErr) {
			t.Fatalf("cacheFields = %+v, %v, %v; Unmarshal %+v, %v, %v", p, valid, typeErr, wp, wvalid, wtypeErr)
		}
		if !valid && wvalid {
			t.Fatalf("cacheFields finds no JSON where Unmarshal reads %+v", wp)
		}
		// the bytes of a mapped line, read where cacheFields says its fields are ASCII, read as their ValidString
		if vp, vvalid, vtypeErr, _ := cacheFields(logparse.ValidString([]byte(text))); ascii && (p != vp || valid != vvalid || typeErr != vtypeErr) {
			t.Fatalf("cacheFields = %+v; of the ValidString %+v", p, vp)
		}
	})
}
