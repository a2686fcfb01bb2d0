# Fake repro with a registered stack dumper that says what reached it, in order: SIGUSR1 (the stack dump) and
# SIGINT (the stop). Its pid goes to $1/probe/dumper.pid.
trap 'echo STACKS' USR1
trap 'echo INTERRUPTED; exit 130' INT
echo "$$" > "$1/probe/dumper.pid"
echo started
while :; do sleep 0.05; done
