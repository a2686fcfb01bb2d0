package playbooks

import "strings"

// adviceCues start a piece of advice inside a message: PyTorch's messages suggest settings whose names are the
// words some playbooks match on (a ConstraintViolationError says `For more information, run with
// TORCH_LOGS="+dynamic"`, which is no invalid TORCH_LOGS).
var adviceCues = []string{
	"For more information", "run with ", "Run with ", "try setting ", "Try setting ", "try adding ", "Try adding ",
	"you can try ", "You can try ", "consider setting ", "Consider setting ",
}

// adviceFree is a message without the advice quoted in it, for the matcher: the lines that start with "Hint:" (a
// graph break's hints as the triage layer passes them, and as a fullgraph error's message prints them), and within
// a line each piece of advice from its cue (adviceCues) to the end of its sentence, or of its parenthesis. A
// playbook matches on what happened, never on what the message suggests doing.
func adviceFree(s string) string {
	if !strings.Contains(s, "Hint:") && !hasCue(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "Hint:") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(cutAdvice(line))
	}
	return b.String()
}

func hasCue(s string) bool {
	for _, c := range adviceCues {
		if strings.Contains(s, c) {
			return true
		}
	}
	return false
}

// cutAdvice removes each piece of advice from one line.
func cutAdvice(line string) string {
	for {
		at := -1
		for _, c := range adviceCues {
			if i := strings.Index(line, c); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
		if at < 0 {
			return line
		}
		end := len(line)
		if at > 0 && line[at-1] == '(' { // "(run with NCCL_DEBUG=WARN for details)"
			at--
			if j := strings.IndexByte(line[at:], ')'); j >= 0 {
				end = at + j + 1
			}
		} else {
			for _, stop := range []string{". ", "! ", "? "} {
				if j := strings.Index(line[at:], stop); j >= 0 && at+j+1 < end {
					end = at + j + 1
				}
			}
		}
		line = line[:at] + line[end:]
	}
}
