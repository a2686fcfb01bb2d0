#!/usr/bin/env bash
# Gates on a GPU box, all the repro-gpu cases (run from the repo root; the binary as gpu-common.sh says): each
# gate is `torchtriage check` in its own store, its stored run reported as text and JSON; then a cold and a warm
# run of one script on one fresh cache dir (--preset trace) and `compare` of the two. Several gates run at once
# (not the torchrun ones); `torchtriage doctor` of the box first. GATES="g08b-limit g15b-pending …" runs only
# those gates (and the cold/warm pair only when it names "cold"). Usage: [GATES=…] bench/gpu-gates.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
. "$(dirname "$0")/gpu-common.sh"
export TORCHINDUCTOR_CACHE_DIR=$out/cache/inductor TRITON_CACHE_DIR=$out/cache/triton
versions "$out"
(cd "$repro" && "$tt" doctor >"$out/doctor.txt" 2>&1; echo "exit $?" >>"$out/doctor.txt")
gate() { gate_in "$out" "$1" "$repro" "${@:2}"; } # name, args…
gate g01-partition --preset cudagraphs --no-cudagraph-skips -- python3 g01_cg_cpu_input.py &
gate g02-skip --preset cudagraphs --no-cudagraph-skips -- python3 g02_cg_mutated_input.py &
gate g14-oom --no-compile-errors -- python3 g14_cuda_oom.py &
gate g11-triton --preset breaks --no-compile-errors -- python3 g11_triton_kernel_error.py &
wait
gate g08b-limit --preset breaks --max-recompiles 0 --no-limit-hits -- python3 g08b_recompile_limit_fail.py &
gate g16-skips --preset cudagraphs --no-cudagraph-skips -- python3 g16_cg_no_partition.py &
gate g15b-pending --preset cudagraphs --no-compile-errors -- python3 g15b_cg_pending_backward_zero_grad.py &
gate g13b-rerecords --preset cudagraphs --max-cudagraph-rerecords 3 -- python3 g13b_cg_rerecord_limit_noinline.py &
wait
gate g07-mix --preset breaks --max-graph-breaks 0 --max-recompiles 0 -- python3 g07_gb_recompile_mix.py &
gate g03-dynamic --preset cudagraphs --no-cudagraph-skips -- python3 g03_cg_dynamic.py &
gate silent --preset breaks --max-graph-breaks 0 -- sh -c 'echo hello' &
wait
gate g09a-nccl --nproc 2 --no-compile-errors -- g09a_nccl_same_gpu.py
gate g09b-ranks --nproc 2 --preset breaks --max-graph-breaks 0 --ranks-agree -- g09b_gloo_rank_break.py
# a cold and a warm run of one script on a fresh cache dir, and compare of the two
case " ${GATES:-cold} " in *" cold "*) ;; *) rm -rf "$out/cache"; exit 0 ;; esac
export TORCHINDUCTOR_CACHE_DIR=$out/cache2/inductor TRITON_CACHE_DIR=$out/cache2/triton
gate cold --preset trace --max-graph-breaks 99 --max-recompiles 99 -- python3 g07_gb_recompile_mix.py
gate warm --preset trace --max-graph-breaks 99 --max-recompiles 99 -- python3 g07_gb_recompile_mix.py
"$tt" compare "$out"/cold/0001-* "$out"/warm/0001-* >"$out/compare.txt" 2>&1; echo "exit $?" >>"$out/compare.txt"
"$tt" compare --format json "$out"/cold/0001-* "$out"/warm/0001-* >"$out/compare.json" 2>&1
rm -rf "$out/cache" "$out/cache2"
