#!/bin/bash
# Records every repro under repro/ with real PyTorch (../../../shared/realtorch/run.sh):
#   REALTORCH=/opt/rt214 ./record.sh 2.14      REALTORCH=/opt/rt26 ./record.sh 2.6
# Each log is the exact stdout+stderr (2>&1) of `TORCH_LOGS=graph_breaks,recompiles python3 repro/NAME.py`.
set -u
v=${1:?torch version dir: 2.14 or 2.6}
here=$(cd "$(dirname "$0")" && pwd)
run=${RUNSH:-$here/../../../shared/realtorch/run.sh}
cd "$here"
mkdir -p "torch-$v"
for py in repro/${2:-*}.py; do
	name=$(basename "$py" .py)
	timeout 300 "$run" env TORCH_LOGS=graph_breaks,recompiles python3 "$py" > "torch-$v/$name.triage.log" 2>&1
	echo "$name: exit $?"
done
