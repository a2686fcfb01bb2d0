package triage

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/torchtriage/torchtriage/triage/report"
)

// clonePair's parts are copies: a summary that keeps them does not keep the record's text alive.
func TestClonePairCopies(t *testing.T) {
	text := strings.Repeat("x", 64) + "0/1" + "scale == 2.0"
	cidIn, guardIn := text[64:67], text[67:]
	for _, in := range [][2]string{{cidIn, guardIn}, {"", guardIn}, {cidIn, ""}} {
		a, b := report.ClonePair(in[0], in[1])
		if a != in[0] || b != in[1] {
			t.Fatalf("clonePair(%q, %q) = %q, %q", in[0], in[1], a, b)
		}
		for _, s := range []string{a, b} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); s != "" && p >= uintptr(unsafe.Pointer(unsafe.StringData(text))) &&
				p < uintptr(unsafe.Pointer(unsafe.StringData(text)))+uintptr(len(text)) {
				t.Errorf("clonePair(%q, %q): %q points into the record's text", in[0], in[1], s)
			}
		}
	}
}
