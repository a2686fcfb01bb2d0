package runs

import (
	"regexp"
	"strings"
)

// secretKeyRE finds a key that names a secret, then its separator: the key's last word (words are separated by
// _ - or .) is one of the secret words (password, MYSVC_PW, db.passwd, api_key, X-Auth-Token), optionally quoted
// ("password": …) or a subscript (os.environ["MYSVC_PW"] = …), and "=" or ":" with the blanks around it. Where the key starts is checked apart (a letter,
// digit, _ - or . before it makes it the tail of a longer word: "xpassword", "--db-password" (the flag rule's)).
var secretKeyRE = regexp.MustCompile(`(?i)(["']?)((?:[a-z0-9]+[_.\-])*(?:passwd|password|passphrase|pwd|pw|secret|token|api[_\-]?key|access[_\-]?key|secret[_\-]?key|private[_\-]?key|credentials?))(["']?)\]?(\s*)([=:])(\s*)`)

// secretKeyHints are lower-case parts of every secret word: a line with none of them has no secret key.
var secretKeyHints = []string{"pass", "pw", "secret", "token", "key", "credential"}

// secretValueEnd ends an unquoted value: blanks, quotes, and the punctuation that separates fields or closes a
// call (a URL's &, Python's "f(a=1, b=2)").
const secretValueEnd = " \t\r\n\"'&,;)]}"

// codeRefRE is a value that is a reference in code, not a secret: a call or an index ("token=get_token()",
// "pw=os.environ[…").
var codeRefRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*[(\[]`)

// redactSecretKeys replaces the values of the key=value pairs of line whose key names a secret (secretKeyRE):
// in URL queries (?user=bob&password=…), bare (password=…, MYSVC_PW=…), as a quoted literal (password =
// "…", keeping the quotes) and in JSON or a dict ("password": "…"). A value with blanks around its "=", or after
// a ":", is only a secret when it is quoted (else it is code: token = tok(x)). Left alone: values shorter than 4
// bytes, placeholders (<redacted>, <pad>, [PAD], $VAR, ${VAR}, {pw}, %(pw)s, ***), None/null, references in code, and the
// shell's PWD (a directory).
func redactSecretKeys(line string) (string, int) {
	var b strings.Builder
	n, last := 0, 0
	for pos := 0; pos < len(line); {
		loc := secretKeyRE.FindStringSubmatchIndex(line[pos:])
		if loc == nil {
			break
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += pos
			}
		}
		start, end := loc[0], loc[1]
		if start > 0 && isKeyByte(line[start-1]) {
			pos = start + 1
			continue
		}
		pos = end
		quoteL, key, quoteR := line[loc[2]:loc[3]], line[loc[4]:loc[5]], line[loc[6]:loc[7]]
		spaced := loc[9] > loc[8] || loc[13] > loc[12]
		colon := line[loc[10]] == ':'
		if key == "PWD" || colon && (quoteL == "" || quoteL != quoteR) {
			continue
		}
		from, to, ok := secretValue(line, end, spaced || colon)
		if !ok {
			continue
		}
		b.WriteString(line[last:from])
		b.WriteString(Redacted)
		last, pos, n = to, to, n+1
	}
	if n == 0 {
		return line, 0
	}
	b.WriteString(line[last:])
	return b.String(), n
}

// isKeyByte is a byte a key's word can continue with.
func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// secretValue is where the value that starts at v lies (a quoted one without its quotes), and whether it is a
// secret to redact; quoted says only a quoted value is one.
func secretValue(line string, v int, quoted bool) (from, to int, ok bool) {
	if v >= len(line) {
		return 0, 0, false
	}
	if q := line[v]; q == '"' || q == '\'' {
		from = v + 1
		to = strings.IndexByte(line[from:], q)
		if to < 0 {
			to = len(line) // the string goes on past the line: all of it
		} else {
			to += from
		}
		// a blank first is no value but the rest of a string the key ends: "…?password=" + pw
		return from, to, isSecretValue(line[from:to]) && line[from] != ' ' && line[from] != '\t'
	}
	if quoted {
		return 0, 0, false
	}
	to = v
	for to < len(line) && !strings.ContainsRune(secretValueEnd, rune(line[to])) {
		to++
	}
	val := line[v:to]
	return v, to, isSecretValue(val) && !codeRefRE.MatchString(val) && val[0] != '='
}

// isSecretValue reports a value that may be a secret: not too short, not a placeholder.
func isSecretValue(v string) bool {
	if len(v) < minSecretLen || strings.Trim(v, "*") == "" {
		return false
	}
	switch v[0] {
	case '<', '[', '$', '{', '(':
		return false
	}
	if strings.HasPrefix(v, "%(") { // a format's placeholder, %(password)s
		return false
	}
	switch strings.ToLower(v) {
	case "none", "null", "true", "false":
		return false
	}
	return true
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
