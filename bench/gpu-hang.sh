#!/usr/bin/env bash
# Ranks that compile differently, on a GPU box's torch (run from the repo root; the binary as gpu-common.sh says):
# testdata/recorded/diverged-hang's skip_sync.py under torchrun (2 gloo ranks, CPU tensors) until the tool's
# timeout stops the hang, and g09b_gloo_rank_break.py (rank 0 alone breaks the graph; it completes), each with
# --ranks-agree; each run reported as text (80 columns) and JSON, and the hang's Ranks view in the TUI at 80x24.
# Everything goes into OUTDIR/hang.tar.gz (the device returns few files).
# Usage: bench/gpu-hang.sh OUTDIR
set -u
out=${1:?OUTDIR}
work=$(mktemp -d)
. "$(dirname "$0")/gpu-common.sh"
export TORCHINDUCTOR_CACHE_DIR=$work/cache/inductor TRITON_CACHE_DIR=$work/cache/triton
mkdir -p "$work/hang" "$work/out"
versions "$work/out"
cp testdata/recorded/diverged-hang/skip_sync.py "$work/hang/"
gate_in "$work/out" hang "$work/hang" --preset breaks --timeout 40 --ranks-agree --nproc 2 -- skip_sync.py
gate_in "$work/out" g09b "$repro" --preset breaks --max-graph-breaks 0 --ranks-agree --nproc 2 -- g09b_gloo_rank_break.py
for d in "$work"/out/hang/0*; do
	[ -d "$d" ] || continue
	"$tt" report --width 80 "$d" >"$work/out/hang.report80.txt" 2>&1
	tmux new-session -d -s tth -x 80 -y 24 "$tt open $d"
	sleep 3
	tmux capture-pane -p -t tth >"$work/out/tui-hang-80x24.txt"
	tmux send-keys -t tth R
	sleep 1
	tmux capture-pane -p -t tth >"$work/out/tui-hang-80x24-ranks.txt"
	tmux send-keys -t tth q
	sleep 1
	tmux kill-session -t tth 2>/dev/null
done
tar -C "$work/out" -czf "$out/hang.tar.gz" .
cat "$work"/out/*.out "$work/out/versions.txt"
