# A repro whose grandchild escapes all but its output: it starts its own session (setsid), clears its
# environment (env -i: no run marker) and its parent exits at once (it is orphaned); it keeps writing to the
# run's stdout. With an argument the repro itself ends once the grandchild runs.
sh -c 'setsid env -i PATH=/usr/bin:/bin /bin/sh -c "echo ESCAPED \$\$; while :; do echo tick; sleep 0.05; done" &'
echo "LEADER $$"
if [ -n "$1" ]; then
	sleep 0.3
	exit 0
fi
while :; do sleep 0.1; done
