package runs

import (
	"bytes"
	"io"
	"regexp"
	"strings"
)

// The kinds of secret a Scrub removes, as the bundle's README names them.
const (
	RuleEnvValue       = "value of a secret-named environment variable"
	RuleHuggingFace    = "Hugging Face token (hf_…)"
	RuleAWSKeyID       = "AWS access key id (AKIA…/ASIA…)"
	RuleAWSSecret      = "AWS secret access key / session token line"
	RuleGitHub         = "GitHub token (ghp_…, github_pat_…)"
	RuleBearer         = "Bearer token"
	RuleURLCredentials = "user:password@ in a URL"
	RuleSecretFlag     = "value of a --token/--password/--secret/--api-key flag"
	RuleSecretKey      = "value of a secret-named key (password=…, ?token=…, MYSVC_PW=…)"
	RuleRunSecret      = "a secret the run was given (a secret-named variable of its environment, a secret flag's value)"
)

// scrubRule is one pattern; hint is a lower-case substring a line must contain for the pattern to be tried
// (most lines of a log have none of them: the regexps stay off the hot path), hints a list of which it must
// contain one. A rule with a redact function replaces what that returns instead of repl.
type scrubRule struct {
	name, hint string
	hints      []string
	re         *regexp.Regexp
	repl       string
	redact     func(line string) (string, int)
}

// notRedacted is a value that is not already <redacted>.
const notRedacted = `(?:"[^"]*"|'[^']*'|[^\s"'<][^\s"']*)`

var scrubRules = []scrubRule{
	{name: RuleHuggingFace, hint: "hf_", re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}\b`), repl: Redacted},
	{name: RuleAWSKeyID, re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), repl: Redacted},
	{name: RuleAWSSecret, hint: "aws_", re: regexp.MustCompile(`(?i)(\baws_(?:secret_access_key|session_token)["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{16,}`), repl: "${1}" + Redacted},
	{name: RuleGitHub, hint: "gh", re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`), repl: Redacted},
	{name: RuleBearer, hint: "bearer", re: regexp.MustCompile(`(?i)(\bBearer\s+)[A-Za-z0-9\-._~+/]{8,}=*`), repl: "${1}" + Redacted},
	{name: RuleURLCredentials, hint: "://", re: regexp.MustCompile(`(\b[A-Za-z][A-Za-z0-9+.\-]*://)[^\s/:@<]+:[^\s/@]+@`), repl: "${1}" + Redacted + "@"},
	{name: RuleSecretFlag, hint: "--", re: regexp.MustCompile(`(?i)(--(?:[a-z0-9]+[-_])*(?:token|password|passwd|pwd|pw|secret|api[-_]?key|access[-_]?key)(?:=|\s+))` + notRedacted), repl: "${1}" + Redacted},
	{name: RuleSecretKey, hints: secretKeyHints, redact: redactSecretKeys},
}

// Scrub removes secrets from text: the values of secret-named environment variables (IsSecretName) wherever
// they appear, and common token shapes (scrubRules). It counts what it removed per rule, over every line and
// writer it served. Not safe for concurrent use.
type Scrub struct {
	values *strings.Replacer
	vals   []string
	prints *SecretPrints // the run's own secrets (WithPrints)
	counts map[string]int
}

// WithPrints makes s also remove the secrets a run was given (Meta.Secrets), wherever they appear as a word.
func (s *Scrub) WithPrints(p *SecretPrints) *Scrub {
	s.prints = p
	return s
}

// ScrubCount is how many secrets of one kind were removed.
type ScrubCount struct {
	Rule string `json:"rule"`
	N    int    `json:"n"`
}

// NewScrub makes a scrubber for the secret-named variables of env ("NAME=value"; values shorter than 4 bytes
// are left alone: they would match everywhere).
func NewScrub(env []string) *Scrub {
	s := &Scrub{counts: map[string]int{}}
	var pairs []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecretName(k) && len(v) >= 4 && v != Redacted && !strings.ContainsAny(v, "\n") {
			pairs = append(pairs, v, Redacted)
			s.vals = append(s.vals, v)
		}
	}
	if len(pairs) > 0 {
		s.values = strings.NewReplacer(pairs...)
	}
	return s
}

// Line scrubs one line (or any text without the secrets spanning a newline).
func (s *Scrub) Line(line string) string {
	if s.prints != nil {
		var n int
		line, n = s.prints.redactPrinted(line)
		s.counts[RuleRunSecret] += n
	}
	for _, v := range s.vals {
		s.counts[RuleEnvValue] += strings.Count(line, v)
	}
	if s.values != nil {
		line = s.values.Replace(line)
	}
	var lower string
	for _, r := range scrubRules {
		if r.hint != "" || r.hints != nil {
			if lower == "" {
				lower = strings.ToLower(line)
			}
			if r.hint != "" && !strings.Contains(lower, r.hint) || r.hints != nil && !containsAny(lower, r.hints) {
				continue
			}
		}
		if r.redact != nil {
			var n int
			line, n = r.redact(line)
			s.counts[r.name] += n
			continue
		}
		if locs := r.re.FindAllStringIndex(line, -1); len(locs) > 0 {
			s.counts[r.name] += len(locs)
			line = r.re.ReplaceAllString(line, r.repl)
		}
	}
	return line
}

// Text scrubs a text of several lines.
func (s *Scrub) Text(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = s.Line(l)
	}
	return strings.Join(lines, "\n")
}

// Count is the number of secrets of one rule removed so far.
func (s *Scrub) Count(rule string) int { return s.counts[rule] }

// Counts lists the rules that removed something, in the order they apply.
func (s *Scrub) Counts() []ScrubCount {
	var out []ScrubCount
	for _, name := range append([]string{RuleRunSecret, RuleEnvValue}, ruleNames()...) {
		if n := s.counts[name]; n > 0 {
			out = append(out, ScrubCount{Rule: name, N: n})
		}
	}
	return out
}

func ruleNames() []string {
	out := make([]string, len(scrubRules))
	for i, r := range scrubRules {
		out[i] = r.name
	}
	return out
}

// maxScrubLine bounds what a Writer holds of a line without a newline: a longer one is scrubbed in pieces cut
// at its last blank (a secret never spans one), or at the bound when it has none.
const maxScrubLine = 1 << 20

// Writer returns a filter that writes what it is given to w, scrubbed line by line, holding at most one line
// (maxScrubLine) in memory. Close writes what is left of the last line; it does not close w.
func (s *Scrub) Writer(w io.Writer) io.WriteCloser { return &scrubWriter{s: s, w: w} }

type scrubWriter struct {
	s   *Scrub
	w   io.Writer
	buf []byte
}

func (sw *scrubWriter) Write(p []byte) (int, error) {
	sw.buf = append(sw.buf, p...)
	start := 0
	for {
		i := bytes.IndexByte(sw.buf[start:], '\n')
		if i < 0 {
			break
		}
		if err := sw.emit(sw.buf[start:start+i], "\n"); err != nil {
			return 0, err
		}
		start += i + 1
	}
	for len(sw.buf)-start > maxScrubLine {
		piece := sw.buf[start : start+maxScrubLine]
		cut := bytes.LastIndexAny(piece, " \t")
		if cut <= 0 {
			cut = maxScrubLine
		}
		if err := sw.emit(sw.buf[start:start+cut], ""); err != nil {
			return 0, err
		}
		start += cut
	}
	sw.buf = append(sw.buf[:0], sw.buf[start:]...)
	return len(p), nil
}

// emit writes a scrubbed piece of a line and what ends it.
func (sw *scrubWriter) emit(piece []byte, end string) error {
	_, err := io.WriteString(sw.w, sw.s.Line(string(piece))+end)
	return err
}

func (sw *scrubWriter) Close() error {
	if len(sw.buf) == 0 {
		return nil
	}
	err := sw.emit(sw.buf, "")
	sw.buf = sw.buf[:0]
	return err
}
