import torch
@torch.compile(backend="eager")
def f(x):
    x = x + 1
    print("hi")
    if x.sum() > 0:
        x = x - 1
    return x * 2
for n in (3,4,5):
    f(torch.randn(n))
