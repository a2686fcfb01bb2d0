# os.getpid() inside compiled code: a graph break.
import os
import torch

@torch.compile(backend="eager")
def f(x):
    y = x * 2
    if os.getpid() > 0:
        y = y + 1
    return y

f(torch.randn(4))
print("done")
