package compare_test

import (
	"path/filepath"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// fixtures and compileFixtures are the real logs' and compile runs' folders, in the module's one testdata/.
var (
	fixtures        = filepath.Join("..", "..", "testdata", "fixtures")
	compileFixtures = filepath.Join("..", "..", "testdata", "compile")
)

// fx is a fixture's path.
func fx(name string) string { return filepath.Join(fixtures, name) }

// lineWith is the line of s that holds sub, with the lines wrapped under it (triagetest.LineWith).
var lineWith = triagetest.LineWith
