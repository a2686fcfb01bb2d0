# Fake hung repro: ignores SIGINT and SIGTERM (children inherit that), starts a
# child, a grandchild, a child in its own session and an orphaned grandchild
# in its own session without the run's environment (env -i), prints their
# pids, and never ends on its own.
trap '' INT TERM
sh -c 'echo "CHILD $$"; exec sleep 300' &
sh -c 'sh -c "echo GRAND \$\$; exec sleep 300" & wait' &
setsid sh -c 'echo "SETSID $$"; exec sleep 300' &
sh -c 'setsid env -i PATH=/usr/bin:/bin /bin/sh -c "echo ESCAPED \$\$; exec sleep 300" &'
echo "LEADER $$"
while :; do sleep 0.1; done
