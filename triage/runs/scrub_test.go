package runs

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// Realistic shapes of the secrets a repro's output can carry (none of them real).
const (
	hfToken     = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"                                                        // hf_ + 34
	awsKeyID    = "AKIAIOSFODNN7EXAMPL3"                                                                         // AKIA + 16
	awsSecret   = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"                                                     // 40
	ghpToken    = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"                                                     // ghp_ + 36
	githubPAT   = "github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567" // fine-grained
	bearerToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
)

func TestScrubPatterns(t *testing.T) {
	for _, tc := range []struct {
		name, line, rule string
		gone             []string // must not survive
		want             string   // exact result, when given
	}{
		{"hf token", "login with " + hfToken + " ok", RuleHuggingFace, []string{hfToken}, "login with <redacted> ok"},
		{"hf token in env line", "HF_TOKEN=" + hfToken, RuleHuggingFace, []string{hfToken}, "HF_TOKEN=<redacted>"},
		{"aws key id", "aws_access_key_id = " + awsKeyID, RuleAWSKeyID, []string{awsKeyID}, "aws_access_key_id = <redacted>"},
		{"aws secret line", "aws_secret_access_key = " + awsSecret, RuleAWSSecret, []string{awsSecret}, "aws_secret_access_key = <redacted>"},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret, RuleAWSSecret, []string{awsSecret}, "AWS_SECRET_ACCESS_KEY=<redacted>"},
		{"github classic", "git push https://" + ghpToken + "@github.com/o/r", RuleGitHub, []string{ghpToken}, ""},
		{"github fine-grained", "GH=" + githubPAT, RuleGitHub, []string{githubPAT, "github_pat_11"}, "GH=<redacted>"},
		{"bearer", "Authorization: Bearer " + bearerToken, RuleBearer, []string{bearerToken}, "Authorization: Bearer <redacted>"},
		{"url credentials", "fetching https://alice:s3cr3t-Pa55@hub.example.com/models/x", RuleURLCredentials,
			[]string{"alice", "s3cr3t-Pa55"}, "fetching https://<redacted>@hub.example.com/models/x"},
		{"token flag =", "argv: train.py --token=abcd1234efgh --steps 3", RuleSecretFlag, []string{"abcd1234efgh"},
			"argv: train.py --token=<redacted> --steps 3"},
		{"password flag space", "run --password hunter2-Secret now", RuleSecretFlag, []string{"hunter2-Secret"},
			"run --password <redacted> now"},
		{"api key flag quoted", `--api-key "two words" --x`, RuleSecretFlag, []string{"two words"}, `--api-key <redacted> --x`},
		{"hf-token flag", "--hf-token=" + "abcdef0123", RuleSecretFlag, []string{"abcdef0123"}, "--hf-token=<redacted>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScrub(nil)
			got := s.Line(tc.line)
			for _, g := range tc.gone {
				if strings.Contains(got, g) {
					t.Errorf("%q survived: %q", g, got)
				}
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if n := s.Count(tc.rule); n != 1 {
				t.Errorf("rule %q counted %d (counts %v)", tc.rule, n, s.Counts())
			}
		})
	}
}

// What only looks like a secret stays: the log must still be evidence.
func TestScrubLeavesOrdinaryText(t *testing.T) {
	for _, line := range []string{
		"train.py --max-new-tokens 128 --token-budget 9 --tokenizer gpt2",
		"hf_hub_download(repo_id='gpt2')",
		"Bearer of bad news",
		"see https://pytorch.org/docs and git@github.com:pytorch/pytorch.git",
		`[rank0]:V1121 08:31:27.444000 6164 torch/_dynamo/symbolic_convert.py:5368] [0/0] [__graph_breaks] Graph break in user code at /work/repro/r05_dist_c10d.py:10`,
		"HF_TOKEN=<redacted> --token=<redacted>",
		"tensor 'L['x']' size mismatch at index 0. expected 4, actual 8",
	} {
		s := NewScrub(nil)
		if got := s.Line(line); got != line || len(s.Counts()) != 0 {
			t.Errorf("%q became %q (%v)", line, got, s.Counts())
		}
	}
}

// The values of secret-named environment variables go wherever they appear.
func TestScrubEnvironmentValues(t *testing.T) {
	s := NewScrub([]string{"PATH=/usr/bin", "MY_SERVICE_PASSWORD=pa55-w0rd-xyz", "SHORT_TOKEN=ab", "WANDB_API_KEY=0123456789abcdef"})
	got := s.Line("connecting with pa55-w0rd-xyz and 0123456789abcdef to /usr/bin")
	if got != "connecting with <redacted> and <redacted> to /usr/bin" {
		t.Errorf("%q", got)
	}
	if s.Count(RuleEnvValue) != 2 {
		t.Errorf("counts %v", s.Counts())
	}
}

// The filter streams: any split of the input into writes gives the same output, line by line, and a line longer
// than the buffer is scrubbed in pieces cut at blanks.
func TestScrubWriterStreams(t *testing.T) {
	in := "a " + hfToken + "\nno newline at the end: Bearer " + bearerToken
	want := "a <redacted>\nno newline at the end: Bearer <redacted>"
	for _, chunk := range []int{1, 3, 7, 64, len(in)} {
		var out bytes.Buffer
		s := NewScrub(nil)
		w := s.Writer(&out)
		for i := 0; i < len(in); i += chunk {
			if _, err := w.Write([]byte(in[i:min(i+chunk, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want || s.Count(RuleHuggingFace) != 1 || s.Count(RuleBearer) != 1 {
			t.Errorf("chunk %d: %q %v", chunk, out.String(), s.Counts())
		}
	}
	long := strings.Repeat("word ", maxScrubLine/5) + hfToken + " " + strings.Repeat("x", 10) + "\n"
	var out bytes.Buffer
	s := NewScrub(nil)
	w := s.Writer(&out)
	if _, err := io.Copy(w, strings.NewReader(long+long)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if strings.Contains(out.String(), hfToken) || s.Count(RuleHuggingFace) != 2 || out.Len() != 2*(len(long)-len(hfToken)+len(Redacted)) {
		t.Errorf("long lines: %d bytes, counts %v", out.Len(), s.Counts())
	}
}

// A key=value pair whose key names a secret loses its value: in a URL's query, printed bare, as an env-style line,
// as a quoted literal of a script and in JSON. Each case counts its pairs under RuleSecretKey.
func TestScrubSecretKeys(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		n          int
	}{
		{"GET https://db.example.com/api?user=bob&password=Hunter2pass&db=x", "GET https://db.example.com/api?user=bob&password=<redacted>&db=x", 1},
		{"postgres://db:5432/app?sslmode=require&pwd=Pa55#w0rd", "postgres://db:5432/app?sslmode=require&pwd=<redacted>", 1}, // # may be in a password
		{"connecting with password=Hunter2pass", "connecting with password=<redacted>", 1},
		{"MYSVC_PW=Hunter2pass", "MYSVC_PW=<redacted>", 1},
		{"export DB_PASSWD=Hunter2pass; run", "export DB_PASSWD=<redacted>; run", 1},
		{"user=bob passwd=Hunter2pass pw=abcd", "user=bob passwd=<redacted> pw=<redacted>", 2},
		{"client_secret=abc123def auth_token=t0k3nvalue X-Api-Key=k3yvalue", "client_secret=<redacted> auth_token=<redacted> X-Api-Key=<redacted>", 3},
		{"db.password=Hunter2pass secret_key=Hunter2pass apikey=Hunter2pass", "db.password=<redacted> secret_key=<redacted> apikey=<redacted>", 3},
		{`PASSWORD = "Hunter2 pass"  # the service's`, `PASSWORD = "<redacted>"  # the service's`, 1},
		{`connect(host="db", password='Hunter2pass', port=5)`, `connect(host="db", password='<redacted>', port=5)`, 1},
		{`Namespace(token=Hunter2pass, steps=3)`, `Namespace(token=<redacted>, steps=3)`, 1},
		{`{"user": "bob", "password": "Hunter2pass", "api_key": "k3yvalue"}`, `{"user": "bob", "password": "<redacted>", "api_key": "<redacted>"}`, 2},
		{"MySvc_Password=Hunter2pass", "MySvc_Password=<redacted>", 1},
		{`os.environ["MYSVC_PW"] = "Hunter2pass"`, `os.environ["MYSVC_PW"] = "<redacted>"`, 1},
	} {
		s := NewScrub(nil)
		if got := s.Line(tc.line); got != tc.want || s.Count(RuleSecretKey) != tc.n {
			t.Errorf("%q\n got %q (%v)\nwant %q (%d)", tc.line, got, s.Counts(), tc.want, tc.n)
		}
		if strings.Contains(s.Line(tc.line), "Hunter2") {
			t.Errorf("%q: the password survived", tc.line)
		}
	}
}

// What only looks like a secret key stays: the shell's pwd and PWD, paths to a password file (not the
// password), keys a secret word only begins or is inside of, code that fetches a secret, placeholders and
// values too short to be one.
func TestScrubSecretKeysLeavesOrdinaryText(t *testing.T) {
	for _, line := range []string{
		"$ pwd",
		"PWD=/home/bob/work OLDPWD=/home/bob",
		"train.py --password-file /run/secrets/db --token-budget=9",
		"DB_PASSWORD_FILE=/run/secrets/db",
		"max_tokens=128 num_tokens=4096 tokens_per_s=811.2 keypoints=17",
		"tokenizer=gpt2 passwords_checked=3 secretary=alice pwm=on",
		"guard: L['key'] == 'fxgraph_cache' and token_ids.size()[0] == 128",
		`pw = os.environ["MYSVC_PW"]`,
		`url = "https://db/x?user=bob&password=" + pw + "&db=x"`,
		`login(token=get_token())`,
		`token = tokenizer(x)`,
		"if password == expected:",
		"password=None token=null secret=*** api_key=$API_KEY pw=${PW}",
		`pad_token='<pad>' bos_token="<s>" unk_token=[UNK] eos_token=2`,
		`"password={pw}" % "password=%(pw)s"`,
		"HF_TOKEN=<redacted> password=<redacted>",
		`[rank0]:V1121 08:31:27.444000 6164 torch/_dynamo/guards.py:3270] [0/1] [__recompiles] triggered by the following guard failure(s): - 0/0: tensor 'L['x']' size mismatch at index 0. expected 4, actual 8`,
	} {
		s := NewScrub(nil)
		if got := s.Line(line); got != line || len(s.Counts()) != 0 {
			t.Errorf("%q became %q (%v)", line, got, s.Counts())
		}
	}
}

// Secret names for environment variables and flags: PW and PWD as a last word are secrets, the shell's PWD is not.
func TestIsSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"HF_TOKEN": true, "MYSVC_PW": true, "DB_PASSWD": true, "DB_PWD": true, "pw": true, "--pw": true, "--db-pwd": true,
		"MY_PASSWORD": true, "PWD": false, "OLDPWD": false, "PWM_MODE": false, "BATCH": false, "PATH": false,
	} {
		if got := IsSecretName(name); got != want {
			t.Errorf("IsSecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

// docs/bundle.md's table lists every kind of secret a bundle scrubs, by the name the pack's README counts it under.
func TestScrubbedTableListsEveryRule(t *testing.T) {
	doc, err := os.ReadFile("../../docs/bundle.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range append([]string{RuleRunSecret, RuleEnvValue}, ruleNames()...) {
		if !strings.Contains(string(doc), "\n| "+rule+" | ") {
			t.Errorf("docs/bundle.md's table lacks %q", rule)
		}
	}
}
