import torch
@torch.compile
def f(x):
    print("hi")
    return x + 1
f(torch.ones(3))
