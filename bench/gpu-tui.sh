#!/usr/bin/env bash
# The TUI on a GPU box, driven in tmux (see gpu-e2e.sh for the binary): g01 (a non-cudagraphable partition) and
# g13b (re-recordings) under --preset cudagraphs at 120x32 and 80x24, with the same repro run twice on one cache dir
# (the preset turns caches off, so the second run shows the partition too).
# Usage: bench/gpu-tui.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
. "$(dirname "$0")/gpu-common.sh"
store=$out/runs
export TORCHINDUCTOR_CACHE_DIR=$out/cache/inductor TRITON_CACHE_DIR=$out/cache/triton
shot() { # name, size, wait, command...
	local name=$1 size=$2 wait=$3; shift 3
	tmux new-session -d -s s -x "${size%x*}" -y "${size#*x}" "cd $repro && $*; sleep 600"
	sleep "$wait"
	tmux capture-pane -p -t s >"$out/$name.txt"
	tmux send-keys -t s Enter; sleep 1
	tmux capture-pane -p -t s >"$out/$name-enter.txt"
	tmux kill-session -t s
}
shot g01-120x32 120x32 35 "$tt run --store $store --preset cudagraphs -- python3 g01_cg_cpu_input.py"
shot g01-80x24 80x24 35 "$tt run --store $store --preset cudagraphs -- python3 g01_cg_cpu_input.py"
shot g13b-120x32 120x32 35 "$tt run --store $store --preset cudagraphs -- python3 g13b_cg_rerecord_limit_noinline.py"
(cd "$repro" && $tt check --store "$store" --preset cudagraphs --no-cudagraph-skips -- python3 g01_cg_cpu_input.py >"$out/check-g01.txt" 2>&1; echo "exit $?" >>"$out/check-g01.txt")
$tt log --store "$store" >"$out/log.txt" 2>&1
rm -rf "$out/cache"
