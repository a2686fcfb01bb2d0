package gate_test

import "path/filepath"

// fixtures is the real logs' folder, the module's one testdata/ (internal/testlogs.Path).
var fixtures = filepath.Join("..", "..", "testdata", "fixtures")

// fx is a fixture's path.
func fx(name string) string { return filepath.Join(fixtures, name) }
