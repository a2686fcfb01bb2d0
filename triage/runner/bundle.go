package runner

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Bundle writes a tar.gz repro pack of a run: its logs, meta.json, probe/ and
// trace/ folders, versions.txt, the repro script when the command names a
// single existing .py file, and a README.md with the exact command and
// environment to rerun it. Secrets are never included: secret-named
// variables and flags are redacted in meta.json and README.md, and the values
// of secret-named variables of the current environment are masked in every
// file copied.
func Bundle(runDir, outFile string) error {
	m, err := LoadRun(runDir)
	if err != nil {
		return err
	}
	m.Env = redactEnvMap(m.Env)
	m.Argv, m.UserArgv = redactArgv(m.Argv), redactArgv(m.UserArgv)
	if err := os.MkdirAll(filepath.Dir(outFile), 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(outFile), ".bundle-*.tmp")
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer os.Remove(tmp.Name())
	b := &bundler{root: m.Name, mask: secretMasker(os.Environ()), gz: gzip.NewWriter(tmp)}
	b.tw = tar.NewWriter(b.gz)
	werr := b.writeAll(m)
	err = errors.Join(werr, b.tw.Close(), b.gz.Close(), tmp.Close())
	if err != nil {
		return fmt.Errorf("bundle %s: %w", m.Name, err)
	}
	if err := os.Rename(tmp.Name(), outFile); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return nil
}

type bundler struct {
	root  string
	mask  *strings.Replacer
	gz    *gzip.Writer
	tw    *tar.Writer
	files []string
}

func (b *bundler) writeAll(m Meta) error {
	metaJSON, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := b.addBytes("meta.json", append(metaJSON, '\n')); err != nil {
		return err
	}
	entries, err := os.ReadDir(m.Dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".log") {
			if err := b.addFile(filepath.Join(m.Dir, e.Name()), e.Name()); err != nil {
				return err
			}
		}
	}
	for _, sub := range []string{"probe", "trace"} {
		if err := b.addTree(m.Dir, sub); err != nil {
			return err
		}
	}
	if script := reproScript(m); script != "" {
		if err := b.addFile(script, "repro/"+filepath.Base(script)); err != nil {
			return err
		}
	}
	if err := b.addBytes("versions.txt", []byte(versionsText(m))); err != nil {
		return err
	}
	return b.addBytes("README.md", []byte(readmeText(m, b.files)))
}

func (b *bundler) header(name string, size int64) *tar.Header {
	b.files = append(b.files, name)
	return &tar.Header{Name: b.root + "/" + name, Mode: 0o644, Size: size, ModTime: time.Now(), Typeflag: tar.TypeReg}
}

func (b *bundler) addBytes(name string, data []byte) error {
	if err := b.tw.WriteHeader(b.header(name, int64(len(data)))); err != nil {
		return err
	}
	_, err := b.tw.Write(data)
	return err
}

// addFile copies a file, masking secret values (same length, so the size
// stays right) and only as many bytes as it had when the header was written.
func (b *bundler) addFile(path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := b.tw.WriteHeader(b.header(name, st.Size())); err != nil {
		return err
	}
	r := io.LimitReader(f, st.Size())
	if b.mask == nil {
		_, err = io.Copy(b.tw, r)
		return err
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, rerr := br.ReadString('\n')
		if _, err := io.WriteString(b.tw, b.mask.Replace(line)); err != nil {
			return err
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// addTree adds the regular files under dir/sub (links and others skipped).
func (b *bundler) addTree(dir, sub string) error {
	root := filepath.Join(dir, sub)
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		return b.addFile(path, filepath.ToSlash(rel))
	})
}

func redactEnvMap(env map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		if IsSecretName(k) {
			v = Redacted
		}
		out[k] = v
	}
	return out
}

// secretMasker replaces the values of secret-named variables of env by
// asterisks of the same length; nil when there are none.
func secretMasker(env []string) *strings.Replacer {
	var pairs []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if IsSecretName(k) && len(v) >= 4 && !strings.ContainsAny(v, "\n") {
			pairs = append(pairs, v, strings.Repeat("*", len(v)))
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	return strings.NewReplacer(pairs...)
}

// reproScript returns the path of the single .py file the command names,
// when it exists.
func reproScript(m Meta) string {
	var found []string
	for _, arg := range m.UserArgv {
		for _, f := range strings.Fields(arg) {
			if !strings.HasSuffix(f, ".py") {
				continue
			}
			p := f
			if !filepath.IsAbs(p) {
				p = filepath.Join(m.Cwd, p)
			}
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !containsStr(found, p) {
				found = append(found, p)
			}
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
