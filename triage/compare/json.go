package compare

import (
	"encoding/json"
	"io"
)

// DiffSchema names the JSON of `torchtriage diff`.
const DiffSchema = "torchtriage.diff/v1"

// WriteDiffJSON prints a diff as JSON (DiffSchema): the inputs A and B read, then the result's fields.
func WriteDiffJSON(w io.Writer, a, b []string, res DiffResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		Schema string   `json:"schema"`
		A      []string `json:"a"`
		B      []string `json:"b"`
		DiffResult
	}{DiffSchema, a, b, res})
}

// WriteCompareJSON prints a comparison as JSON (Schema).
func WriteCompareJSON(w io.Writer, res Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(res)
}
