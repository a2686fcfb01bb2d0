import torch
@torch.compile(backend="eager")
def f(x):
    print("hi")
    return x + 1
f(torch.ones(2))
