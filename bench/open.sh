#!/usr/bin/env bash
# The TUI on big inputs (issue 15): `torchtriage open` of the ~1 GB bench log (bench/biglog.sh, as perf.sh) until
# its first full frame — the findings on the screen, not the loading frame — against `torchtriage report
# --format json` of the same file, in turns, RUNS times each; medians, and the peak RSS of each. The open runs in a
# 120x40 pseudo-terminal (script); TORCHTRIAGE_EXIT_AFTER_FIRST_FRAME=full:FILE makes it append the time of its
# first full frame to FILE and quit.
# Target: first full frame within 2x report's time, RSS <= 256 MB.
#   usage: [TORCHTRIAGE_BIN=path] bench/open.sh [RUNS] [SIZE_MB]   (default 5 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5} size_mb=${2:-1024}
out=${TMPDIR:-/tmp}/torchtriage-bench
mkdir -p "$out"
big=$out/big.log
bin=${TORCHTRIAGE_BIN:-$out/torchtriage-open} # TORCHTRIAGE_BIN=path times another build
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
. bench/biglog.sh
make_big_log "$big" "$size_mb"
cat "$big" >/dev/null # warm the page cache
: >"$out/open.s"
: >"$out/report.s"
for _ in $(seq "$runs"); do
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%M' -o "$out/report.rss" "$bin" report --format json "$big" >/dev/null
  t1=$EPOCHREALTIME
  echo "$t0 $t1 $(($(cat "$out/report.rss") / 1024))" >>"$out/report.s"
  rm -f "$out/frame" "$out/open.rss"
  SHELL=/bin/bash script -qec "stty cols 120 rows 40; echo \$EPOCHREALTIME >$out/start; TORCHTRIAGE_EXIT_AFTER_FIRST_FRAME=full:$out/frame exec /usr/bin/time -f '%M' -o $out/open.rss $bin open $big" /dev/null </dev/null >/dev/null 2>&1 || true
  echo "$(cat "$out/start") $(awk '{ printf "%.6f", $1 / 1e9 }' "$out/frame") $(($(cat "$out/open.rss") / 1024))" >>"$out/open.s"
done
# median FILE: the median of end - start (seconds) and the largest RSS
median() {
  awk '{ print $2 - $1, $3 }' "$1" | sort -n | awk '{ s[NR] = $1; if ($2 > m) m = $2 } END { printf "%.2f %d\n", s[int((NR + 1) / 2)], m }'
}
read -r rs rm < <(median "$out/report.s")
read -r os om < <(median "$out/open.s")
printf 'file: %d MB, %d runs each\nreport --format json: %.2f s median, peak RSS %d MB\nopen, first full frame: %.2f s median (%.2fx report; target <= 2x), peak RSS %d MB (target <= 256 MB)\n' \
  $(($(stat -c %s "$big") / 1000000)) "$runs" "$rs" "$rm" "$os" "$(awk -v a="$os" -v b="$rs" 'BEGIN { print a / b }')" "$om"
