# Fake torch 2.14: rejects TORCH_LOGS containing nonexistent_thing with the
# real error output (torch-2.14.unknown-torch-logs-name.log) and exit 1.
case ",$TORCH_LOGS," in
*,nonexistent_thing,*)
  cat "$(dirname "$0")/../../runs/testdata/torch-2.14.unknown-torch-logs-name.log" >&2
  exit 1
  ;;
esac
echo "ran with TORCH_LOGS=$TORCH_LOGS"
