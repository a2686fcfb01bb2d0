package guard

import (
	"strconv"
	"strings"
)

// NormalizeSource turns Dynamo guard sources into the names users write: L['x'] → x, L['args'][0] → args[0],
// L['self']._modules['l1'].weight → self.l1.weight (2.14 already prints the short form).
func NormalizeSource(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "L[") || strings.HasPrefix(s, "G[") {
		s = localSource.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "._modules[") {
		s = moduleSource.ReplaceAllString(s, ".$1")
	}
	return s
}

// StripGuardComment removes the "# code  # file:line in fn" comment 2.14 appends to a guard (a '#' outside
// quotes preceded by a space) and surrounding spaces.
func StripGuardComment(s string) string {
	// Fast path: the first '#' (found by the vectorised search) with no quote before it decides alone.
	h := strings.IndexByte(s, '#')
	if h < 0 {
		return strings.TrimSpace(s)
	}
	if h > 0 && (s[h-1] == ' ' || s[h-1] == '\t') && strings.IndexByte(s[:h], '\'') < 0 && strings.IndexByte(s[:h], '"') < 0 {
		return strings.TrimSpace(s[:h])
	}
	return stripGuardCommentQuoted(s)
}

// stripGuardCommentQuoted is StripGuardComment reading every byte: quotes may hide a '#'.
func stripGuardCommentQuoted(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// FoldFunction maps Dynamo's resume functions to the user's function: torch_dynamo_resume_in_step_at_10 → step,
// 10 (a resume function of a resume function folds to the user's function, keeping the latest resume line). Other names come
// back unchanged with line 0.
func FoldFunction(name string) (string, int) {
	if !strings.HasPrefix(name, "torch_dynamo_resume_in_") {
		return name, 0
	}
	return foldFunction(name)
}

func foldFunction(name string) (string, int) {
	m := resumeFn.FindStringSubmatch(name)
	if m == nil {
		return name, 0
	}
	line, _ := strconv.Atoi(m[2])
	inner, _ := FoldFunction(m[1])
	return inner, line
}
