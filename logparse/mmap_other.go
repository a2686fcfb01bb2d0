//go:build !unix

package logparse

import "os"

func feedMapped(*Parser, *os.File, int64, int64) (mapped, changed bool) { return false, false }
