package cli

import "github.com/spf13/cobra"

// Command is the command tree that Run executes, before fang and cobra add what they add while executing (the
// help and completion commands, --version). The docs generator (internal/gendocs) writes docs/commands from it.
func Command() *cobra.Command { return newRoot() }
