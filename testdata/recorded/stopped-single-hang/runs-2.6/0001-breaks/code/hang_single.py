# One process (no torchrun, no RANK) compiles a function, runs it three times, then waits on an event nothing sets:
# the tool's --timeout stops it. Its KeyboardInterrupt traceback names no rank.
import threading

import torch


@torch.compile(backend="eager")
def f(x):
    return torch.relu(x) * 2


for step in range(3):
    f(torch.randn(8))
    print(f"step {step}", flush=True)
threading.Event().wait()
