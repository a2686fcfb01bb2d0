#!/usr/bin/env bash
# Many distinct findings (issue 15, "Memory and time at scale"): a ~205 MB log of 8 ranks with 5,000 distinct
# graph breaks and 50,000 recompiles (1,000 functions), built from two real records of
# testdata/fixtures/torch-2.14/gb_recompile.triage.log: the print() break (lines 1-23, with its user traceback)
# and the `scale == 2.0` recompile of f (lines 114-123, two guard failures with their user stacks). Each copy
# gets its own file, line, function, compile id and guard values; nothing else of the format changes.
# Times `torchtriage report` (text and --format json) against `grep -c 'Graph break'` and reads the peak RSS.
# Target: report <= 3x grep's time, peak RSS <= 256 MB.
#   usage: [TORCHTRIAGE_BIN=path] [SCALE=k] bench/many.sh [RUNS]   (default 5; the file is written under ${TMPDIR:-/tmp}/torchtriage-many)
#   SCALE=k multiplies the distinct breaks, the recompiles and the functions by k (0.5, 2, 4: the file grows with
#   them), to see that the time grows with the events and not faster (no per-event work grows with the findings).
#   TORCHTRIAGE_CPUPROFILE=FILE writes a CPU profile of the last report run (main.go).
set -euo pipefail
cd "$(dirname "$0")/.."
div() { awk -v a="$1" -v b="$2" -v c="${3:-1}" 'BEGIN { print a / b / c }'; } # a / b [/ c]
mul() { awk -v a="$1" -v b="$2" 'BEGIN { print int(a * b) }'; }                  # a * b, an integer
runs=${1:-5} out=${TMPDIR:-/tmp}/torchtriage-many scale=${SCALE:-1}
log=$out/many.log
[ "$scale" = 1 ] || log=$out/many-x$scale.log
mkdir -p "$out"
fixture=testdata/fixtures/torch-2.14/gb_recompile.triage.log
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
if [ ! -s "$log" ] || [ "$fixture" -nt "$log" ] || [ "$0" -nt "$log" ]; then
  awk -v ranks=8 -v breaks="$(mul 5000 "$scale")" -v recompiles="$(mul 50000 "$scale")" -v funcs="$(mul 1000 "$scale")" '
    NR >= 1 && NR <= 23 { brk[++nb] = $0 }
    NR >= 114 && NR <= 123 { rc[++nr] = $0 }
    function emit_break(r, i,    k, l, m, line, fn) {
      m = "m" int(i / 100); line = 12 + 2 * (i % 100); fn = "helper" i
      for (k = 1; k <= nb; k++) {
        l = brk[k]
        gsub(/gb_recompile\.py/, m ".py", l)
        sub(/\[0\/0\]/, "[" (i % 1000) "/0]", l)
        sub(/\.py:12$/, ".py:" line, l)
        sub(/line 12, in helper/, "line " line ", in " fn, l)
        sub(/side effect in helper/, "side effect in " fn, l)
        print "[rank" r "]:" l
      }
    }
    function emit_recompile(r, j,    k, l, f, c, fn, m) {
      f = j % funcs; c = int(j / funcs) + 2; fn = "f" f; m = "m" int(f / 10)
      for (k = 1; k <= nr; k++) {
        l = rc[k]
        gsub(/gb_recompile\.py/, m ".py", l)
        sub(/\[0\/2\]/, "[" f "/" c "]", l)
        sub(/function f in/, "function " fn " in", l)
        sub(/in f$/, "in " fn, l)
        sub(/- 0\/1: scale == 2\.0/, "- " f "/" (c - 1) ": scale == " (c * 8 + r) ".5", l)
        sub(/- 0\/0: scale == 2\.0/, "- " f "/0: scale == 2.0", l)
        print "[rank" r "]:" l
      }
    }
    END {
      per = int(recompiles / ranks)
      for (r = 0; r < ranks; r++)
        for (j = 0; j < per || j < breaks; j++) {
          if (j < breaks) emit_break(r, j)
          if (j < per) emit_recompile(r, j)
        }
    }' "$fixture" >"$log.tmp"
  mv "$log.tmp" "$log"
fi
bytes=$(stat -c %s "$log")
cat "$log" >/dev/null # warm the page cache
TIMEFORMAT=%R
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: >"$out/grep.t"; : >"$out/text.t"; : >"$out/json.t"; : >"$out/text.rss"; : >"$out/json.rss"
for _ in $(seq "$runs"); do
  { time grep -c 'Graph break' "$log" >"$out/grep.count"; } 2>>"$out/grep.t"
  { time /usr/bin/time -f '%M' -o "$out/rss" "$bin" report "$log" >"$out/report.txt"; } 2>>"$out/text.t"
  echo $(($(cat "$out/rss") / 1024)) >>"$out/text.rss"
  { time /usr/bin/time -f '%M' -o "$out/rss" "$bin" report --format json "$log" >"$out/report.json"; } 2>>"$out/json.t"
  echo $(($(cat "$out/rss") / 1024)) >>"$out/json.rss"
done
g=$(med <"$out/grep.t"); t=$(med <"$out/text.t"); j=$(med <"$out/json.t")
printf 'file: %d MB, %s runs (medians; min-max)\n' $((bytes / 1000000)) "$runs"
printf 'grep -c: %.2f s\n' "$g"
printf 'report (text): %.2f s  %.2fx grep (%s-%s s)  peak RSS %s MB (max %s)\n' "$t" "$(div $t $g)" \
  "$(sort -n "$out/text.t" | head -1)" "$(sort -n "$out/text.t" | tail -1)" "$(med <"$out/text.rss")" "$(sort -n "$out/text.rss" | tail -1)"
printf 'report --format json: %.2f s  %.2fx grep (%s-%s s)  peak RSS %s MB (max %s)\n' "$j" "$(div $j $g)" \
  "$(sort -n "$out/json.t" | head -1)" "$(sort -n "$out/json.t" | tail -1)" "$(med <"$out/json.rss")" "$(sort -n "$out/json.rss" | tail -1)"
printf 'target: <= 3x grep, <= 256 MB\n'
python3 - "$out/report.json" <<'EOF' 2>/dev/null || true
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print("counts: graph_breaks %d, graph_break_records %d, recompiles %d" % (c["graph_breaks"], c["graph_break_records"], c["recompiles"]))
EOF
