package compare_test

import "path/filepath"

// fixtures and compileFixtures are the real logs' and compile runs' folders, in the module's one testdata/.
var (
	fixtures        = filepath.Join("..", "..", "testdata", "fixtures")
	compileFixtures = filepath.Join("..", "..", "testdata", "compile")
)

// fx is a fixture's path.
func fx(name string) string { return filepath.Join(fixtures, name) }
