# Fake repro with one registered stack dumper (traps SIGUSR1) and one process
# without a handler (SIGUSR1 would kill it). Pids go to $1/probe/.
sh -c 'trap "echo STACKS from \$\$" USR1; echo "$$" > "$0/probe/dumper.pid"; while :; do sleep 0.05; done' "$1" &
sh -c 'echo "$$" > "$0/probe/plain.pid"; exec sleep 300' "$1" &
echo "started"
wait
