#!/usr/bin/env bash
# Performance check for `torchtriage report` (issue: logparse engine).
# Builds a ~1 GB log by concatenating every text fixture with [rankN]: prefixes (ranks 0-7 in turn), then
# times `torchtriage report` against `grep -c 'Graph break'` on the same file, in one run, and reads the peak RSS.
# Target: report <= 1.5x grep's time, peak RSS <= 256 MB.
#   usage: [TORCHTRIAGE_BIN=path] bench/perf.sh [SIZE_MB]   (default 1024; the file is written under ${TMPDIR:-/tmp})
set -euo pipefail
cd "$(dirname "$0")/.."
div() { awk -v a="$1" -v b="$2" -v c="${3:-1}" 'BEGIN { print a / b / c }'; } # a / b [/ c]
size_mb=${1:-1024}
out=${TMPDIR:-/tmp}/torchtriage-bench
mkdir -p "$out"
big=$out/big.log
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
. bench/biglog.sh
make_big_log "$big" "$size_mb"
bytes=$(stat -c %s "$big")
cat "$big" >/dev/null # warm the page cache for both
TIMEFORMAT=%R
grep_s=$( { time grep -c 'Graph break' "$big" >"$out/grep.count"; } 2>&1 ) # not /dev/null: GNU grep stops at the first match then
report_s=$( { time /usr/bin/time -f '%M' -o "$out/rss" "$bin" report --format json "$big" >"$out/report.json"; } 2>&1 )

rss_mb=$(( $(cat "$out/rss") / 1024 ))
ratio=$(div $report_s $grep_s)
printf 'file: %d MB\ngrep -c: %.2f s\nreport: %.2f s (%.0f MB/s)\nratio: %.2fx (target <= 1.5x)\npeak RSS: %d MB (target <= 256 MB)\n' \
  $((bytes / 1000000)) "$grep_s" "$report_s" "$(div $bytes 1000000 $report_s)" "$ratio" "$rss_mb"
