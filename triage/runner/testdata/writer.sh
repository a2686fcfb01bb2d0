# Fake repro that keeps writing both streams for about a second, ignoring
# SIGINT and SIGTERM, then prints END.
trap '' INT TERM
i=1
while [ "$i" -le 100 ]; do
  echo "out line $i of the writer"
  echo "err line $i of the writer" >&2
  sleep 0.01
  i=$((i + 1))
done
echo END
