package triage_test

import (
	"path/filepath"

	"github.com/torchtriage/torchtriage/triage"
)

// Fx is a fixture's path (testdata/fixtures).
func Fx(name string) string { return filepath.Join(triage.Fixtures, name) }

// Fixture is a compile fixture's path: testdata/compile/torch-<v>/name.
func Fixture(v, name string) string { return filepath.Join(triage.CompileFixtures, "torch-"+v, name) }
