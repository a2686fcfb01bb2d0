// Package compare puts two analyses side by side. Diff (`torchtriage diff`, the TUI's d screen) says which
// findings are new, gone or changed, per rank, and which kinds the inputs could not compare; Compare
// (`torchtriage compare`) says why B is slower than A: versions, settings, compile time per phase and frame,
// caches, findings. Both have their text and JSON forms here (WriteDiffText, WriteDiffJSON, WriteCompareText,
// WriteCompareJSON); their JSON is the result structs', diff's headed by its schema and the inputs A and B.
package compare
