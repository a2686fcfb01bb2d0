import torch

@torch.compile
def f(x, y):
    x = x * 2
    print("hello")          # graph break: print
    if x.sum() > 0:          # data-dependent branch
        return x + y
    return x - y

@torch.compile
def g(x, c):
    return x * c + 1

for n in (4, 8, 16):
    f(torch.randn(n), torch.randn(n))
for c in (0.5, 1.5, 2.5):
    g(torch.randn(3), c)
