#!/usr/bin/env bash
# CUDA-graph runtime errors on a GPU box (run from the repo root; the binary as gpu-common.sh says): an output
# overwritten by a later replay (g15: .grad accumulating across steps) and pending backwards (g15b), each gated
# with `torchtriage check --preset cudagraphs --no-compile-errors` in its own store and reported
# as text and JSON; the raw outputs without torchtriage too (TORCH_LOGS of the cudagraphs preset).
# Usage: bench/gpu-cg-errors.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
. "$(dirname "$0")/gpu-common.sh"
export TORCHINDUCTOR_CACHE_DIR=$out/cache/inductor TRITON_CACHE_DIR=$out/cache/triton
here=$PWD
gate() { gate_in "$out" "$@"; } # name, dir, args…
raw() { # name, dir, script
	(cd "$2" && TORCH_LOGS=perf_hints,cudagraphs,graph_breaks,recompiles timeout 150 "$PY" "$3" >"$out/$1.raw.log" 2>&1; echo "exit $?" >>"$out/$1.raw.log")
}
cg=(--preset cudagraphs --no-compile-errors --no-cudagraph-skips)
gate g15-grad "$here/testdata/gpu-e2e/repro" "${cg[@]}" -- python3 g15_cg_grad_accumulate.py &
gate g15b-pending "$repro" "${cg[@]}" -- python3 g15b_cg_pending_backward_zero_grad.py &
wait
raw g15-grad "$here/testdata/gpu-e2e/repro" g15_cg_grad_accumulate.py &
wait
# the TUI on g15 at 80x24: the screen once the run ended, and after Enter
tmux new-session -d -s s -x 80 -y 24 "cd $here/testdata/gpu-e2e/repro && $tt run --store $out/tui --preset cudagraphs -- python3 g15_cg_grad_accumulate.py; sleep 600"
sleep 40
tmux capture-pane -p -t s >"$out/tui-g15-80x24.txt"
tmux send-keys -t s Enter; sleep 1
tmux capture-pane -p -t s >"$out/tui-g15-80x24-enter.txt"
tmux kill-session -t s
rm -f "$out"/tui/0*/probe/sitecustomize.py
rm -rf "$out/cache"
