# Fake repro that prints once and goes quiet, like a rank hung in a collective: SIGUSR1 prints a stack dump and
# SIGINT a traceback, as Python's faulthandler and KeyboardInterrupt do when torchtriage asks for stacks or stops
# the run. Its pid goes to $1/probe/dumper.pid.
trap 'echo "Current thread 0x00007f (most recent call first):"; echo "  File \"x.py\", line 3 in <module>"' USR1
trap 'echo "KeyboardInterrupt"; exit 1' INT
echo "$$" > "$1/probe/dumper.pid"
echo "started"
while :; do sleep 0.05; done
