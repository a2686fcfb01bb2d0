//go:build !linux && !darwin

package doctor

// fsType is unknown here.
func fsType(string) (string, bool) { return "", false }
