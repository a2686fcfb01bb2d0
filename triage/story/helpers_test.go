package story

// fixtures are the real PyTorch logs (testdata/fixtures, copied unchanged from the project's shared fixtures).
const fixtures = "../../testdata/fixtures"
