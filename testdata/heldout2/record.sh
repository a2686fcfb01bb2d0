#!/bin/bash
# Records every repro of the second held-out set under repro/ with real PyTorch (../../../shared/realtorch/run.sh):
#   REALTORCH=/opt/rt214 ./record.sh 2.14      REALTORCH=/opt/rt26 ./record.sh 2.6      [NAME-glob]
# Each log is the exact stdout+stderr (2>&1) of one run, nothing edited:
#   NAME.triage.log        TORCH_LOGS=graph_breaks,recompiles python3 repro/NAME.py
#   NAME.withtrace.log     the same plus TORCH_TRACE=torch-V/NAME.trace (the repros listed in $traced)
set -u
v=${1:?torch version dir: 2.14 or 2.6}
here=$(cd "$(dirname "$0")" && pwd)
run=${RUNSH:-$here/../../../shared/realtorch/run.sh}
traced=" g01_moe_topk_router g04_unet_timestep_float g07_quant_scales_dict g15_dynamo_config_midrun g19_autograd_grad_inside "
cd "$here"
mkdir -p "torch-$v"
one() { # preset logs [trace]
	local preset=$1 logs=$2 extra=${3:-}
	local out="torch-$v/$name.$preset.log"
	timeout 300 nice -n 10 "$run" env TORCH_LOGS="$logs" $extra python3 "$py" >"$out" 2>&1
	echo "$name $preset: exit $?"
}
for py in repro/${2:-*}.py; do
	name=$(basename "$py" .py)
	one triage graph_breaks,recompiles
	[[ $traced == *" $name "* ]] && { rm -rf "torch-$v/$name.trace"; one withtrace graph_breaks,recompiles "TORCH_TRACE=torch-$v/$name.trace"; }
done
