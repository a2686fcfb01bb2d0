//go:build !linux && !darwin

package cli

// fsType is unknown here.
func fsType(string) (string, bool) { return "", false }
