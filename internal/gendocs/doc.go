// Command gendocs writes the generated documentation: docs/commands/*.md from the command tree (cli.Command,
// through github.com/spf13/cobra/doc) and docs/keys.md from the TUI's key table (tui.Keys). `go generate ./...`
// runs it; gendocs_test.go fails when the committed docs differ from what it writes.
//
// It is the one package besides main that imports cli (imports_test.go allows it): it is a program of its own,
// run by go generate and never linked into torchtriage, so cobra/doc stays out of the binary.
package main

//go:generate go run . -out ../../docs
