package gate

import (
	"os"
	"path/filepath"
	"strings"
)

// PathRootHelp is the rule annotationPath follows, for the flag's help.
const PathRootHelp = "for --format github: a path under DIR (where the repro's files were on the box that " +
	"ran it) is made relative to DIR, else a path under the current directory relative to it; any other path " +
	"becomes its longest tail that exists under the current directory (/work/repro/x.py → repro/x.py), and " +
	"when none exists the annotation names no file"

// annotationPath is the file property of a GitHub annotation: file relative to root (when given and the file
// lies under it), else relative to the working directory (when under it), else the longest tail of its path
// that exists under the working directory. ok is false when none applies: the annotation then names no file.
func annotationPath(file, root string) (rel string, ok bool) {
	if file == "" {
		return "", false
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	if filepath.IsAbs(file) {
		for _, dir := range []string{root, wd} {
			if dir == "" {
				continue
			}
			if abs, err := filepath.Abs(dir); err == nil {
				if r, err := filepath.Rel(abs, file); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
					return filepath.ToSlash(r), true
				}
			}
		}
	}
	parts := strings.Split(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(file)), "/"), "/")
	for i := range parts {
		tail := strings.Join(parts[i:], "/")
		if tail == ".." || strings.HasPrefix(tail, "../") {
			continue
		}
		if st, err := os.Stat(filepath.Join(wd, filepath.FromSlash(tail))); err == nil && st.Mode().IsRegular() {
			return tail, true
		}
	}
	return "", false
}
