#!/usr/bin/env bash
# Many distinct findings (issue 15, "Memory and time at scale"): a ~205 MB log of 8 ranks with 5,000 distinct
# graph breaks and 50,000 recompiles (1,000 functions), built from two real records of
# testdata/fixtures/torch-2.14/gb_recompile.triage.log: the print() break (lines 1-23, with its user traceback)
# and the `scale == 2.0` recompile of f (lines 114-123, two guard failures with their user stacks). Each copy
# gets its own file, line, function, compile id and guard values; nothing else of the format changes.
# Times `torchtriage report` (text and --format json) against `grep -c 'Graph break'` in turns, and prints each one's
# ratio to grep's wall time and to its CPU time (user+sys: the figure to trust on a busy machine) and the peak RSS.
# Target: report <= 3x grep's time, peak RSS <= 256 MB.
#   usage: [TORCHTRIAGE_BIN=path] [SCALE=k] bench/many.sh [RUNS]   (default 5; the file is written under ${TMPDIR:-/tmp}/torchtriage-many)
#   SCALE=k multiplies the distinct breaks, the recompiles and the functions by k (0.5, 2, 4: the file grows with
#   them), to see that the time grows with the events and not faster (no per-event work grows with the findings).
#   DISTINCT=1 writes many-distinct.log instead: the same breaks, and the same number of recompiles, each one of
#   four real records in turn, every guard value in it its own (no two guard texts of the file alike): the size
#   and ___stack0 recompile of the resume function (gb_recompile.triage.log lines 107-113: tensor 'x' size mismatch,
#   expected/actual sizes), the `scale ==` recompile (lines 114-123: float constants), the `mode == 'a'` recompile
#   (lines 138-151: quoted strings and a float) and the Enum recompile of
#   testdata/answers/torch-2.14/a01_rc_enum.triage.log (lines 7-16: object ids). It times the recompile lane when
#   no guard text repeats.
#   TORCHTRIAGE_CPUPROFILE=FILE writes a CPU profile of the last report run (main.go).
set -euo pipefail
cd "$(dirname "$0")/.."
div() { awk -v a="$1" -v b="$2" -v c="${3:-1}" 'BEGIN { print a / b / c }'; } # a / b [/ c]
mul() { awk -v a="$1" -v b="$2" 'BEGIN { print int(a * b) }'; }                  # a * b, an integer
runs=${1:-5} out=${TMPDIR:-/tmp}/torchtriage-many scale=${SCALE:-1}
distinct=${DISTINCT:-0}
name=many
[ "$distinct" = 1 ] && name=many-distinct
log=$out/$name.log
[ "$scale" = 1 ] || log=$out/$name-x$scale.log
mkdir -p "$out"
fixture=testdata/fixtures/torch-2.14/gb_recompile.triage.log
enum=testdata/answers/torch-2.14/a01_rc_enum.triage.log
bin=${TORCHTRIAGE_BIN:-$out/torchtriage} # TORCHTRIAGE_BIN=path times another build (a before/after comparison)
[ -n "${TORCHTRIAGE_BIN:-}" ] || go build -o "$bin" .
if [ ! -s "$log" ] || [ "$fixture" -nt "$log" ] || [ "$enum" -nt "$log" ] || [ "$0" -nt "$log" ]; then
  awk -v ranks=8 -v distinct="$distinct" -v breaks="$(mul 5000 "$scale")" -v recompiles="$(mul 50000 "$scale")" -v funcs="$(mul 1000 "$scale")" '
    NR >= 1 && NR <= 23 { brk[++nb] = $0 }
    FNR == NR && NR >= 114 && NR <= 123 { rc[++nr] = $0 }
    # DISTINCT=1: four real records, one after the other (FNR != NR: the Enum repro'"'"'s log), read once into
    # literal pieces and the names of what each copy fills in between them (below)
    FNR == NR && NR >= 107 && NR <= 113 { template(1, $0) }
    FNR == NR && NR >= 114 && NR <= 123 { template(2, $0) }
    FNR == NR && NR >= 138 && NR <= 151 { template(3, $0) }
    FNR != NR && FNR >= 7 && FNR <= 16 { template(4, $0) }
    # template keeps line l of record t as pieces: each after the first starts with the letter of what goes before
    # it (M module, C compile id, F function, E a failure'"'"'s compile id, A/B the sizes, K/L floats, Q a string, O
    # an object id); a failure'"'"'s line is marked, its values are its own
    function template(t, l,    k, q, x) {
      k = ++nt[t]
      gsub(/gb_recompile\.py|a01_rc_enum\.py/, "\001M.py", l)
      sub(/\[[0-9]+\/[0-9]+\]/, "\001C", l)
      sub(/function f in/, "function \001F in", l)
      gsub(/resume_in_f_at/, "resume_in_\001F_at", l)
      sub(/ in f$/, " in \001F", l)
      fail[t, k] = sub(/- [0-9]+\/[0-9]+: /, "- \001E: ", l)
      sub(/expected 8, actual 9/, "expected \001A, actual \001B", l)
      sub(/___stack0 == 4\.790928840637207/, "___stack0 == \001K", l)
      sub(/scale == 2\.0/, "scale == \001L", l)
      sub(/mode == '"'"'a'"'"'/, "mode == '"'"'\001Q'"'"'", l)
      sub(/___check_obj_id\(mode, [0-9]+\)/, "___check_obj_id(mode, \001O)", l)
      np[t, k] = x = split(l, piece, "\001")
      for (q = 1; q <= x; q++) pc[t, k, q] = piece[q]
    }
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
    # one recompile whose every guard value is its own: n, the recompile'"'"'s number in the file, and i, the
    # failure'"'"'s in it, make each size, constant, string and id
    function emit_distinct(r, j, n,    t, k, q, l, p, v, f, c, fn, m, i, e) {
      f = j % funcs; c = int(j / funcs) + 2; fn = "f" f; m = "m" int(f / 10); t = j % 4 + 1; i = 0
      for (k = 1; k <= nt[t]; k++) {
        if (fail[t, k]) { i++; e = c - i; if (e < 0) e = 0 }
        l = pc[t, k, 1]
        for (q = 2; q <= np[t, k]; q++) {
          p = pc[t, k, q]; v = substr(p, 1, 1)
          if (v == "M") v = m
          else if (v == "C") v = "[" f "/" c "]"
          else if (v == "F") v = fn
          else if (v == "E") v = f "/" e
          else if (v == "A") v = 2 * n + 16
          else if (v == "B") v = 2 * n + 17
          else if (v == "K") v = n "." i "790928840637207"
          else if (v == "L") v = n "." i "5"
          else if (v == "Q") v = "a" n "_" i
          else if (v == "O") v = sprintf("%.0f", 140377630248304 + 16 * (4 * n + i))
          l = l v substr(p, 2)
        }
        print "[rank" r "]:" l
      }
    }
    END {
      per = int(recompiles / ranks)
      for (r = 0; r < ranks; r++)
        for (j = 0; j < per || j < breaks; j++) {
          if (j < breaks) emit_break(r, j)
          if (j < per && distinct == 1) emit_distinct(r, j, r * per + j)
          else if (j < per) emit_recompile(r, j)
        }
    }' "$fixture" "$enum" >"$log.tmp"
  mv "$log.tmp" "$log"
fi
bytes=$(stat -c %s "$log")
cat "$log" >/dev/null # warm the page cache
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# each run: wall s, user+sys CPU s and peak RSS MB, one line a run in $res/NAME.t
res=$out/$name-runs # the runs' figures and outputs, apart from another variant's
mkdir -p "$res"
timed() { # timed NAME CMD...: runs CMD (stdout to $res/NAME.out), appends its figures to $res/NAME.t
  local n=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$res/time" "$@" >"$res/$n.out"
  awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 / 1024 }' "$res/time" >>"$res/$n.t"
}
col() { awk -v c="$2" '{ print $c }' "$res/$1.t" | med; } # the median of column c of NAME's runs
: >"$res/grep.t"; : >"$res/text.t"; : >"$res/json.t"
for _ in $(seq "$runs"); do
  timed grep grep -c 'Graph break' "$log"
  timed text "$bin" report "$log"
  timed json "$bin" report --format json "$log"
done
g=$(col grep 1) gc=$(col grep 2)
printf 'file: %s, %d MB, %s runs (medians; min-max); load: %s\n' "$(basename "$log")" $((bytes / 1000000)) "$runs" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'grep -c: %.2f s wall, %.2f s CPU\n' "$g" "$gc"
for n in text json; do
  w=$(col $n 1) c=$(col $n 2)
  printf 'report (%s): %.2f s  %.2fx grep (%s-%s s); CPU (user+sys) %.2f s  %.2fx grep'"'"'s; peak RSS %s MB (max %s)\n' \
    "$n" "$w" "$(div "$w" "$g")" "$(awk '{print $1}' "$res/$n.t" | sort -n | head -1)" \
    "$(awk '{print $1}' "$res/$n.t" | sort -n | tail -1)" "$c" "$(div "$c" "$gc")" "$(col $n 3)" \
    "$(awk '{print $3}' "$res/$n.t" | sort -n | tail -1)"
done
printf 'target: <= 3x grep, <= 256 MB\n'
python3 - "$res/json.out" <<'EOF' 2>/dev/null || true
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print("counts: graph_breaks %d, graph_break_records %d, recompiles %d" % (c["graph_breaks"], c["graph_break_records"], c["recompiles"]))
EOF
