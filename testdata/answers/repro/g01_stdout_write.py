# sys.stdout.write and flush inside compiled code: graph breaks.
import sys
import torch

@torch.compile(backend="eager")
def f(x):
    y = x * 2
    sys.stdout.write("step\n")
    sys.stdout.flush()
    return y + 1

f(torch.randn(4))
print("done")
