package runs

import (
	"archive/tar"
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

// BundleOptions are what a pack holds beyond the run directory.
type BundleOptions struct {
	NoScrub  bool              // pack the files as the run wrote them (argv and env stay redacted)
	Findings string            // the run's findings as Markdown (triage's report), for the README; "" when not analysed
	Versions []ProcessVersions // what the probe recorded per process (probe/rank*.json), for the README
}

// Bundle writes a tar.gz repro pack of a run: its logs, meta.json, probe/ (without the probe's own
// sitecustomize) and trace/ folders, versions.txt, the code that ran under repro/ (the run's code/: its scripts
// and the user modules it imported, as they were; for a run made before runs kept their code, today's copy of
// the script when the command names a single existing .py file, and the README says so), and a README.md for an upstream issue: versions, the exact command and environment to rerun it
// (without the probe's plumbing), the findings, and what was scrubbed. Secrets are left out: secret-named
// variables and flags are redacted in meta.json and README.md and, unless NoScrub, every file is scrubbed as it
// is copied (Scrub: the values of the current environment's secret-named variables, and token shapes).
func Bundle(runDir, outFile string, opt BundleOptions) error {
	m, err := LoadRun(runDir)
	if err != nil {
		return err
	}
	m.Env = redactEnvMap(m.Env)
	prints := m.Secrets
	m.Secrets = nil // the bundle keeps no print of them
	m.Argv, m.UserArgv = RedactArgv(m.Argv), RedactArgv(m.UserArgv)
	var sc *Scrub
	if !opt.NoScrub {
		sc = NewScrub(os.Environ()).WithPrints(prints)
		scrubMeta(sc, &m)
		opt.Findings = sc.Text(opt.Findings)
	}
	if err := os.MkdirAll(filepath.Dir(outFile), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(outFile), ".bundle-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	b := &bundler{root: m.Name, scrub: sc, tmpDir: filepath.Dir(outFile), gz: gzip.NewWriter(tmp)}
	b.tw = tar.NewWriter(b.gz)
	werr := b.writeAll(m, opt)
	err = errors.Join(werr, b.tw.Close(), b.gz.Close(), tmp.Close())
	if err != nil {
		return fmt.Errorf("bundle %s: %w", m.Name, err)
	}
	if err := os.Rename(tmp.Name(), outFile); err != nil {
		return err
	}
	return nil
}

type bundler struct {
	root   string
	scrub  *Scrub // nil: --no-scrub
	tmpDir string // where scrubbed copies wait for their size to be known
	gz     *gzip.Writer
	tw     *tar.Writer
	files  []string
	todays string // the script packed as it is today, in a run that kept no code ("" otherwise)
}

func (b *bundler) writeAll(m Meta, opt BundleOptions) error {
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
	if m.Code != nil { // the code that ran, as the run kept it
		for _, f := range m.Code.Files {
			if !f.Kept() {
				continue
			}
			if err := b.addFile(filepath.Join(m.Dir, CodeDir, filepath.FromSlash(f.Path)), "repro/"+f.Path); err != nil {
				return err
			}
		}
	} else if script := reproScript(m); script != "" { // a run made before runs kept their code: today's copy
		if err := b.addFile(script, "repro/"+filepath.Base(script)); err != nil {
			return err
		}
		b.todays = "repro/" + filepath.Base(script)
	}
	if v, ok := ReadMinified(m.Dir); ok { // what the ladder's minifier and bisector made of this run
		for _, f := range []string{v.Repro, "verdict.json"} {
			if f != "" {
				if err := b.addFile(filepath.Join(m.Dir, MinifiedDir, f), MinifiedDir+"/"+f); err != nil {
					return err
				}
			}
		}
	}
	if err := b.addBytes("versions.txt", []byte(versionsText(m, opt.Versions))); err != nil {
		return err
	}
	return b.addBytes("README.md", []byte(readmeText(m, b.files, b.todays, opt, b.scrub)))
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

// addFile copies a file, scrubbed (through a temporary file: a tar header needs the size first), and only as
// many bytes as it had when it was opened (a log may still grow).
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
	var r io.Reader = io.LimitReader(f, st.Size())
	size := st.Size()
	if b.scrub != nil {
		tmp, err := os.CreateTemp(b.tmpDir, ".scrub-*.tmp")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		w := b.scrub.Writer(tmp)
		if _, err := io.Copy(w, r); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if size, err = tmp.Seek(0, io.SeekCurrent); err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = tmp
	}
	if err := b.tw.WriteHeader(b.header(name, size)); err != nil {
		return err
	}
	_, err = io.Copy(b.tw, r)
	return err
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
		if probePlumbing(rel) {
			return nil
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

// probePlumbing reports the probe's own files in a run directory (its sitecustomize, readiness markers,
// half-written files): not the run's.
func probePlumbing(rel string) bool {
	dir, name := filepath.Split(filepath.ToSlash(rel))
	return dir == "probe/" && (name == "sitecustomize.py" || strings.HasPrefix(name, "ready-") || strings.HasSuffix(name, ".tmp"))
}

// scrubMeta scrubs what the run's meta says of its command and environment.
func scrubMeta(sc *Scrub, m *Meta) {
	for _, argv := range [][]string{m.Argv, m.UserArgv} {
		for i := range argv {
			argv[i] = sc.Line(argv[i])
		}
	}
	for k, v := range m.Env {
		m.Env[k] = sc.Line(v)
	}
	m.Cwd, m.Error, m.Note, m.RelaunchNote = sc.Line(m.Cwd), sc.Text(m.Error), sc.Line(m.Note), sc.Line(m.RelaunchNote)
}

// reproScript returns the path of the single script the command names (CommandScripts),
// when it exists.
func reproScript(m Meta) string {
	if found := CommandScripts(m.UserArgv, m.Cwd); len(found) == 1 {
		return found[0]
	}
	return ""
}
