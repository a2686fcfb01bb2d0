package lineidx

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// Offsets reads back every offset appended, as a plain []int64 holds them, over random line lengths: short
// lines (two-byte deltas), long ones (blocks kept whole) and both mixed, and copies taken on the way read what
// they held then.
func TestOffsetsMatchAPlainList(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, lengths := range []func() int64{
		func() int64 { return rng.Int64N(200) },         // every delta fits two bytes
		func() int64 { return rng.Int64N(1 << 20) },     // most do not
		func() int64 { return rng.Int64N(70000) },       // about one in fourteen does not
		func() int64 { return 0 },                       // equal offsets
		func() int64 { return 1 << 40 * rng.Int64N(2) }, // huge gaps
	} {
		var o Offsets
		var plain []int64
		var copies []Offsets
		at := rng.Int64N(1000)
		for i := 0; i < 5000; i++ {
			o.Append(at)
			plain = append(plain, at)
			at += lengths()
			if i%777 == 0 {
				copies = append(copies, o)
			}
		}
		if o.Len() != len(plain) {
			t.Fatalf("Len %d, want %d", o.Len(), len(plain))
		}
		for i, want := range plain {
			if got := o.At(i); got != want {
				t.Fatalf("At(%d) = %d, want %d", i, got, want)
			}
		}
		for _, c := range copies {
			for i := 0; i < c.Len(); i++ {
				if got := c.At(i); got != plain[i] {
					t.Fatalf("a copy of %d: At(%d) = %d, want %d", c.Len(), i, got, plain[i])
				}
			}
		}
	}
}

// Values reads back every line's value as a plain []int16 holds them: none at all, a few, every line (dense),
// and chunks that turn dense on the way.
func TestValuesMatchAPlainList(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, every := range []int{0, 50000, 97, 3, 1} {
		var v Values
		var plain []int16
		var copies []Values
		for i := 0; i < 30000; i++ {
			x := int16(None)
			if every > 0 && rng.IntN(every) == 0 {
				x = int16(rng.IntN(8))
			}
			v.Append(x)
			plain = append(plain, x)
			if i%1111 == 0 {
				copies = append(copies, v)
			}
		}
		for i, want := range plain {
			if got := v.At(i); got != want {
				t.Fatalf("every %d: At(%d) = %d, want %d", every, i, got, want)
			}
		}
		for _, c := range copies {
			for i := 0; i < c.Len(); i++ {
				if got := c.At(i); got != plain[i] {
					t.Fatalf("every %d: a copy of %d: At(%d) = %d, want %d", every, c.Len(), i, got, plain[i])
				}
			}
		}
		if v.At(-1) != None || v.At(len(plain)) != None {
			t.Fatalf("out of range reads a value")
		}
	}
}

// The index's cost per line of a log of ~90-byte lines marked every 64th line, with a ranked line a second at
// 50k lines/s (bench/live.sh's flood): a few hundredths of a byte, not the ~0.4 a []struct{int32; int64} of marks
// and dense rank chunks took (the live view's growth of issue 39).
func TestBytesPerLine(t *testing.T) {
	const lines = 3_000_000
	var o Offsets
	var v Values
	at := int64(0)
	for i := 0; i < lines; i++ {
		if i%64 == 0 {
			o.Append(at)
		}
		at += 90
		r := int16(None)
		if i%50000 == 0 {
			r = 0
		}
		v.Append(r)
	}
	perLine := float64(o.Bytes()+v.Bytes()) / lines
	if perLine > 0.06 {
		t.Errorf("%.3f bytes a line (offsets %d, values %d bytes), want ≤ 0.06", perLine, o.Bytes(), v.Bytes())
	}
	// every line ranked: two bytes a line and a little
	var dense Values
	for i := 0; i < 1<<20; i++ {
		dense.Append(int16(i % 4))
	}
	if got := float64(dense.Bytes()) / (1 << 20); got > 2.1 {
		t.Errorf("every line ranked: %.2f bytes a line, want ≤ 2.1", got)
	}
}

// A copy is read while the original grows (go test -race: no race).
func TestCopiesReadWhileAppending(t *testing.T) {
	var o Offsets
	var v Values
	var wg sync.WaitGroup
	for i := 0; i < 20000; i++ {
		o.Append(int64(i) * 100)
		v.Append(int16(i % 3))
		if i%2000 == 0 {
			co, cv := o, v
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < co.Len(); k++ {
					if co.At(k) != int64(k)*100 || cv.At(k) != int16(k%3) {
						t.Errorf("line %d read wrong", k)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
}
