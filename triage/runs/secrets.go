package runs

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// SecretPrints lets a later bundle find the secrets a run was given in what it printed without the run dir
// keeping them: keyed hashes (HMAC-SHA256 with a random key of the run) of the values of secret-named variables
// of its environment and of secret flags of its command, each with its length. The bundle leaves them out of the
// meta.json it packs.
type SecretPrints struct {
	Key    string   `json:"key"`    // hex
	Prints []string `json:"prints"` // "LEN:HEX", sorted by nothing
	lens   map[int]bool
	set    map[string]bool
}

// minSecretLen is the shortest value printed: a shorter one would match everywhere (NewScrub's rule).
const minSecretLen = 4

// SecretPrintsOf prints the secrets of a run: the values of secret-named variables of env ("NAME=value": the
// inherited environment and the run's additions) and of secret flags of argv (--token X, --api-key=X). Nil when
// there is none.
func SecretPrintsOf(argv, env []string) *SecretPrints {
	var vals []string
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); IsSecretName(k) {
			vals = append(vals, v)
		}
	}
	for i, a := range argv {
		name, v, hasValue := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") || !IsSecretName(name) {
			continue
		}
		if !hasValue && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
			v = argv[i+1]
		}
		vals = append(vals, v)
	}
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		return nil
	}
	p := &SecretPrints{Key: hex.EncodeToString(key)}
	seen := map[string]bool{}
	for _, v := range vals {
		if len(v) < minSecretLen || v == Redacted || strings.ContainsAny(v, "\n") || seen[v] {
			continue
		}
		seen[v] = true
		p.Prints = append(p.Prints, p.print(v))
	}
	if len(p.Prints) == 0 {
		return nil
	}
	return p
}

func (p *SecretPrints) print(v string) string {
	key, _ := hex.DecodeString(p.Key)
	h := hmac.New(sha256.New, key)
	h.Write([]byte(v))
	return strconv.Itoa(len(v)) + ":" + hex.EncodeToString(h.Sum(nil)[:16])
}

// Has reports whether v is one of the printed secrets.
func (p *SecretPrints) Has(v string) bool {
	if p == nil || len(p.Prints) == 0 {
		return false
	}
	if p.set == nil {
		p.set, p.lens = map[string]bool{}, map[int]bool{}
		for _, s := range p.Prints {
			p.set[s] = true
			if n, _, ok := strings.Cut(s, ":"); ok {
				l, _ := strconv.Atoi(n)
				p.lens[l] = true
			}
		}
	}
	return p.lens[len(v)] && p.set[p.print(v)]
}

// secretDelims end a word of text that a secret is looked for in: blanks, quotes, brackets, commas, semicolons.
const secretDelims = " \t\r'\"`,;()[]{}<>"

// redactPrinted replaces the words of line that are printed secrets (a word, or its part after "=" or ":"),
// and counts them.
func (p *SecretPrints) redactPrinted(line string) (string, int) {
	if p == nil || len(p.Prints) == 0 {
		return line, 0
	}
	var b strings.Builder
	n, last := 0, 0
	for i := 0; i <= len(line); {
		j := i
		for j < len(line) && !strings.ContainsRune(secretDelims, rune(line[j])) {
			j++
		}
		if j-i >= minSecretLen {
			word := line[i:j]
			from := -1
			switch {
			case p.Has(word):
				from = i
			default:
				for _, sep := range []string{"=", ":"} {
					if k := strings.Index(word, sep); k >= 0 && p.Has(word[k+1:]) {
						from = i + k + 1
						break
					}
				}
			}
			if from >= 0 {
				b.WriteString(line[last:from])
				b.WriteString(Redacted)
				last, n = j, n+1
			}
		}
		i = j + 1
	}
	if n == 0 {
		return line, 0
	}
	b.WriteString(line[last:])
	return b.String(), n
}
