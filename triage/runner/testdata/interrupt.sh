# Fake repro that, like Python, reports SIGINT and exits 130.
trap 'echo "got SIGINT" >&2; exit 130' INT
echo "waiting"
while :; do sleep 0.05; done
