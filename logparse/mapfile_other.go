//go:build !unix

package logparse

import "os"

// MapFile maps nothing on this platform: the caller reads the file.
func MapFile(*os.File, int64, func([]byte)) (mapped, changed bool) { return false, false }
