#!/usr/bin/env bash
# Performance check for `torchtriage report` of a large log (issue 39, row 2).
# Builds a ~1 GB log by concatenating every text fixture with [rankN]: prefixes (ranks 0-7 in turn), then runs
# `grep -c 'Graph break'`, `cat` and `torchtriage report --format json` on it in turns (ROUNDS rounds, default 3)
# and prints the medians: the report's CPU (user+sys) against grep's, its wall time against grep's and cat's, and
# its peak RSS.
# Targets: CPU <= 2.0x grep's (so <= 1.0x its wall time on two cores), wall <= 3x cat's, peak RSS <= 200 MB.
#   usage: [TORCHTRIAGE_BIN=path] [ROUNDS=n] bench/perf.sh [SIZE_MB]   (default 1024; the file is written under ${TMPDIR:-/tmp})
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1024}
rounds=${ROUNDS:-3}
out=${TMPDIR:-/tmp}/torchtriage-bench
mkdir -p "$out"
big=$out/big.log
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
. bench/biglog.sh
make_big_log "$big" "$size_mb"
bytes=$(stat -c %s "$big")
cat "$big" >/dev/null # warm the page cache for all three
# one timed command: "wall cpu rss_kb" (its output to a file: GNU grep stops at the first match on /dev/null)
timed() { /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >"$out/stdout"; awk '{ print $1, $2 + $3, $4 }' "$out/time"; }
for _ in $(seq "$rounds"); do
  g=$(timed grep -c 'Graph break' "$big")
  c=$(timed cat "$big")
  r=$(timed "$bin" report --format json "$big")
  echo "$g $c $r"
done | awk -v bytes="$bytes" -v rounds="$rounds" '
  function median(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
  { gw[NR] = $1; gc[NR] = $2; cw[NR] = $4; rw[NR] = $7; rc[NR] = $8; rss[NR] = $9 / 1024 }
  END {
    gW = median(gw, NR); gC = median(gc, NR); cW = median(cw, NR); rW = median(rw, NR); rC = median(rc, NR); m = median(rss, NR)
    printf "file: %d MB; medians of %d rounds (grep, cat, report in turn)\n", bytes / 1e6, rounds
    printf "grep -c: %.2f s wall, %.2f s CPU; cat: %.2f s wall\n", gW, gC, cW
    printf "report: %.2f s wall, %.2f s CPU (%.0f MB/s)\n", rW, rC, bytes / 1e6 / rW
    printf "CPU ratio to grep: %.2fx (target <= 2.0x)\n", rC / gC
    printf "wall ratio to grep: %.2fx (target <= 1.0x); to cat: %.2fx (target <= 3x)\n", rW / gW, rW / cW
    printf "peak RSS: %d MB (target <= 200 MB)\n", m
  }'
