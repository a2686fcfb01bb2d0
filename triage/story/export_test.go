package story

// For the external tests of the log and note commands (cli_test.go).
var (
	BringupStore = bringupStore
	StoryRun     = storyRun
)

// Fixtures is the fixtures directory, for the external tests.
const Fixtures = fixtures
