#!/usr/bin/env bash
# Live memory (issue 15, "Live memory is bounded"): `torchtriage run` follows a repro that prints RATE lines a
# second (about 90 bytes each, on stdout, with a graph-break-shaped stderr line every second) for SECONDS, in
# a 120x40 pseudo-terminal (script) with the log view open and following; the peak and final RSS of the
# torchtriage process are read from /proc every 5 s.
# Target: under 256 MB RSS for 10k-50k lines/s for 10 minutes, flat (± 10 %) after the first minute (issue 39).
#   usage: [TORCHTRIAGE_BIN=path] bench/live.sh [RATE] [SECONDS]   (default 50000 600)
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-50000} secs=${2:-600}
out=${TMPDIR:-/tmp}/torchtriage-live
rm -rf "$out"
mkdir -p "$out"
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
cat >"$out/flood.py" <<'EOF'
import sys, time
rate, secs = int(sys.argv[1]), float(sys.argv[2])
t0 = time.time()
n = 0
pad = "x" * 40
while time.time() - t0 < secs:
    due = int((time.time() - t0) * rate)
    if n >= due:
        time.sleep(0.005)
        continue
    sys.stdout.write("".join("step %d: loss 0.%06d %s\n" % (i, i % 999999, pad) for i in range(n, due)))
    sys.stdout.flush()
    if n // rate != due // rate:
        sys.stderr.write("[rank0]:V1121 07:47:33.827000 1 torch/_dynamo/symbolic_convert.py:5368] [0/0] "
                         "[__graph_breaks] Graph break in user code at /w/flood.py:%d\n" % (due // rate))
        sys.stderr.flush()
    n = due
print("done: %d lines" % n)
EOF
# l: the log view, following the end (every frame reads the last page back from the run's files)
SHELL=/bin/bash script -qec "stty cols 120 rows 40; exec env ${TORCHTRIAGE_MEMPROFILE:+TORCHTRIAGE_MEMPROFILE=$TORCHTRIAGE_MEMPROFILE} $bin run --no-probe --timeout 0 --stall 1h --store $out/runs -- python3 $out/flood.py $rate $secs" /dev/null \
  < <(sleep 3; printf l; sleep $((secs + 5)); printf q; sleep 1; printf q; sleep 1; printf y; sleep 2) >/dev/null 2>&1 &
peak=0
sleep 1
pid=$(pgrep -n -f "$bin run --no-probe" || true)
for _ in $(seq 0 5 $((secs + 5))); do
  [ -n "$pid" ] && [ -r /proc/$pid/status ] || break
  rss=$(awk '/VmRSS/ {print int($2 / 1024)}' /proc/$pid/status)
  [ "$rss" -gt "$peak" ] && peak=$rss
  echo "$(date +%s) $rss" >>"$out/rss.txt"
  sleep 5
done
wait || true
lines=$(cat "$out"/runs/*/stdout.log 2>/dev/null | wc -l)
printf 'rate: %d lines/s for %d s\nlines written: %d\npeak RSS: %d MB (target < 256 MB)\nlast RSS samples (MB): %s\n' \
  "$rate" "$secs" "$lines" "$peak" "$(tail -4 "$out/rss.txt" | awk '{printf "%s ", $2}')"
