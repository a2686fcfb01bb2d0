# Fake torchrun failure that is not about TORCH_LOGS (real output, exit 1).
cat "$(dirname "$0")/../../runs/testdata/torch-2.6.torchrun-port-in-use.log" >&2
exit 1
