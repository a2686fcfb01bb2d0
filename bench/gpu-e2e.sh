#!/usr/bin/env bash
# End-to-end on a GPU box (run from the repo root; the binary as gpu-common.sh says):
# gates real CUDA-graph repros, a 2-rank NCCL failure, and drives the TUI in tmux at 80x24 and 120x32.
# Usage: bench/gpu-e2e.sh OUTDIR   (python: the first python3 with torch)
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
. "$(dirname "$0")/gpu-common.sh"
store=$out/runs
export TORCHINDUCTOR_CACHE_DIR=$out/cache/inductor TRITON_CACHE_DIR=$out/cache/triton
versions "$out"
gate() { # name, args...
	local name=$1; shift
	(cd "$repro" && "$tt" check --store "$store" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo "exit $?" >>"$out/$name.out")
	echo "== $name: $(tail -1 "$out/$name.out")"
}
gate g01-partition --preset cudagraphs --no-cudagraph-skips -- python3 g01_cg_cpu_input.py
gate g01-breaks --preset breaks --max-graph-breaks 0 --max-recompiles 0 -- python3 g01_cg_cpu_input.py
gate g13b-rerecords --preset cudagraphs --max-cudagraph-rerecords 3 -- python3 g13b_cg_rerecord_limit_noinline.py
gate g02-skip --preset cudagraphs --no-cudagraph-skips --format json -- python3 g02_cg_mutated_input.py
gate g09a-nccl --nproc 2 --no-compile-errors -- g09a_nccl_same_gpu.py
gate g07-mix --preset breaks --max-graph-breaks 0 --max-recompiles 0 -- python3 g07_gb_recompile_mix.py
gate g09b-ranks --nproc 2 --preset breaks --max-graph-breaks 0 -- g09b_gloo_rank_break.py
gate silent --preset breaks --max-graph-breaks 0 -- sh -c 'echo hello'
# the TUI, driven in tmux, at two sizes
for size in 120x32 80x24; do
	w=${size%x*} h=${size#*x}
	s=tt$w
	tmux new-session -d -s $s -x "$w" -y "$h" "cd $repro && $tt run --store $store --preset cudagraphs -- python3 g01_cg_cpu_input.py"
	sleep 40
	tmux capture-pane -p -t $s >"$out/tui-g01-$size.txt"
	tmux send-keys -t $s Enter; sleep 2
	tmux capture-pane -p -t $s >"$out/tui-g01-$size-detail.txt"
	tmux send-keys -t $s q; sleep 1; tmux send-keys -t $s q; sleep 2
	tmux kill-session -t $s 2>/dev/null
done
tmux new-session -d -s ttd -x 120 -y 32 "cd $repro && $tt run --store $store --nproc 2 -- g09a_nccl_same_gpu.py"
sleep 45
tmux capture-pane -p -t ttd >"$out/tui-g09a-120x32.txt"
tmux kill-session -t ttd 2>/dev/null
$tt log --store "$store" >"$out/log.txt" 2>&1
rm -rf "$out/cache"
