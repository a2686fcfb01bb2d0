// Package cli is torchtriage's command line, wiring only: every subcommand (one small file each) on cobra with
// Charm's fang (styled help, --version, completions) takes its flags into its package's options and makes one call
// (check: gate.Run; the policy is the packages'), and maps the outcome to an exit status. Here too: the launch flags
// declared once, one-line usage errors with exit status 2, shell completion of run numbers, presets, TORCH_LOGS
// names, playbook and GB ids, and text output fitted to the terminal (term.go: its width, and ASCII where the
// terminal or the locale needs it). main.go calls Run; nothing else imports this package.
package cli
