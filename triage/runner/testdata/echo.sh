# Fake repro: one line on each stream, then exit with code $1 (default 0).
echo "hello stdout"
echo "hello stderr" >&2
echo "TORCH_LOGS=${TORCH_LOGS-unset} TORCHDYNAMO_DISABLE=${TORCHDYNAMO_DISABLE-unset}"
exit "${1:-0}"
