# A loop that compiles, breaks on print, and is interrupted (SIGINT) while still running.
import time
import torch


@torch.compile
def step(x):
    y = x * 2
    print("step")
    return y + 1


for i in range(1000):
    step(torch.randn(4))
    time.sleep(0.05)
