package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The command line as a whole, over every command newRoot has (so a new command is covered without a new
// test): --help, malformed flags, flags after positionals.

// commands is every visible command below the root (completion's shells included), by its arguments.
func commands(t *testing.T) [][]string {
	t.Helper()
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			p := append(append([]string{}, path...), sub.Name())
			out = append(out, p)
			walk(sub, p)
		}
	}
	walk(newRoot(), nil)
	if len(out) < 13 {
		t.Fatalf("only %d commands: %v", len(out), out)
	}
	return out
}

// lookup finds the command at path.
func lookup(t *testing.T, path []string) *cobra.Command {
	t.Helper()
	c, _, err := newRoot().Find(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEveryCommandHelp(t *testing.T) {
	for _, path := range commands(t) {
		code, out, errs := runCLI(append(path, "--help")...)
		if code != 0 || errs != "" || !strings.Contains(out, "torchtriage "+strings.Join(path, " ")) {
			t.Errorf("%v --help: exit %d, stderr %q, stdout:\n%s", path, code, errs, out)
		}
	}
}

// A malformed flag is one line on stderr that names it and points to --help, exit 2: an unknown flag on every
// command, and a bad value for every flag whose values can be wrong (numbers, durations, booleans, enums).
func TestEveryCommandMalformedFlag(t *testing.T) {
	for _, path := range commands(t) {
		cmdPath := "torchtriage " + strings.Join(path, " ")
		oneLine := func(args []string, flag string) {
			t.Helper()
			code, out, errs := runCLI(append(append([]string{}, path...), args...)...)
			want := cmdPath + ": " + flag
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, want) ||
				!strings.HasSuffix(errs, "; see "+cmdPath+" --help\n") {
				t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want exit 2 and one line %q…", path, args, code, out, errs, want)
			}
		}
		oneLine([]string{"--no-such-flag"}, "unknown flag --no-such-flag")
		lookup(t, path).Flags().VisitAll(func(f *pflag.Flag) {
			bad := ""
			switch v := f.Value.(type) {
			case *enumValue:
				bad = "no-such-value"
			case *durationValue, *widthValue:
				bad = "soon"
			default:
				switch v.Type() {
				case "int", "float64":
					bad = "many"
				case "bool":
					bad = "perhaps"
				}
			}
			if bad != "" && !f.Hidden {
				oneLine([]string{"--" + f.Name + "=" + bad}, "--"+f.Name+": ")
			}
		})
	}
}

// Flags work after positional arguments.
func TestFlagsAfterPositionals(t *testing.T) {
	log := fx("torch-2.14/gb_recompile.triage.log")
	// the TUI cannot start on a buffer: past flag parsing, open refuses it for not being a terminal
	code, _, errs := runCLI("open", log, "--no-color")
	if code != 2 || !strings.Contains(errs, "stdout is not a terminal") || strings.Contains(errs, "flag") {
		t.Errorf("open LOG --no-color: exit %d %q", code, errs)
	}
	code, out, errs := runCLI("report", log, "--format", "json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Errorf("report LOG --format json: exit %d %q\n%s", code, errs, out)
	}
	store := bringupStore(t, 3)
	code, out, errs = runCLI("note", "3", "switched to funcol", "--store", store)
	if code != 0 || !strings.Contains(out, `note "switched to funcol"`) {
		t.Errorf("note 3 TEXT --store DIR: exit %d %q %q", code, out, errs)
	}
	code, out, errs = runCLI("diff", "1", "3", "--store", store, "--format", "json")
	if code != 0 || !json.Valid([]byte(out)) {
		t.Errorf("diff 1 3 --store DIR --format json: exit %d %q\n%s", code, errs, out)
	}
}

// --timeout and --stall take a bare number of seconds, as coreutils timeout does, and Go durations.
func TestDurationsInSeconds(t *testing.T) {
	for _, name := range []string{"run", "check"} {
		for _, c := range []struct {
			arg  string
			want time.Duration
		}{{"300", 300 * time.Second}, {"1.5", 1500 * time.Millisecond}, {"5m", 5 * time.Minute}, {"0", 0}} {
			cmd := lookup(t, []string{name})
			if err := cmd.ParseFlags([]string{"--timeout", c.arg, "--stall=" + c.arg}); err != nil {
				t.Fatalf("%s --timeout %s: %v", name, c.arg, err)
			}
			for _, flag := range []string{"timeout", "stall"} {
				if got := time.Duration(*cmd.Flags().Lookup(flag).Value.(*durationValue)); got != c.want {
					t.Errorf("%s --%s %s = %v, want %v", name, flag, c.arg, got, c.want)
				}
			}
		}
	}
}

// Unknown runs and ids are exit 2 with one line "torchtriage CMD: …" on every command that takes them.
func TestUnknownRunsAndIDs(t *testing.T) {
	store := bringupStore(t, 1)
	notRun := t.TempDir()
	for _, args := range [][]string{
		{"diff", "--store", store, "1", "9"}, {"diff", "--store", store, "9", "1"},
		{"note", "--store", store, "9", "text"}, {"note", notRun, "text"},
		{"bundle", "--store", store, "9"}, {"bundle", notRun},
		{"explain", "GB9999"}, {"explain", "no-such-playbook"},
	} {
		code, out, errs := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "torchtriage "+args[0]+": ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}
