package logparse

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// MapFile hands every byte of a file in order, over windows (a file longer than one, one of none).
func TestMapFileHandsTheWholeFile(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{0, 1, 4095, mapWindow, mapWindow + 12345} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		calls := 0
		mapped, changed := MapFile(f, int64(size), func(b []byte) { got = append(got, b...); calls++ })
		f.Close()
		if !mapped || changed || !bytes.Equal(got, data) || calls != (size+mapWindow-1)/mapWindow {
			t.Fatalf("size %d: mapped %v changed %v, %d bytes in %d calls", size, mapped, changed, len(got), calls)
		}
	}
}
