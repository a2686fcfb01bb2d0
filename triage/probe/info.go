package probe

import (
	"github.com/torchtriage/torchtriage/triage"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Info is what the probe recorded for one process (one rank<R>-<pid>.json); triage analyses it.
type Info = triage.ProcessInfo

// ReadDir reads every rank<R>-<pid>.json of <runDir>/probe, sorted by rank
// then pid. A file that cannot be read or parsed gives an error naming it;
// the other files are still read. A missing probe directory is not an error.
func ReadDir(runDir string) ([]Info, []error) {
	dir := Dir(runDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, []error{fmt.Errorf("probe: read %s: %w", dir, err)}
	}
	var infos []Info
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "rank") || !strings.HasSuffix(name, ".json") {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := readInfo(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		infos = append(infos, info)
	}
	sort.SliceStable(infos, func(i, j int) bool {
		if infos[i].Rank != infos[j].Rank {
			return infos[i].Rank < infos[j].Rank
		}
		return infos[i].PID < infos[j].PID
	})
	return infos, errs
}

func readInfo(path string) (Info, error) {
	var info Info
	data, err := os.ReadFile(path)
	if err != nil {
		return info, fmt.Errorf("probe: %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return Info{}, fmt.Errorf("probe: %s: malformed probe file: %w", path, err)
	}
	if info.PID <= 0 {
		return Info{}, fmt.Errorf("probe: %s: malformed probe file: no pid", path)
	}
	info.File = path
	return info, nil
}
