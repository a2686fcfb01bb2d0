package demo

import (
	"os"
	"testing"
)

// TestMain doubles as the demo child: with TORCHTRIAGE_DEMO_HELPER=1 the test
// binary is `torchtriage __demo-repro` (as main.go will route it).
func TestMain(m *testing.M) {
	if os.Getenv("TORCHTRIAGE_DEMO_HELPER") == "1" {
		os.Exit(ReproMain(os.Args[1:], os.Stdout, os.Stderr, nil))
	}
	os.Exit(m.Run())
}
