// Package text fits prose to a terminal: the text writer that wraps at spaces with a hang, tables whose last
// column wraps, one-line forms of long messages, ASCII glyphs, and rank ranges ("0-3,7"). It knows nothing of
// PyTorch or of the analysis; every text, Markdown and TUI rendering of the module writes through it.
package text
