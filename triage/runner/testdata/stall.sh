# Fake repro that goes quiet for a while: output, ${1:-1}s of silence, output.
echo "before"
sleep "${1:-1}"
echo "after"
