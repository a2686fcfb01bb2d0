#!/bin/bash
# Records stored runs (run dirs with meta.json, the probe's files, the trace and the logs) through
# torchtriage itself: `torchtriage check --write-baseline … -- CMD` launches CMD under the probe with the
# trace preset. CMD is realtorch's run.sh (the chroot sees this directory at the same path).
#   usage: cd testdata/compile && TT=/path/to/torchtriage ./record_runs.sh 2.6|2.14
set -uo pipefail
v=${1:?2.6 or 2.14}
case $v in
  2.6) root=/opt/realtorch26 ;;
  2.14) root=/opt/realtorch ;;
  *) echo "unknown version $v" >&2; exit 2 ;;
esac
tt=${TT:-torchtriage}
store=runs-$v
A=/tmp/ttr-$v-A
REALTORCH=$root /work/shared/realtorch/run.sh rm -rf "$A"
one() { # name, extra env...
  local name=$1; shift
  REALTORCH=$root "$tt" check --store "$store" --preset trace --write-baseline /dev/null -- \
    /work/shared/realtorch/run.sh env TORCHINDUCTOR_CACHE_DIR=$A TORCH_COMPILE_JOB_ID=cmp "$@" python3 repro/c01_mlp.py
  echo "$name: exit $?"
}
one cold
one warm
one warm
one keytag TORCH_COMPILE_CACHE_KEY_TAG=v2
one threads TORCHINDUCTOR_COMPILE_THREADS=1
