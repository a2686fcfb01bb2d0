// Package cli is torchtriage's command line: every subcommand (one small file each) on cobra with Charm's fang
// (styled help, --version, completions), the launch flags declared once, one-line usage errors with exit
// status 2, shell completion of run numbers, presets, TORCH_LOGS names, playbook and GB ids, and text output
// fitted to the terminal (term.go: its width, and ASCII where the terminal or the locale needs it).
// main.go calls Run; nothing else imports this package.
package cli
