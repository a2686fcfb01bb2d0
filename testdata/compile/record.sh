#!/bin/bash
# Records the compile-time / compile-cache fixtures with real PyTorch (see README.md).
#   usage: cd testdata/compile && ./record.sh 2.6|2.14
# Needs the realtorch roots (../../../shared/realtorch/setup.sh): /opt/realtorch26 (2.6.0) and
# /opt/realtorch (2.14.1). Every log is the exact stdout+stderr (2>&1) of one run; every trace dir
# is what TORCH_TRACE wrote. Nothing is edited afterwards.
set -uo pipefail
v=${1:?2.6 or 2.14}
case $v in
  2.6) root=/opt/realtorch26; port=29631 ;;
  2.14) root=/opt/realtorch; port=29641 ;;
  *) echo "unknown version $v" >&2; exit 2 ;;
esac
run=/work/shared/realtorch/run.sh
out=torch-$v
mkdir -p "$out"
rt() { REALTORCH=$root "$run" "$@"; }
# cache dirs live in the root's /tmp; start them empty
A=/tmp/ttc-$v-A B0=/tmp/ttc-$v-B0 B1=/tmp/ttc-$v-B1 B2=/tmp/ttc-$v-B2
rt rm -rf "$A" "$B0" "$B1" "$B2"
common=(TORCH_LOGS=dynamo,aot,inductor TORCH_COMPILE_JOB_ID=cmp)
one() { # name, extra env...
  local name=$1; shift
  rm -rf "$out/$name.trace"
  rt env "${common[@]}" TORCH_TRACE="$out/$name.trace" "$@" python3 repro/c01_mlp.py >"$out/$name.log" 2>&1
  echo "$name: exit $?"
}
one c01_mlp.cold TORCHINDUCTOR_CACHE_DIR=$A
one c01_mlp.warm TORCHINDUCTOR_CACHE_DIR=$A
one c01_mlp.warm2 TORCHINDUCTOR_CACHE_DIR=$A
one c01_mlp.disabled TORCHINDUCTOR_CACHE_DIR=$A TORCHINDUCTOR_FORCE_DISABLE_CACHES=1
one c01_mlp.keytag TORCHINDUCTOR_CACHE_DIR=$A TORCH_COMPILE_CACHE_KEY_TAG=v2
two() { # name, rank0 dir, rank1 dir
  local name=$1
  rm -rf "$out/$name.trace"
  rt env "${common[@]}" TORCH_TRACE="$out/$name.trace" CACHE_DIR_RANK0="$2" CACHE_DIR_RANK1="$3" \
    torchrun --nproc-per-node 2 --master-port $port repro/c02_dist_mlp.py >"$out/$name.log" 2>&1
  echo "$name: exit $?"
}
two c02_dist_mlp.cold "$B0" "$B1"
two c02_dist_mlp.mixed "$B0" "$B2"
