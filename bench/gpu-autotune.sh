#!/usr/bin/env bash
# A Triton/autotune compile on a GPU box (testdata/compile/repro/g20_autotune.py, max-autotune) stored as a run
# with TORCH_TRACE, and its report. Usage: bench/gpu-autotune.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
. "$(dirname "$0")/gpu-common.sh"
export TORCHINDUCTOR_CACHE_DIR=$out/cache/inductor TRITON_CACHE_DIR=$out/cache/triton
(cd testdata/compile/repro && "$tt" check --store "$out/runs" --preset trace --max-graph-breaks 99 --max-compile-time 3600 \
	-- python3 g20_autotune.py >"$out/check.txt" 2>&1; echo "exit $?" >>"$out/check.txt")
"$tt" report --format json "$out"/runs/0001-trace >"$out/report.json" 2>&1
"$tt" report --width 120 "$out"/runs/0001-trace >"$out/report.txt" 2>&1
rm -rf "$out/cache"
