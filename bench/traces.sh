#!/usr/bin/env bash
# Many TORCH_TRACE files (issue 39, performance row 1): a directory of 1,024 TORCH_TRACE files, one per rank
# (dedicated_log_torch_trace_rank_N_bench.log), each a copy of the real trace of
# testdata/fixtures/torch-2.14/r01_branch_print.trace (850 KB: 4 graph breaks, 6 compiles, 5 FX graph cache hits
# whose payloads are 44% of its bytes), 870 MB in all. Times `torchtriage report --format json DIR` against
# `grep -rc dynamo_graph_break_reason DIR` over the same files, in turns: wall and CPU (user + system) of each,
# their ratios, and the peak RSS.
# Target: report <= 0.5 s and <= 3.5x grep, peak RSS <= 256 MB.
#   usage: [TORCHTRIAGE_BIN=path] [RANKS=n] bench/traces.sh [RUNS]   (default 5 runs, 1024 ranks; the tree is
#   written under ${TMPDIR:-/tmp}/torchtriage-traces)
#   TORCHTRIAGE_CPUPROFILE=FILE writes a CPU profile of the last report run (main.go).
set -euo pipefail
cd "$(dirname "$0")/.."
div() { awk -v a="$1" -v b="$2" -v c="${3:-1}" 'BEGIN { print a / b / c }'; } # a / b [/ c]
runs=${1:-5} ranks=${RANKS:-1024} out=${TMPDIR:-/tmp}/torchtriage-traces
fixture=testdata/fixtures/torch-2.14/r01_branch_print.trace/dedicated_log_torch_trace_qmjapk0z.log
tree=$out/trace-$ranks
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
mkdir -p "$out"
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
if [ ! -f "$tree/done" ] || [ "$fixture" -nt "$tree/done" ]; then
  rm -rf "$tree"
  mkdir -p "$tree"
  for r in $(seq 0 $((ranks - 1))); do cp "$fixture" "$tree/dedicated_log_torch_trace_rank_${r}_bench.log"; done
  touch "$tree/done"
fi
bytes=$(cat "$tree"/*.log | wc -c)
cat "$tree"/*.log >/dev/null # warm the page cache
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# each run: wall, user + system CPU and peak RSS of grep and of report, in turns (a busy machine slows both alike)
: >"$out/grep.t"; : >"$out/report.t"
for _ in $(seq "$runs"); do
  /usr/bin/time -f '%e %U %S %M' -o "$out/t" grep -rc dynamo_graph_break_reason "$tree" >"$out/grep.count"
  cat "$out/t" >>"$out/grep.t"
  /usr/bin/time -f '%e %U %S %M' -o "$out/t" "$bin" report --format json "$tree" >"$out/report.json"
  cat "$out/t" >>"$out/report.t"
done
col() { awk -v c="$2" '{ if (c == "cpu") print $2 + $3; else if (c == "rss") print int($4 / 1024); else print $1 }' "$1"; }
gw=$(col "$out/grep.t" wall | med) gc=$(col "$out/grep.t" cpu | med)
tw=$(col "$out/report.t" wall | med) tc=$(col "$out/report.t" cpu | med)
printf 'tree: %d files, %d MB, %s runs in turns (medians; load %s)\n' "$ranks" $((bytes / 1000000)) "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'grep -rc: %.2f s wall, %.2f s CPU\n' "$gw" "$gc"
printf 'report --format json: %.2f s wall (%s-%s), %.2f s CPU; %.2fx grep wall, %.2fx grep CPU; peak RSS %s MB (max %s)\n' \
  "$tw" "$(col "$out/report.t" wall | sort -n | head -1)" "$(col "$out/report.t" wall | sort -n | tail -1)" "$tc" \
  "$(div "$tw" "$gw")" "$(div "$tc" "$gc")" "$(col "$out/report.t" rss | med)" "$(col "$out/report.t" rss | sort -n | tail -1)"
printf 'target: <= 0.5 s, <= 3.5x grep, <= 256 MB (on a quiet machine both cores parse: wall ~ CPU / 2)\n'
python3 - "$out/report.json" <<'PY' 2>/dev/null || true
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print("counts: graph_breaks %d, graph_break_records %d, recompiles %d" % (c["graph_breaks"], c["graph_break_records"], c["recompiles"]))
PY
