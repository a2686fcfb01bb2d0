package report

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
)

// direct is what classify gives a guard without a memo: guard.Classify of the text classify reads.
func direct(text string) guard.Class {
	return guard.Classify(memoText(text))
}

// testdataGuards is every guard-failure text of every recording and fixture under the repository's testdata/
// (text logs, run dirs' logs, TORCH_TRACE files), each once, in the order found.
func testdataGuards(t testing.TB) []string {
	root := filepath.Join("..", "..", "testdata")
	var paths []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !e.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("Recompiling function")) || bytes.Contains(b, []byte("guard failure")) ||
			bytes.Contains(b, []byte("recompile_reason")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
		out  []string
	)
	for _, p := range paths {
		_, _ = Load([]string{p}, LoadOptions{OnRecord: func(r *logparse.Record) {
			if r.Kind != logparse.KindRecompile || r.Recompile == nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, f := range r.Recompile.Failures {
				if !seen[f.Guard] {
					seen[f.Guard] = true
					out = append(out, strings.Clone(f.Guard))
				}
			}
		}})
	}
	return out
}

// otherValues are g with the digits of its numbers changed: each number one more (9 → 10 lengthens it), each
// digit of each number other with the count kept, and a few numbers of random lengths and values.
func otherValues(g string, rng *rand.Rand) []string {
	_, runs, ok := guardShapeKey(g, nil, nil)
	if !ok || len(runs) == 0 {
		return nil
	}
	with := func(f func(run string) string) string {
		var b strings.Builder
		last := 0
		for _, r := range runs {
			b.WriteString(g[last:r.From])
			b.WriteString(f(g[r.From:r.To]))
			last = r.To
		}
		b.WriteString(g[last:])
		return b.String()
	}
	out := []string{
		with(func(run string) string {
			if n, err := strconv.ParseUint(run, 10, 63); err == nil {
				return strconv.FormatUint(n+1, 10)
			}
			return run
		}),
		with(func(run string) string {
			b := []byte(run)
			for i := range b {
				b[i] = '0' + byte(rng.IntN(10))
			}
			return string(b)
		}),
	}
	for range 3 {
		out = append(out, with(func(string) string {
			n := 1 + rng.IntN(16)
			b := make([]byte, n)
			for i := range b {
				b[i] = '0' + byte(rng.IntN(10))
			}
			return string(b)
		}))
	}
	// an id on either side of guard.StaticObjectID's limit, with as many digits
	out = append(out, with(func(string) string { return "67108863" }), with(func(string) string { return "67108864" }))
	return out
}

// Texts no recording has, for what the classifier does with digits: a long text cut for its detail, dims, ids
// at the limit, a number in a quoted string, digits in names, exponents.
var shapeEdgeGuards = []string{
	"___check_tensors(L['x'], 12345678901, 22, 333, 4444, 55555, 666666, 7777777, 88888888, 999999999, 1, 2)",
	"some_unknown_guard(L['a'][0], L['b'][1], 123456789) and more text after it that runs past eighty columns 42",
	"L['x'].size()[1] == 32",
	"L['x'].stride()[0] == 1",
	"L['xs'][3].shape[2] == 7",
	"tensor 'L['args'][0]' size mismatch at index 1. expected 16, actual 32",
	"tensor 'x' stride mismatch at index 0. expected 16, actual 1",
	"tensor 'x' device mismatch. expected cpu, actual cuda:0",
	"tensor 'x' requires_grad mismatch. expected requires_grad=0",
	"tensor 'x' size mismatch at index 0. expected 8, actual 8",
	"___check_obj_id(L['training'], 67108863)",
	"___check_obj_id(L['training'], 67108864)",
	"___check_obj_id(L['training'], 10519872)",
	"___check_obj_id(G['_140062263790704_c0'].Tensor, 82181376)",
	"L['mode'] == 'a0'",
	"L['mode'] == '12'",
	"L['n'] == -4",
	"L['lr'] == 1e-05",
	"L['lr'] == 1.5e+10",
	"len(L['xs']) == 3",
	"len(G['_cache']) == 10",
	"L['opt'].param_groups[0]['lr'] == 0.01",
	"___check_type_id(L['xs'], 94821)",
	"___check_current_backend(140011)",
	"L['x'] == 1 and L['y'] == 2",
	"x0 == 10",
	"0 == 0",
	"1",
	"",
}

// The memo by shape classifies every guard text of testdata, the same texts with other numbers, and the edge
// texts, as guard.Classify does: one memo for all (shapes met again with other values), and a fresh memo a text.
func TestShapeMemoEqualsDirect(t *testing.T) {
	guards := append(testdataGuards(t), shapeEdgeGuards...)
	if len(guards) < 200 {
		t.Fatalf("%d guard texts in testdata: the walk missed the recordings", len(guards))
	}
	rng := rand.New(rand.NewPCG(39, 3))
	var texts []string
	for _, g := range guards {
		texts = append(texts, g)
		texts = append(texts, otherValues(g, rng)...)
	}
	var shared Details
	shapes := 0
	for pass := range 2 {
		for _, g := range texts {
			want := direct(g)
			if got := shared.classify(g); got != want {
				t.Fatalf("pass %d, %q:\n memo  %+v\n direct %+v", pass, g, got, want)
			}
			var fresh Details
			if got := fresh.classify(g); got != want {
				t.Fatalf("%q, a fresh memo:\n memo  %+v\n direct %+v", g, got, want)
			}
		}
		if pass == 0 {
			shapes = len(shared.guards)
		}
		slices.Reverse(texts)
	}
	t.Logf("%d texts (%d from testdata), %d shapes", len(texts), len(guards)-len(shapeEdgeGuards), shapes)
	if shapes*2 > len(texts) {
		t.Errorf("%d shapes for %d texts: the numbers are not masked", shapes, len(texts))
	}
}

// A guard of a shape met before is classified without guard.Classify: one allocation (its words with its own
// numbers), where a memo of whole texts classified each new value again (regexps and all: 10 and more).
func TestShapeMemoAllocs(t *testing.T) {
	for _, shape := range []string{
		"tensor 'x' size mismatch at index 0. expected %d, actual %d",
		"___stack0 == %d.%d                           # if x.sum().item() > 0:  # oot/repro/m0.py:18 in f",
		"___check_obj_id(mode, 1403776302%d%d), type=<class '__main__.Mode'>  # if mode is Mode.TRAIN:  # r.py:12 in f",
		"L['x'].size()[1] == %d%d",
	} {
		var d Details
		texts := make([]string, 1000)
		for i := range texts {
			texts[i] = strings.Replace(strings.Replace(shape, "%d", strconv.Itoa(1000+i), 1), "%d", strconv.Itoa(2000+i), 1)
		}
		d.classify(texts[0])
		i := 0
		allocs := testing.AllocsPerRun(len(texts)-2, func() { // and one run before: len(texts)-1 texts
			i++
			d.classify(texts[i])
		})
		if allocs > 1 {
			t.Errorf("%q: %.1f allocations a guard of a known shape, want at most 1", shape, allocs)
		}
		if got, want := d.classify(texts[500]), direct(texts[500]); got != want {
			t.Errorf("%q: memo %+v, direct %+v", texts[500], got, want)
		}
	}
}

// FuzzShapeMemo: a text, then the same text with its numbers changed by the seed, through one memo, classify
// as guard.Classify does.
func FuzzShapeMemo(f *testing.F) {
	for _, g := range shapeEdgeGuards {
		f.Add(g, uint64(1))
	}
	f.Add("tensor 'L['x']' size mismatch at index 0. expected 4, actual 8", uint64(7))
	f.Add("scale == 2.0                                             # x = x * scale  # oot/repro/gb_recompile.py:16 in f", uint64(3))
	f.Add("___check_obj_id(L['self'].training, 7665376)", uint64(9))
	f.Fuzz(func(t *testing.T, g string, seed uint64) {
		var d Details
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b9))
		for _, text := range append([]string{g}, otherValues(g, rng)...) {
			if got, want := d.classify(text), direct(text); got != want {
				t.Fatalf("%q (after %q):\n memo  %+v\n direct %+v", text, g, got, want)
			}
		}
	})
}
