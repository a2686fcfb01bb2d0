#!/usr/bin/env bash
# Start-up (issue 15, "Memory and time at scale"): process start to first frame of `demo`, `open LOG` and `run`
# (a repro that prints a line and sleeps; the probe on, the store in $out/runs; issue 39), in a
# 120x40 pseudo-terminal (script), RUNS runs each, median and min-max. The shell writes $EPOCHREALTIME and then
# execs torchtriage (no fork in between); TORCHTRIAGE_EXIT_AFTER_FIRST_FRAME=FILE makes the program append the
# time of its first View with something on the screen to FILE, with its CPU time until then (user and system: what load
# does not inflate), and quit. When tmux is installed, the same again
# inside a private tmux server ($TMUX set: Charm's colour detection runs `tmux info`).
# Also: `version` (package initialisation and nothing else) with GODEBUG=inittrace=1's total.
# Target: first frame within 50 ms of process start.
#   usage: [TORCHTRIAGE_BIN=path] bench/startup.sh [RUNS]   (default 21)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
out=${TMPDIR:-/tmp}/torchtriage-startup
mkdir -p "$out"
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
log=$PWD/testdata/fixtures/torch-2.14/gb_recompile.triage.log

# series NAME ENV COMMAND: runs COMMAND in a pty RUNS times and prints the median time to first frame
series() {
  local name=$1 env=$2 cmd=$3 id
  id=$(echo "$1" | tr -c 'a-zA-Z0-9\n' '_')
  local starts=$out/$id.starts frames=$out/$id.frames
  : >"$starts"
  : >"$frames"
  for _ in $(seq "$runs"); do
    SHELL=/bin/bash script -qec "stty cols 120 rows 40; $env echo \$EPOCHREALTIME >>$starts; TORCHTRIAGE_EXIT_AFTER_FIRST_FRAME=$frames $env exec $cmd" /dev/null </dev/null >/dev/null 2>&1 || true
  done
  paste "$starts" "$frames" | awk -v name="$name" '
    { ms[NR] = ($2 / 1e6) - ($1 * 1000); cpu[NR] = $3 / 1e6 }
    END {
      n = asort_(ms)
      asort_(cpu)
      printf "%-28s first frame %6.1f ms median (%.1f-%.1f, %d runs), CPU %.1f ms median\n", name, ms[int((n + 1) / 2)], ms[1], ms[n], n, cpu[int((n + 1) / 2)]
    }
    function asort_(a,   i, j, t, n) { n = 0; for (i in a) n++
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return n }'
}

printf 'import time\nprint("step 0: loss 0.5", flush=True)\ntime.sleep(30)\n' >"$out/repro.py"
runcmd="$bin run --store $out/runs --timeout 0 -- python3 $out/repro.py"
series "demo" "" "$bin demo"
series "open LOG" "" "$bin open $log"
series "run REPRO" "" "$runcmd"
if command -v tmux >/dev/null; then
  sock=ttbench$$
  tmux -L "$sock" new-session -d -s bench "sleep 600"
  tmuxenv="TMUX=$(tmux -L "$sock" display-message -p '#{socket_path},#{pid},0')"
  series "demo (in tmux)" "$tmuxenv" "$bin demo"
  series "open LOG (in tmux)" "$tmuxenv" "$bin open $log"
  series "run REPRO (in tmux)" "$tmuxenv" "$runcmd"
  tmux -L "$sock" kill-server
fi
: >"$out/version.ms"
for _ in $(seq "$runs"); do
  GODEBUG=inittrace=1 "$bin" version 2>&1 >/dev/null | awk '{s += $5} END {print s}' >>"$out/version.ms"
done
printf '%-28s package init %6.1f ms median (inittrace total)\n' "version" "$(sort -n "$out/version.ms" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
