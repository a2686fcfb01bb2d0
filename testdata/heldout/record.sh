#!/bin/bash
# Records every held-out repro under repro/ with real PyTorch (../../../shared/realtorch/run.sh), plain python:
#   REALTORCH=/opt/rt214 ./record.sh 2.14      REALTORCH=/opt/rt26 ./record.sh 2.6      [NAME-glob]
# Each log is the exact stdout+stderr (2>&1) of one run, nothing edited:
#   NAME.triage.log        TORCH_LOGS=graph_breaks,recompiles python3 repro/NAME.py
#   NAME.withtrace.log     the same plus TORCH_TRACE=torch-V/NAME.trace (the repros listed in $traced)
#   NAME.dynamo_debug.log  TORCH_LOGS=+dynamo,recompiles (the repros listed in $debug)
#   NAME.ddp.log           TORCH_LOGS=ddp_graphs,graph_breaks,recompiles (2-rank repros)
# 2-rank repros (h29_*) run under torchrun --nproc-per-node 2 (gloo).
set -u
v=${1:?torch version dir: 2.14 or 2.6}
here=$(cd "$(dirname "$0")" && pwd)
run=${RUNSH:-$here/../../../shared/realtorch/run.sh}
traced=" h01_kv_cache_decode h03_train_step_adamw h05_bool_mask_select h06_item_loss_log h12_modulelist_depth h14_library_no_fake h18_inference_mode_switch h21_last_batch_smaller h25_error_on_recompile_module h28_cache_limit_dynamic_false h30_skip_generator_frame h33_module_step_attr "
debug=" h30_skip_generator_frame h09_print_stderr_progress "
port=$((29700 + ${#v} * 10))
cd "$here"
mkdir -p "torch-$v"
one() { # preset logs [trace]
	local preset=$1 logs=$2 extra=${3:-}
	local out="torch-$v/$name.$preset.log"
	case $name in
	h29_*) port=$((port + 1)); timeout 300 nice -n 10 "$run" env TORCH_LOGS="$logs" $extra torchrun --nproc-per-node 2 --master-port $port "$py" >"$out" 2>&1 ;;
	*) timeout 300 nice -n 10 "$run" env TORCH_LOGS="$logs" $extra python3 "$py" >"$out" 2>&1 ;;
	esac
	echo "$name $preset: exit $?"
}
for py in repro/${2:-*}.py; do
	name=$(basename "$py" .py)
	one triage graph_breaks,recompiles
	case $name in h29_*) one ddp ddp_graphs,graph_breaks,recompiles ;; esac
	[[ $debug == *" $name "* ]] && one dynamo_debug +dynamo,recompiles
	[[ $traced == *" $name "* ]] && { rm -rf "torch-$v/$name.trace"; one withtrace graph_breaks,recompiles "TORCH_TRACE=torch-$v/$name.trace"; }
done
